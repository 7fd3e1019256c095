"""End-to-end tests of the phase-1 CLI (issue 3 §6) on a temporary SQLite file."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.scoring.defaults import CAPABILITY_DIMENSIONS, PERFORMANCE_DIMENSIONS
from tests.cli.events_factory import NOW, agent_log, write_jsonl

runner = CliRunner()


@pytest.fixture()
def db(sqlite_at_head: Path) -> str:
    return str(sqlite_at_head)


def aaaf(db: str, *args: str, input: str | None = None):
    return runner.invoke(app, [*args, "--db", db], input=input)


def test_enroll_and_agents(db: str) -> None:
    result = aaaf(db, "enroll", "security-auditor", "--domains", "security,code", "--tools", "bash,grep")
    assert result.exit_code == 0, result.output
    listed = json.loads(aaaf(db, "agents", "--json").stdout)
    assert [a["name"] for a in listed] == ["security-auditor"]
    assert listed[0]["claimed_domains"] == ["security", "code"]
    again = aaaf(db, "enroll", "security-auditor")
    assert again.exit_code == 2
    assert "security-auditor" in again.output


def test_collect_keeps_accepted_lines_and_reports_rejected(db: str, tmp_path: Path) -> None:
    aaaf(db, "enroll", "coder")
    events = agent_log(None, 3)
    bad_type = json.dumps({"type": "task_exploded", "timestamp": NOW.isoformat(), "data": {}})
    log = write_jsonl(tmp_path / "log.jsonl", events, extra_lines=["{not json", bad_type])
    result = aaaf(db, "collect", "coder", "--source", "task_logs", str(log))
    assert result.exit_code == 2
    lines = result.stdout.strip().splitlines()
    assert "accepted 6, rejected 2" in lines
    assert "line 7" in result.stdout and "line 8" in result.stdout
    assert "INVALID_EVENT_TYPE" in result.stdout
    # the accepted lines stayed: re-sending stores nothing new and is not an error for them
    again = aaaf(db, "collect", "coder", "--source", "task_logs", str(log), "--json")
    report = json.loads(again.stdout)
    assert report["accepted"] == 0 and report["duplicates"] == 6 and report["rejected"] == 2


def test_collect_fleet_log_with_and_without_enroll(db: str, tmp_path: Path) -> None:
    log = write_jsonl(tmp_path / "fleet.jsonl", agent_log("a1", 2) + agent_log("a2", 2))
    refused = aaaf(db, "collect", "--source", "task_logs", str(log))
    assert refused.exit_code == 2
    assert "accepted 0, rejected 8" in refused.stdout
    ok = aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll")
    assert ok.exit_code == 0, ok.output
    assert "accepted 8, rejected 0" in ok.stdout
    names = [a["name"] for a in json.loads(aaaf(db, "agents", "--json").stdout)]
    assert sorted(names) == ["a1", "a2"]


def test_collect_manual_event_from_stdin(db: str) -> None:
    aaaf(db, "enroll", "coder")
    event = agent_log(None, 1)[0]
    result = aaaf(db, "collect", "coder", "--source", "manual", input=json.dumps(event))
    assert result.exit_code == 0, result.output
    assert "accepted 1, rejected 0" in result.stdout


def _fleet(db: str, tmp_path: Path, tasks: dict[str, int]) -> None:
    events = []
    for name, count in tasks.items():
        events += agent_log(name, count)
    log = write_jsonl(tmp_path / "fleet.jsonl", events)
    result = aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll")
    assert result.exit_code == 0, result.output


def test_assess_json_has_the_document_shape(db: str, tmp_path: Path) -> None:
    _fleet(db, tmp_path, {"coder": 36})
    result = aaaf(db, "assess", "coder", "--json", "--window-end", NOW.isoformat())
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    # document 004 §6.2, GET /api/v1/assessments/{id} when complete: exactly these fields,
    # plus the top-level audit object every assessment reports (SCORING.md §2.6) and where its
    # evidence came from (docs/stress-tests.md "Provenance")
    assert set(body) == {
        "audit",
        "evidence_sources",
        "id",
        "agent_id",
        "status",
        "performance",
        "capability",
        "badge_urls",
        "valid_until",
        "created_at",
        "completed_at",
    }
    assert body["status"] == "completed"
    # the 36 collected tasks: every one reported by the organization, none stress-tested here
    assert body["evidence_sources"]["performance"]["stress_tested_tasks"] == 0
    assert body["evidence_sources"]["performance"]["reported_tasks"] == 36
    for key in (
        "id",
        "agent_id",
        "performance",
        "capability",
        "badge_urls",
        "valid_until",
        "created_at",
        "completed_at",
    ):
        assert key in body
    assert set(body["badge_urls"]) == {"svg", "png", "json"}
    for axis, names in (("performance", PERFORMANCE_DIMENSIONS), ("capability", CAPABILITY_DIMENSIONS)):
        block = body[axis]
        assert set(block) >= {"composite_score", "tier", "dimensions", "covered", "total"}
        assert list(block["dimensions"]) == list(names)
        assert block["total"] == len(names)
        for dim in block["dimensions"].values():
            assert {"score", "sample_size", "evidence_count"} <= set(dim)
            if dim["score"] is None:
                assert dim["reason"]
    # 36 tasks, every one accepted: task completion rate is exactly 1
    assert body["performance"]["dimensions"]["task_completion_rate"]["score"] == 1.0
    # no tool, delegation or orchestration evidence: null, never 0
    assert body["capability"]["dimensions"]["tool_proficiency"]["score"] is None
    assert body["capability"]["covered"] < 7


def test_assess_insufficient_evidence_exit_2_with_details(db: str, tmp_path: Path) -> None:
    _fleet(db, tmp_path, {"newbie": 12})
    result = aaaf(db, "assess", "newbie", "--json", "--window-end", NOW.isoformat())
    assert result.exit_code == 2
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "INSUFFICIENT_EVIDENCE"
    assert error["details"]["axis"] == "performance"
    assert error["details"]["current_count"] == 12
    assert error["details"]["required_count"] == 20
    assert error["details"]["window_end"] == "2026-11-20T12:00:00Z"
    assert error["details"]["window_start"] == "2026-10-21T12:00:00Z"


def test_assess_all_reports_insufficient_without_stopping(db: str, tmp_path: Path) -> None:
    _fleet(db, tmp_path, {"good": 36, "newbie": 5, "other": 40})
    result = aaaf(db, "assess", "--all", "--window-end", NOW.isoformat(), "--json")
    assert result.exit_code == 2
    outcomes = {o["agent"]: o for o in json.loads(result.stdout)}
    assert outcomes["good"]["assessment"]["status"] == "completed"
    assert outcomes["other"]["assessment"]["status"] == "completed"
    assert outcomes["newbie"]["error"]["code"] == "INSUFFICIENT_EVIDENCE"
    # the refusal names the axis, the counts and both ways forward, and leaves no failed record
    message = outcomes["newbie"]["error"]["message"]
    assert "Performance needs 20 completed tasks" in message and "the agent has 5" in message
    assert "aaaf config set minimum_tasks_performance N" in message
    assert "--type single_dimension --dimension NAME" in message
    table = aaaf(db, "assessments", "newbie", "--json")
    assert json.loads(table.stdout) == []
    single = aaaf(db, "assess", "newbie", "--window-end", NOW.isoformat())
    assert single.exit_code == 2 and "minimum_tasks_performance" in single.output
    assert json.loads(aaaf(db, "assessments", "newbie", "--json").stdout) == []


def test_single_dimension_assessment(db: str, tmp_path: Path) -> None:
    _fleet(db, tmp_path, {"coder": 22})  # enough for performance (20), not capability (30)
    result = aaaf(
        db,
        "assess",
        "coder",
        "--type",
        "single_dimension",
        "--dimension",
        "accuracy",
        "--json",
        "--window-end",
        NOW.isoformat(),
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert list(body["performance"]["dimensions"]) == ["accuracy"]
    assert body["capability"] is None
    bad = aaaf(db, "assess", "coder", "--type", "single_dimension", "--dimension", "charisma")
    assert bad.exit_code == 2 and "charisma" in bad.output


def test_appeal_rescores_only_challenged_dimensions(db: str, tmp_path: Path) -> None:
    _fleet(db, tmp_path, {"coder": 36})
    body = json.loads(aaaf(db, "assess", "coder", "--json").stdout)
    assessment_id = body["id"]
    # task coder-000 was revised (every fourth task is): counter-evidence says it was a scope change
    evidence = tmp_path / "ce.json"
    evidence.write_text(json.dumps([{"task_id": "coder-000", "claim": "scope change, not an error"}]))
    not_assessed = aaaf(
        db,
        "appeal",
        "file",
        assessment_id,
        "--dimensions",
        "charisma",
        "--justification",
        "x",
        "--counter-evidence",
        str(evidence),
    )
    assert not_assessed.exit_code == 2 and "charisma" in not_assessed.output
    unknown_task = tmp_path / "bad.json"
    unknown_task.write_text(json.dumps([{"task_id": "nope", "claim": "?"}]))
    refused = aaaf(
        db,
        "appeal",
        "file",
        assessment_id,
        "--dimensions",
        "accuracy",
        "--justification",
        "x",
        "--counter-evidence",
        str(unknown_task),
    )
    assert refused.exit_code == 2 and "nope" in refused.output
    filed = aaaf(
        db,
        "appeal",
        "file",
        assessment_id,
        "--dimensions",
        "accuracy",
        "--justification",
        "revisions were scope changes",
        "--counter-evidence",
        str(evidence),
        "--json",
    )
    assert filed.exit_code == 0, filed.output
    appeal_id = json.loads(filed.stdout)["id"]
    resolved = aaaf(db, "appeal", "resolve", appeal_id, "accepted", "--notes", "agreed", "--json")
    assert resolved.exit_code == 0, resolved.output
    after = json.loads(aaaf(db, "assessments", "coder", "--json").stdout)[0]
    before_perf, after_perf = body["performance"]["dimensions"], after["performance"]["dimensions"]
    assert after_perf["accuracy"]["score"] > before_perf["accuracy"]["score"]
    for name in PERFORMANCE_DIMENSIONS:
        if name != "accuracy":
            assert float.hex(after_perf[name]["score"]) == float.hex(before_perf[name]["score"])
    assert after["capability"]["dimensions"] == body["capability"]["dimensions"]
    assert after["appeals"][0]["status"] == "accepted"
    again = aaaf(db, "appeal", "resolve", appeal_id, "rejected")
    assert again.exit_code == 2


def test_assess_due_and_window_boundaries(db: str, tmp_path: Path) -> None:
    _fleet(db, tmp_path, {"coder": 36})
    first = aaaf(db, "assess", "--due", "--json")
    assert first.exit_code == 0, first.output
    assert [o["agent"] for o in json.loads(first.stdout)] == ["coder"]
    second = aaaf(db, "assess", "--due", "--json")
    assert json.loads(second.stdout) == []


def test_bad_window_end_is_bad_input(db: str) -> None:
    result = aaaf(db, "assess", "--all", "--window-end", "yesterday-ish")
    assert result.exit_code == 2
    assert "--window-end" in result.output


def test_exactly_one_target(db: str) -> None:
    assert aaaf(db, "assess").exit_code == 2
    assert aaaf(db, "assess", "x", "--all").exit_code == 2


def test_timestamp_helper_is_consistent() -> None:
    assert (NOW - timedelta(days=30)).isoformat() == "2026-10-21T12:00:00+00:00"


def test_collect_resolves_workflow_definitions(db: str, tmp_path: Path) -> None:
    workflows = tmp_path / "workflows"
    workflows.mkdir()
    (workflows / "etl.json").write_text(
        json.dumps(
            {
                "name": "etl",
                "steps": [
                    {"id": "extract", "error_handling": {"retry_count": 2}, "timeout_seconds": 60},
                    {
                        "id": "load",
                        "depends_on": ["extract"],
                        "error_handling": {"retry_count": 1},
                        "timeout_seconds": 60,
                    },
                ],
            }
        )
    )
    run = {
        "agent": "miner-1",
        "type": "workflow_run",
        "timestamp": NOW.isoformat(),
        "data": {
            "task_id": "w1",
            "workflow": "etl",
            "steps_completed": 2,
            "output_quality": 0.9,
            "actual_cost": 1.0,
            "max_budget": 2.0,
            "actual_seconds": 30.0,
            "max_latency_seconds": 60.0,
            "actual_retries": 4,
            "timeouts": 0,
            "hard_failures": 0,
        },
    }
    log = write_jsonl(tmp_path / "runs.jsonl", [run])
    without = aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll")
    assert without.exit_code == 2 and "dag_steps" in without.stdout
    with_defs = aaaf(
        db, "collect", "--source", "task_logs", str(log), "--enroll", "--workflows", str(workflows)
    )
    assert with_defs.exit_code == 0, with_defs.output
    scored = json.loads(aaaf(db, "workflow", "score", "--agent", "miner-1", "--json").stdout)
    text = json.dumps(scored)
    # dag_steps 2 and retry budget 2 + 1 = 3 came from the definition: 4 retries → 1 unplanned
    assert '"unplanned_retries": 1' in text


def test_collect_manual_event_from_flags(db: str) -> None:
    aaaf(db, "enroll", "coder")
    data = json.dumps(
        {"task_id": "m1", "complexity_level": 2, "domain": "code", "assigned_at": NOW.isoformat()}
    )
    ok = aaaf(
        db,
        "collect",
        "coder",
        "--source",
        "manual",
        "--type",
        "task_assigned",
        "--timestamp",
        NOW.isoformat(),
        "--data",
        data,
    )
    assert ok.exit_code == 0, ok.output
    assert "accepted 1, rejected 0" in ok.stdout
    bad = aaaf(db, "collect", "coder", "--source", "manual", "--type", "task_assigned", "--data", "{oops")
    assert bad.exit_code == 2
    assert "data" in bad.output
