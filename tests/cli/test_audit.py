"""`aaaf audit sample|record|status` end to end, and the audit hold (SCORING.md §2.6, issue 16).

The issue's "Done when": an agent reports every checklist item true on 30 tasks; an audit of
20 % of them (6 tasks) finds half the items false, and errors on half the audited tasks.
Every task is completed within the last 4 days (recency weight 1), accepted, without
revisions or reported errors, in one (domain, level) group.

* review_compliance: before 1.0; after (24 · 1 + 6 · 2/4) / 30 = 0.9;
* accuracy: before 1.0; after from_revisions 1, mean werr = 3 · 1 (major) / 30 = 0.1,
  from_errors 0.9 → 0.6 + 0.4 · 0.9 = 0.96;
* honesty: 6 tasks × 4 items given, 2 refuted each → 12 / 24 = 0.5 < 0.9 with 6 ≥ 5 audited
  tasks → self_report_unreliable, held for review; coverage 6 / 30 = 0.2 = the required rate.
"""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.scoring.defaults import DEFAULT_CHECKLIST
from tests.cli.events_factory import task_events, write_jsonl

runner = CliRunner()
ALL_TRUE = dict.fromkeys(DEFAULT_CHECKLIST, True)
REFUTED = ("memory_written", "verification_evidence_provided")


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(app, [*args, "--db", db])


def _log(tmp_path: Path, agent: str = "boaster", tasks: int = 30) -> Path:
    now = datetime.now(UTC).replace(microsecond=0)
    events: list[dict[str, Any]] = []
    for i in range(tasks):
        events += task_events(
            agent, f"{agent}-{i:03d}", completed_at=now - timedelta(hours=1 + 3 * i), checklist=ALL_TRUE
        )
    return write_jsonl(tmp_path / f"{agent}.jsonl", events)


