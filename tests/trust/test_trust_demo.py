"""The demo fleet's trust evidence: valid, deterministic, and every tier and the gate occur."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from aaaf.demo import trust as trust_demo
from aaaf.reports.trust_text import tier_reason_text
from aaaf.scoring.records import EventRecord
from aaaf.scoring.trust import score_trust_from_events

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _records(paths: list[Path]) -> dict[str, list[EventRecord]]:
    by_agent: dict[str, list[EventRecord]] = {}
    counter = 0
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            raw = json.loads(line)
            counter += 1
            by_agent.setdefault(raw["agent"], []).append(
                EventRecord(
                    id=f"{counter:07d}",
                    agent=raw["agent"],
                    type=raw["type"],
                    timestamp=datetime.fromisoformat(raw["timestamp"].replace("Z", "+00:00")),
                    data=raw["data"],
                    task_id=raw["data"].get("task_id"),
                    key=raw.get("id"),
                )
            )
    return by_agent


@pytest.fixture(scope="module")
def demo_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    from aaaf.demo import fleet

    out = tmp_path_factory.mktemp("demo")
    fleet_path = out / "fleet.jsonl"
    fleet.main(["--output", str(fleet_path), "--now", "2026-11-20T12:00:00Z"])
    agents_path = out / "agents.json"
    evals_path = out / "trust_evals.jsonl"
    assert (
        trust_demo.main(
            ["--fleet", str(agents_path), "--output", str(evals_path), "--now", "2026-11-20T12:00:00Z"]
        )
        == 0
    )
    return fleet_path, agents_path, evals_path


@pytest.mark.parametrize("days_later", [0.0, 2.0, 7.0])
def test_every_tier_and_the_security_gate_occur(
    demo_files: tuple[Path, Path, Path], days_later: float
) -> None:
    """Scored at the demo's time and a week after it (the demo runs `aaaf trust --all` at the real now)."""
    fleet_path, agents_path, evals_path = demo_files
    names = trust_demo.fleet_names(agents_path)
    profiles = trust_demo.profiles_for(names)
    events = _records([fleet_path, evals_path])
    at = NOW + timedelta(days=days_later)
    results = {name: score_trust_from_events(events.get(name, []), at=at, agent=name) for name in names}
    assert {r.tier for r in results.values()} == {"platinum", "gold", "silver", "bronze", "uncertified"}
    assert any(
        r.gated and r.uncapped_composite is not None and r.uncapped_composite > 599 for r in results.values()
    )
    by_scenario = {
        profiles[name].scenario: results[name] for name in names if profiles[name].scenario != "organic"
    }
    assert by_scenario["platinum"].tier == "platinum"
    assert by_scenario["gold"].tier == "gold"
    assert by_scenario["silver"].tier == "silver"
    assert by_scenario["bronze"].tier == "bronze" and not by_scenario["bronze"].gated
    gated = by_scenario["security-gated"]
    assert gated.gated and gated.composite == 599.0 and gated.tier == "bronze"
    assert by_scenario["coverage-unmet"].covered == 9
    assert "9 of 16 dimensions covered, 10 required" in tier_reason_text(
        by_scenario["coverage-unmet"].tier_reason
    )
    assert by_scenario["mandatory-missing"].mandatory_missing == ("safety",)
    decayed = by_scenario["decayed"]
    assert decayed.tier == "silver"
    assert all(o.decay_points > 20 for d in decayed.dimensions.values() for o in d.observations)
    assert by_scenario["no-evaluations"].tier == "uncertified"
    assert all(d.source != "eval_result" for d in by_scenario["no-evaluations"].dimensions.values())
    assert by_scenario["below-bronze"].composite is not None and by_scenario["below-bronze"].composite < 400
    # juries with dropped outliers, operational fill-ins and the teamwork opt-in all show up
    dimensions = [d for r in results.values() for d in r.dimensions.values()]
    assert any(d.jury_summary()["dropped_jurors"] for d in dimensions)
    assert any(d.source == "operational" for d in dimensions)
    assert any(r.dimensions["teamwork"].covered for r in results.values())
    assert any(not r.dimensions["teamwork"].covered for r in results.values())


def test_eval_events_are_valid_evidence(demo_files: tuple[Path, Path, Path]) -> None:
    from aaaf.evidence.validation import validate_event

    _, _, evals_path = demo_files
    lines = evals_path.read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        validate_event(json.loads(line), now=NOW)


def test_deterministic_same_seed_same_bytes(tmp_path: Path) -> None:
    names = [f"agent-{i:02d}" for i in range(12)]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    trust_demo.write(trust_demo.generate(names, now=NOW), first)
    trust_demo.write(trust_demo.generate(names, now=NOW), second)
    assert first.read_bytes() == second.read_bytes()
    other = tmp_path / "c.jsonl"
    trust_demo.write(trust_demo.generate(names, now=NOW, seed=99), other)
    assert other.read_bytes() != first.read_bytes()


def test_fleet_names_from_enrollment_list_or_fleet_log(tmp_path: Path) -> None:
    listing = tmp_path / "agents.json"
    listing.write_text(json.dumps([{"name": "b"}, {"name": "a"}, {"name": "b"}]))
    assert trust_demo.fleet_names(listing) == ["b", "a"]
    log = tmp_path / "fleet.jsonl"
    log.write_text('{"agent": "x", "type": "t"}\n{"agent": "y"}\n\n{"agent": "x"}\n')
    assert trust_demo.fleet_names(log) == ["x", "y"]


def test_no_event_lies_in_the_future() -> None:
    events = trust_demo.generate([f"a{i}" for i in range(15)], now=NOW)
    assert max(datetime.fromisoformat(e["timestamp"].replace("Z", "+00:00")) for e in events) <= NOW
