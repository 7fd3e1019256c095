"""The demo's audited agent (issue 16): inflated self-reports, and an auditor who knows the truth."""

from __future__ import annotations

from aaaf.demo import audit
from aaaf.demo.fleet import CHECKLIST, parse_now
from aaaf.evidence.validation import validate_event

NOW = parse_now("2026-11-20T12:00:00Z")


def test_the_agent_reports_everything_passed_and_the_truth_differs() -> None:
    events = audit.agent_events(NOW)
    assert events == audit.agent_events(NOW)  # deterministic
    completed = [e for e in events if e["type"] == "task_completed"]
    assert len(completed) == audit.TASKS
    assert all(e["data"]["review_checklist"] == dict.fromkeys(CHECKLIST, True) for e in completed)
    assert all(e["data"]["errors"] == [] for e in completed)
    for event in events:
        validate_event(event, now=NOW)
    truth = audit.truth()
    passed = sum(v for task in truth.values() for v in task["checklist"].values())
    assert 0.3 < passed / (len(truth) * len(CHECKLIST)) < 0.7  # about half, not all


def test_fill_writes_the_truth_of_each_sampled_task() -> None:
    row = {"agent": audit.AGENT, "task_id": "claims-bot-001", "finding": {"auditor": None, "checklist": {}}}
    (filled,) = audit.fill([row], NOW)
    assert filled["finding"]["auditor"] == audit.AUDITOR
    assert filled["finding"]["checklist"] == audit.truth()["claims-bot-001"]["checklist"]
    assert filled["finding"]["errors"] == audit.truth()["claims-bot-001"]["errors"]