def _assess(db: str) -> dict[str, Any]:
    result = aaaf(db, "assess", "boaster", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _dims(assessment: dict[str, Any]) -> dict[str, float]:
    return {name: d["score"] for name, d in assessment["performance"]["dimensions"].items()}


def test_done_when_an_audit_refutes_inflated_self_reports(store_url: str, tmp_path: Path) -> None:
    assert aaaf(store_url, "collect", str(_log(tmp_path)), "--enroll").exit_code == 0
    before = _assess(store_url)
    assert _dims(before)["review_compliance"] == 1.0 and _dims(before)["accuracy"] == 1.0
    assert before["audit"]["coverage"] == 0.0 and before["audit"]["honesty"] is None

    sheet = tmp_path / "sheet.jsonl"
    drawn = aaaf(store_url, "audit", "sample", "boaster", "--output", str(sheet), "--seed", "3", "--json")
    assert drawn.exit_code == 0, drawn.output
    rows = [json.loads(line) for line in sheet.read_text().splitlines()]
    # 20 % of 30: numpy's choice over the 30 tasks in task_id order
    ids = [f"boaster-{i:03d}" for i in range(30)]
    expected = sorted(ids[int(i)] for i in np.random.default_rng(3).choice(30, size=6, replace=False))
    assert [row["task_id"] for row in rows] == expected == json.loads(drawn.stdout)["task_ids"]
    assert rows[0]["self_reported"]["checklist"] == ALL_TRUE
    assert rows[0]["finding"]["checklist"] == dict.fromkeys(DEFAULT_CHECKLIST)  # blank, for the auditor

    for n, row in enumerate(rows):
        row["finding"]["checklist"] = {**ALL_TRUE, **dict.fromkeys(REFUTED, False)}
        row["finding"]["errors"] = [{"severity": "major"}] if n % 2 == 0 else []
    sheet.write_text("".join(json.dumps(row) + "\n" for row in rows))
    recorded = aaaf(store_url, "audit", "record", str(sheet), "--auditor", "ann")
    assert recorded.exit_code == 0, recorded.output
    assert "accepted 6, rejected 0" in recorded.stdout

    status = aaaf(store_url, "audit", "status", "boaster", "--json")
    assert status.exit_code == 0, status.output
    state = json.loads(status.stdout)
    assert (state["coverage"], state["honesty"], state["audited_tasks"], state["met"]) == (0.2, 0.5, 6, True)
    assert state["self_report_unreliable"] is True and len(state["refuted"]) == 12

    after = _assess(store_url)
    assert abs(_dims(after)["review_compliance"] - 0.9) < 1e-12
    assert abs(_dims(after)["accuracy"] - 0.96) < 1e-12
    assert after["performance"]["composite_score"] < before["performance"]["composite_score"]
    assert after["audit"]["honesty"] == 0.5 and after["audit"]["self_report_unreliable"] is True

    listed = aaaf(store_url, "assessments", "boaster", "--json")
    records = json.loads(listed.stdout)
    assert [r["review_state"] for r in records] == ["pending_review", "not_required"]
    assert records[0]["anomalous"] is False  # held by the audit, not by calibration
    table = aaaf(store_url, "assessments", "boaster")
    assert "self-reports unreliable" in table.stdout

    held = aaaf(store_url, "badge", after["id"], "--output", str(tmp_path), "--format", "json")
    assert held.exit_code != 0
    assert "self_report_unreliable" in held.output

    reported = aaaf(
        store_url, "report", "boaster", "--output", str(tmp_path / "reports"), "--no-trust", "--json"
    )
    assert reported.exit_code == 0, reported.output
    text = Path(json.loads(reported.stdout)["written"][0]).read_text()
    assert "## Audit of self-reports" in text and "**Self-reports unreliable**" in text
    assert "- Honesty: 0.50 (12 of 24 audited facts refuted, 6 tasks audited)" in text
    for task_id in expected:  # every refuted fact, per task
        assert f"| {task_id} | checklist: memory_written | true | false | ann |" in text
        assert f"| {task_id} | checklist: verification_evidence_provided | true | false | ann |" in text

    approved = aaaf(store_url, "review", "approve", after["id"], "--reviewer", "rita")
    assert approved.exit_code == 0, approved.output
    listed = json.loads(aaaf(store_url, "assessments", "boaster", "--json").stdout)
    assert listed[0]["review_state"] == "approved"


def test_assess_all_holds_the_unreliable_agent_only(store_url: str, tmp_path: Path) -> None:
    assert aaaf(store_url, "collect", str(_log(tmp_path, "boaster")), "--enroll").exit_code == 0
    assert aaaf(store_url, "collect", str(_log(tmp_path, "honest")), "--enroll").exit_code == 0
    findings = [
        {
            "agent": "boaster",
            "type": "task_audited",
            "timestamp": datetime.now(UTC).isoformat(),
            "data": {"task_id": f"boaster-{i:03d}", "checklist": {"memory_written": False}},
        }
        for i in range(5)
    ]
    path = write_jsonl(tmp_path / "findings.jsonl", findings)
    assert aaaf(store_url, "audit", "record", str(path), "--auditor", "ann").exit_code == 0
    ran = aaaf(store_url, "assess", "--all", "--json")
    assert ran.exit_code == 0, ran.output
    by_agent = {o["agent"]: o["assessment"] for o in json.loads(ran.stdout)}
    assert by_agent["boaster"]["audit"]["honesty"] == 0.0
    assert by_agent["boaster"]["audit"]["self_report_unreliable"] is True
    assert by_agent["honest"]["audit"]["self_report_unreliable"] is False
    states = {
        name: json.loads(aaaf(store_url, "assessments", name, "--json").stdout)[0]["review_state"]
        for name in ("boaster", "honest")
    }
    assert states == {"boaster": "pending_review", "honest": "not_required"}
    table = aaaf(store_url, "assess", "--all")
    assert "self-reports unreliable: held for review" in table.stdout


def test_csv_worksheet_and_per_line_errors(store_url: str, tmp_path: Path) -> None:
    assert aaaf(store_url, "collect", str(_log(tmp_path, tasks=10)), "--enroll").exit_code == 0
    sheet = tmp_path / "sheet.csv"
    assert (
        aaaf(store_url, "audit", "sample", "boaster", "--output", str(sheet), "--rate", "0.3").exit_code == 0
    )
    with sheet.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3  # ceil(0.3 × 10)
    assert (
        rows[0]["reported_checklist.memory_written"] == "true" and rows[0]["checklist.memory_written"] == ""
    )
    rows[0]["checklist.memory_written"] = "no"
    rows[0]["errors"] = "minor;critical"
    rows[1]["checklist.memory_written"] = "maybe"  # bad cell: this line is rejected, the rest kept
    rows[2]["completion_status"] = "failed"  # not a status an auditor can find
    with sheet.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    recorded = aaaf(store_url, "audit", "record", str(sheet), "--auditor", "ann")
    assert recorded.exit_code == 2
    assert "accepted 1, rejected 2" in recorded.stdout
    assert "line 3" in recorded.stdout and "memory_written" in recorded.stdout
    assert "line 4" in recorded.stdout and "completion_status" in recorded.stdout
    state = json.loads(aaaf(store_url, "audit", "status", "boaster", "--json").stdout)
    assert state["audited_tasks"] == 1 and state["honesty"] == 0.0
    assert state["refuted"][0]["task_id"] == rows[0]["task_id"]


def test_record_refuses_other_event_types_and_a_missing_auditor(store_url: str, tmp_path: Path) -> None:
    assert aaaf(store_url, "collect", str(_log(tmp_path, tasks=3)), "--enroll").exit_code == 0
    now = datetime.now(UTC).isoformat()
    lines = [
        {"agent": "boaster", "type": "task_completed", "timestamp": now, "data": {"task_id": "x"}},
        {"agent": "boaster", "type": "task_audited", "timestamp": now, "data": {"task_id": "boaster-000"}},
    ]
    path = write_jsonl(tmp_path / "bad.jsonl", lines)
    recorded = aaaf(store_url, "audit", "record", str(path))
    assert recorded.exit_code == 2
    assert "INVALID_EVENT_TYPE" in recorded.stdout and "task_audited events only" in recorded.stdout
    assert "data.auditor" in recorded.stdout


def test_sample_bad_input_exits_2(store_url: str, tmp_path: Path) -> None:
    assert aaaf(store_url, "collect", str(_log(tmp_path, tasks=3)), "--enroll").exit_code == 0
    out = tmp_path / "s.jsonl"
    bad_rate = aaaf(store_url, "audit", "sample", "boaster", "--output", str(out), "--rate", "1.5")
    assert bad_rate.exit_code == 2 and "--rate" in bad_rate.output
    unknown = aaaf(store_url, "audit", "sample", "nobody", "--output", str(out))
    assert unknown.exit_code == 2
    md = tmp_path / "s.md"
    assert aaaf(store_url, "audit", "sample", "boaster", "--output", str(md)).exit_code == 0
    assert md.read_text().startswith("# Audit worksheet: boaster")
