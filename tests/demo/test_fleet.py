"""The demo fleet generator: realistic, deterministic, and it shows every tier (issue 3 item 6)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aaaf.demo import fleet as fleet_module
from aaaf.demo.fleet import (
    BASELINE_SECONDS,
    DOMAINS,
    generate_fleet,
    iso_seconds,
    iter_benchmark_events,
    main,
    parse_now,
    write_benchmark,
    write_fleet,
)
from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord

NOW = parse_now("2026-11-20T12:00:00Z")


def _ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def records_by_agent(events: list[dict[str, Any]]) -> dict[str, list[EventRecord]]:
    by_agent: dict[str, list[EventRecord]] = defaultdict(list)
    for index, event in enumerate(events):
        by_agent[event["agent"]].append(
            EventRecord(
                id=str(index),
                agent=event["agent"],
                type=event["type"],
                timestamp=_ts(event["timestamp"]),
                data=event["data"],
                task_id=event["data"].get("task_id"),
                key=event.get("id"),
            )
        )
    return by_agent


@pytest.fixture(scope="module")
def demo_fleet() -> fleet_module.Fleet:
    return generate_fleet(NOW)


@pytest.fixture(scope="module")
def assessed(demo_fleet: fleet_module.Fleet) -> dict[str, Any]:
    """Every agent assessed at window_end = now with the default configuration."""
    from aaaf.scoring.aaaf import assess

    outcomes: dict[str, Any] = {}
    for name, records in records_by_agent(demo_fleet.events).items():
        try:
            outcomes[name] = assess(records, AAAFConfig(), NOW)
        except AAAFError as error:
            outcomes[name] = error
    return outcomes


def test_at_least_thirty_agents_enrolled_and_evidenced(demo_fleet: fleet_module.Fleet) -> None:
    names = [entry["name"] for entry in demo_fleet.enrollment]
    assert len(names) >= 30
    assert len(set(names)) == len(names)
    assert {event["agent"] for event in demo_fleet.events} == set(names)
    for entry in demo_fleet.enrollment:
        assert set(entry) == {"name", "domains", "tools", "description"}
        assert entry["domains"] and set(entry["domains"]) <= set(DOMAINS)
    assert "security-auditor" in names and "doc-synthesizer" in names


def test_all_twelve_domains_are_worked_in(demo_fleet: fleet_module.Fleet) -> None:
    domains = {
        event["data"]["domain"]
        for event in demo_fleet.events
        if event["type"] in ("task_assigned", "task_completed") and "domain" in event["data"]
    }
    assert domains == set(DOMAINS)
    assert len(DOMAINS) == 12


def test_thirty_day_span_ending_at_now(demo_fleet: fleet_module.Fleet) -> None:
    stamps = [_ts(event["timestamp"]) for event in demo_fleet.events]
    assert min(stamps) >= NOW - timedelta(days=30)
    assert max(stamps) <= NOW
    assert max(stamps) - min(stamps) >= timedelta(days=29)


def test_the_whole_event_vocabulary_is_used(demo_fleet: fleet_module.Fleet) -> None:
    types = Counter(event["type"] for event in demo_fleet.events)
    assert set(types) == {
        "task_assigned",
        "task_completed",
        "task_revised",
        "tool_invoked",
        "delegation_decision",
        "delegation_outcome",
        "orchestration_plan",
        "orchestration_result",
        "memory_operation",
    }
    completions = [event["data"] for event in demo_fleet.events if event["type"] == "task_completed"]
    statuses = Counter(data["completion_status"] for data in completions)
    assert set(statuses) == {"accepted", "partial", "rejected", "failed"}
    assert any("milestones" in data for data in completions)
    assert any("milestone_fraction" in data for data in completions)
    assert any("tools_used" in data and "domain" in data for data in completions)  # the rich form
    assert any("delegation_decisions" in data for data in completions)
    severities = {
        error.get("severity") for data in completions for error in data["errors"] if isinstance(error, dict)
    }
    assert severities == {"critical", "major", "minor"}
    assert any(isinstance(error, str) for data in completions for error in data["errors"])
    assert any(data["revision_count"] > 0 for data in completions)
    assert all(data["budget_usd"] > 0 and data["cost_usd"] >= 0 for data in completions)
    decisions = [event["data"] for event in demo_fleet.events if event["type"] == "delegation_decision"]
    assert any(d["decision"] == "delegate" and "optimal_delegate" in d for d in decisions)
    assert any(d["decision"] == "self" and "delegate_to" not in d for d in decisions)
    results = [event["data"] for event in demo_fleet.events if event["type"] == "orchestration_result"]
    assert all(
        {"workflow_design_score", "communication_clarity_score", "synthesis_quality_score"} <= set(r)
        for r in results
    )
    memory = Counter(
        event["data"]["operation"] for event in demo_fleet.events if event["type"] == "memory_operation"
    )
    assert set(memory) == {"search", "write"}


def test_durations_are_realistic_against_the_baselines(demo_fleet: fleet_module.Fleet) -> None:
    levels: dict[tuple[str, str], int] = {}
    for event in demo_fleet.events:
        data = event["data"]
        if "complexity_level" in data:
            levels[(event["agent"], data["task_id"])] = data["complexity_level"]
    ratios = [
        event["data"]["time_to_complete_seconds"]
        / BASELINE_SECONDS[levels[(event["agent"], event["data"]["task_id"])]]
        for event in demo_fleet.events
        if event["type"] == "task_completed"
    ]
    assert len(ratios) > 1000
    assert min(ratios) > 0.2 and max(ratios) < 4.0
    assert sum(1 for r in ratios if r <= 1.0) > 0.3 * len(ratios)  # many at or under baseline
    assert sum(1 for r in ratios if r > 1.0) > 0.1 * len(ratios)  # and a good share slower


def test_every_event_passes_validation(demo_fleet: fleet_module.Fleet) -> None:
    from aaaf.evidence.validation import validate_event

    for event in demo_fleet.events:
        validate_event(event, now=NOW)


def test_every_performance_tier_and_four_capability_tiers(assessed: dict[str, Any]) -> None:
    results = [r for r in assessed.values() if not isinstance(r, AAAFError)]
    performance = Counter(r.performance.composite.tier for r in results)
    capability = Counter(r.capability.composite.tier for r in results)
    assert set(performance) == {"Novice", "Competent", "Proficient", "Expert", "Elite"}, performance
    assert len(capability) >= 4, capability


def test_some_agents_have_too_little_evidence(assessed: dict[str, Any]) -> None:
    short = {name: r for name, r in assessed.items() if isinstance(r, AAAFError)}
    assert 1 <= len(short) <= 2
    for error in short.values():
        assert error.code == "INSUFFICIENT_EVIDENCE"
        assert error.details["axis"] == "performance"
        assert error.details["current_count"] < 20


def test_learners_improve_over_the_month(assessed: dict[str, Any]) -> None:
    for name in ("research-analyst", "frontend-builder"):
        learning = assessed[name].capability.dimensions["learning_rate"]
        assert learning.score is not None and learning.score >= 0.3, (name, learning)


def test_same_seed_same_bytes_and_another_seed_differs(tmp_path: Path) -> None:
    first, second, other = (
        tmp_path / "a" / "fleet.jsonl",
        tmp_path / "b" / "fleet.jsonl",
        tmp_path / "c" / "f.jsonl",
    )
    write_fleet(first, NOW, seed=7)
    write_fleet(second, NOW, seed=7)
    write_fleet(other, NOW, seed=8)
    assert first.read_bytes() == second.read_bytes()
    assert (first.parent / "agents.json").read_bytes() == (second.parent / "agents.json").read_bytes()
    assert first.read_bytes() != other.read_bytes()


def test_cli_writes_events_and_enrollment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out" / "fleet.jsonl"
    assert (
        main(["--output", str(output), "--now", "2026-11-20T12:00:00Z", "--agents", "31", "--seed", "7"]) == 0
    )
    lines = output.read_text().splitlines()
    enrollment = json.loads((tmp_path / "out" / "agents.json").read_text())
    assert len(enrollment) == 31
    assert {json.loads(line)["agent"] for line in lines} == {entry["name"] for entry in enrollment}
    assert "wrote" in capsys.readouterr().out


def test_more_agents_than_named_profiles_get_numbered_variants() -> None:
    names = [p.name for p in fleet_module.fleet_profiles(40)]
    assert len(names) == 40 == len(set(names))
    assert "chief-orchestrator-2" in names


@pytest.mark.parametrize("per_agent", [1, 2, 3, 5, 7, 1000])
def test_benchmark_mode_gives_exactly_n_events_per_agent(per_agent: int) -> None:
    for agent in range(3):
        events = list(iter_benchmark_events(agent, per_agent, NOW, 7))
        assert len(events) == per_agent
        stamps = [_ts(e["timestamp"]) for e in events]
        assert stamps == sorted(stamps)
        assert min(stamps) >= NOW - timedelta(days=30) and max(stamps) <= NOW
        assert len({e["id"] for e in events}) == per_agent


def test_benchmark_events_validate_and_file_is_deterministic(tmp_path: Path) -> None:
    from aaaf.evidence.validation import validate_event

    path_a, path_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    total, enrollment = write_benchmark(path_a, NOW, agents=4, events_per_agent=53)
    write_benchmark(path_b, NOW, agents=4, events_per_agent=53, enrollment_path=tmp_path / "b.json")
    assert total == 4 * 53
    assert path_a.read_bytes() == path_b.read_bytes()
    lines = path_a.read_text().splitlines()
    assert len(lines) == 212
    assert Counter(json.loads(line)["agent"] for line in lines) == {
        e["name"]: 53 for e in json.loads(enrollment.read_text())
    }
    for line in lines:
        validate_event(json.loads(line), now=NOW)


def test_benchmark_cli(tmp_path: Path) -> None:
    output = tmp_path / "bench.jsonl"
    assert main(["--output", str(output), "--agents", "3", "--events-per-agent", "10"]) == 0
    assert len(output.read_text().splitlines()) == 30


@given(st.integers(min_value=0, max_value=4_102_444_800))
def test_iso_seconds_matches_the_standard_library(epoch_seconds: int) -> None:
    expected = datetime.fromtimestamp(epoch_seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert iso_seconds(epoch_seconds) == expected


def test_only_writes_the_named_agents_exactly_as_in_the_whole_fleet(tmp_path) -> None:
    import json as _json

    from aaaf.demo.fleet import write_fleet as _write

    now = datetime(2026, 11, 20, 12, tzinfo=UTC)
    _write(tmp_path / "all.jsonl", now, enrollment_path=tmp_path / "all.json")
    count, enrollment = _write(
        tmp_path / "two.jsonl",
        now,
        enrollment_path=tmp_path / "two.json",
        only=["intern-bot", "onboarding-guide"],
    )
    everything = (tmp_path / "all.jsonl").read_text().splitlines()
    mine = [line for line in everything if _json.loads(line)["agent"] in ("intern-bot", "onboarding-guide")]
    assert (tmp_path / "two.jsonl").read_text().splitlines() == mine
    assert count == len(mine) > 0
    assert sorted(e["name"] for e in _json.loads(enrollment.read_text())) == [
        "intern-bot",
        "onboarding-guide",
    ]
