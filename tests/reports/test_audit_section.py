"""The report's audit section (SCORING.md §2.6)."""

from __future__ import annotations

from aaaf.reports.audit import audit_section


def test_a_result_stored_before_audits_has_no_section() -> None:
    assert audit_section({"type": "passive_only"}) == []


def test_nothing_audited() -> None:
    audit = {
        "coverage": 0.0,
        "honesty": None,
        "audited_tasks": 0,
        "required_rate": 0.2,
        "met": False,
        "self_report_unreliable": False,
        "completed_tasks": 30,
        "audited_completed_tasks": 0,
        "refuted": [],
    }
    text = "\n".join(audit_section({"audit": audit}))
    assert "- Coverage: 0.00 (0 of 30 completed tasks audited); required rate 0.2 — not met" in text
    assert "- Honesty: — (no self-reported fact was audited)" in text
    assert "unreliable" not in text and "Refuted facts" not in text


def test_refuted_status_and_unreported_item() -> None:
    audit = {
        "coverage": 0.2,
        "honesty": 0.6667,
        "audited_tasks": 1,
        "facts_checked": 3,
        "facts_refuted": 1,
        "required_rate": 0.2,
        "met": True,
        "self_report_unreliable": False,
        "completed_tasks": 5,
        "audited_completed_tasks": 1,
        "refuted": [
            {
                "task_id": "t1",
                "fact": "completion_status",
                "reported": "accepted",
                "found": "rejected",
                "auditor": "ann",
            }
        ],
    }
    text = "\n".join(audit_section({"audit": audit}))
    assert "- Honesty: 0.66 (1 of 3 audited facts refuted, 1 tasks audited)" in text  # truncated, not rounded
    assert "| t1 | completion_status | accepted | rejected | ann |" in text
