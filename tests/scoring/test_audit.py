"""Audits (SCORING.md §2.6): the sample, findings replacing self-reports, honesty, coverage
and the ``self_report_unreliable`` flag — each against a hand computation.

Recency weights (§2.1): age 0-7 → 1.0, 8-14 → 0.8, 15-30 → 0.6.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from aaaf.scoring.aaaf import assess, performance_dimensions
from aaaf.scoring.audit import AuditedTask, audit_summary, draw_sample, read_finding, sample_size
from aaaf.scoring.defaults import DEFAULT_CHECKLIST, AAAFConfig
from aaaf.scoring.fold import fold_tasks
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events, checklist

CONFIG = AAAFConfig()
ALL_TRUE = checklist(*DEFAULT_CHECKLIST)


def audited(ev: Events, task_id: str, *, days_ago: float = 0.0, **finding: Any) -> EventRecord:
    return ev.event("task_audited", {"task_id": task_id, "auditor": "ann", **finding}, days_ago=days_ago)


def perf(events: list[EventRecord]) -> dict[str, float | None]:
    return {name: d.score for name, d in performance_dimensions(events, CONFIG, WINDOW_END).items()}


# --------------------------------------------------------------------------- the sample


@pytest.mark.parametrize(
    ("rate", "n", "size"),
    [(0.2, 10, 2), (0.2, 35, 7), (0.2, 11, 3), (0.1, 11, 2), (0.2, 1, 1), (0.2, 0, 0), (1.0, 4, 4)],
)
def test_sample_size_is_the_ceiling_of_rate_times_n(rate: float, n: int, size: int) -> None:
    # 0.2 × 35 is 7.000000000000001 in binary floating point: still 7 tasks
    assert sample_size(rate, n) == size


@pytest.mark.parametrize("rate", [0.0, -0.1, 1.5])
def test_a_rate_outside_0_1_is_refused(rate: float) -> None:
    with pytest.raises(ValueError, match="audit rate"):
        sample_size(rate, 10)


def test_sample_is_numpys_choice_over_the_tasks_in_code_point_order() -> None:
    ids = ["t2", "t10", "T1", "é", "t1", "a", "b", "c", "d", "e"]
    ordered = ["T1", "a", "b", "c", "d", "e", "t1", "t10", "t2", "é"]  # code points: 'T' < 'a' < 't' < 'é'
    assert sorted(ids) == ordered
    picks = np.random.default_rng(7).choice(10, size=2, replace=False)
    expected = sorted(ordered[int(i)] for i in picks)
    assert draw_sample(ids, 0.2, seed=7) == expected
    assert draw_sample(reversed(ids), 0.2, seed=7) == expected  # the input order does not matter
    assert len(draw_sample(ids, 0.2, seed=0)) == 2
    assert draw_sample([], 0.2) == []


# --------------------------------------------------------------------------- findings replace self-reports


def test_refuted_checklist_items_lower_review_compliance() -> None:
    ev = Events()
    events = [
        *ev.task("t1", days_ago=10, review_checklist=ALL_TRUE),  # w 0.8
        *ev.task("t2", days_ago=1, review_checklist=ALL_TRUE),  # w 1.0
    ]
    assert perf(events)["review_compliance"] == 1.0
    finding = audited(ev, "t1", checklist={"memory_search_performed": False, "memory_written": False})
    # t1: 2 of 4 items → 0.5; (0.8·0.5 + 1·1) / 1.8
    assert perf([*events, finding])["review_compliance"] == pytest.approx(1.4 / 1.8, abs=1e-12)


def test_items_the_auditor_did_not_give_stay_as_reported() -> None:
    ev = Events()
    reported = checklist(
        "memory_search_performed", "verification_evidence_provided", failed=["output_format_correct"]
    )
    events = [*ev.task("t1", days_ago=1, review_checklist=reported)]
    assert perf(events)["review_compliance"] == 0.5  # 2 of 4 (memory_written absent = not passed)
    finding = audited(ev, "t1", checklist={"output_format_correct": True})
    assert perf([*events, finding])["review_compliance"] == 0.75  # 3 of 4
    task = fold_tasks([*events, finding])["t1"]
    assert task.checklist == {**reported, "output_format_correct": True}
    assert task.audit is not None
    assert [(f.fact, f.reported, f.found) for f in task.audit.facts] == [
        ("checklist.output_format_correct", False, True)
    ]


def test_a_task_without_a_checklist_gets_the_auditors_items() -> None:
    ev = Events()
    events = [*ev.task("t1", days_ago=1), *ev.task("t2", days_ago=1, review_checklist=ALL_TRUE)]
    assert perf(events)["review_compliance"] == 1.0  # t1 excluded (no checklist)
    finding = audited(ev, "t1", checklist={"memory_written": True})
    # t1 now has a checklist: 1 of 4 → 0.25; (0.25 + 1) / 2
    assert perf([*events, finding])["review_compliance"] == 0.625


def test_the_audited_completion_status_replaces_the_reported_one() -> None:
    ev = Events()
    events = [*ev.task("t1", "accepted", days_ago=1), *ev.task("t2", "accepted", days_ago=1)]
    assert perf(events)["task_completion_rate"] == 1.0
    half = audited(ev, "t1", completion_status="partial", milestone_fraction=0.5)
    assert perf([*events, half])["task_completion_rate"] == 0.75  # (0.5 + 1) / 2
    milestones = [
        {"name": "a", "passed": True},
        {"name": "b", "passed": False},
        {"name": "c", "passed": False},
    ]
    third = audited(ev, "t1", completion_status="partial", milestones=milestones)
    assert perf([*events, third])["task_completion_rate"] == pytest.approx((1 / 3 + 1) / 2, abs=1e-12)
    rejected = audited(ev, "t1", completion_status="rejected")
    folded = fold_tasks([*events, rejected])
    assert folded["t1"].completion_status == "rejected" and not folded["t1"].completed
    assert perf([*events, rejected])["task_completion_rate"] == 0.5


def test_audited_errors_replace_the_reported_ones_and_revisions_still_count() -> None:
    ev = Events()
    events = [*ev.task("t1", days_ago=1), *ev.task("t2", days_ago=1)]
    assert perf(events)["accuracy"] == 1.0
    minor = audited(ev, "t1", errors=[{"severity": "minor"}])
    # werr: t1 0.5, t2 0 → mean 0.25; from_errors 0.75; from_revisions 1 → 0.6 + 0.4·0.75
    assert perf([*events, minor])["accuracy"] == pytest.approx(0.9, abs=1e-12)

    ev2 = Events()
    base = [
        *ev2.task("t1", days_ago=1, errors=[{"severity": "critical"}]),
        ev2.revised("t1", days_ago=1, reason_code="minor"),
        *ev2.task("t2", days_ago=1),
    ]
    # reported: werr t1 = 3 + 0.5 = 3.5, t2 0 → mean 1.75 → from_errors 0; revised 1 of 2 → 0.5
    assert perf(base)["accuracy"] == pytest.approx(0.6 * 0.5, abs=1e-12)
    cleared = audited(ev2, "t1", errors=[])  # the auditor found no error: only the revision's 0.5 stays
    # werr t1 = 0.5 → mean 0.25 → from_errors 0.75 → 0.6·0.5 + 0.4·0.75
    assert perf([*base, cleared])["accuracy"] == pytest.approx(0.3 + 0.3, abs=1e-12)


def test_the_latest_finding_counts() -> None:
    ev = Events()
    events = [*ev.task("t1", days_ago=3, review_checklist=ALL_TRUE)]
    early = audited(ev, "t1", days_ago=2, checklist=dict.fromkeys(DEFAULT_CHECKLIST, False))
    late = audited(ev, "t1", days_ago=1, checklist={"memory_written": False})
    for order in ([early, late], [late, early]):
        assert perf([*events, *order])["review_compliance"] == 0.75  # only memory_written refuted


def test_blank_fields_are_not_given() -> None:
    finding = read_finding(
        {
            "task_id": "t1",
            "auditor": "ann",
            "checklist": {"memory_written": None, "output_format_correct": False},
            "completion_status": "",
            "milestone_fraction": None,
            "milestones": [],
            "errors": None,
            "notes": "  ",
        },
        "e1",
    )
    assert finding.checklist == {"output_format_correct": False}
    assert finding.completion_status is None
    assert finding.milestone_fraction is None and finding.milestones is None
    assert finding.errors is None and finding.notes is None


def test_without_a_finding_the_record_is_the_self_report() -> None:
    ev = Events()
    events = [*ev.task("t1", days_ago=1, review_checklist=ALL_TRUE, errors=[{"severity": "minor"}])]
    task = fold_tasks(events)["t1"]
    assert task.audit is None and task.checklist == ALL_TRUE and task.weighted_errors == 0.5


# --------------------------------------------------------------------------- honesty, coverage, the flag


def _window(events: list[EventRecord]) -> dict[str, Any]:
    result = assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    assert result.audit is not None
    return dict(result.audit)


def test_honesty_and_coverage_by_hand() -> None:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(10):
        events += ev.task(f"t{i:02d}", days_ago=1, review_checklist=ALL_TRUE)
    events += ev.task("t10", "rejected", days_ago=1)  # finished, not completed
    # t00: 4 items + status, all honest (5 facts); t01: 2 of 4 items refuted, status honest (5 facts)
    events.append(audited(ev, "t00", checklist=ALL_TRUE, completion_status="accepted"))
    events.append(
        audited(
            ev,
            "t01",
            checklist={**ALL_TRUE, "memory_written": False, "verification_evidence_provided": False},
            completion_status="accepted",
        )
    )
    events.append(audited(ev, "t10", completion_status="rejected"))  # 1 honest fact, not completed
    audit = _window(events)
    assert audit["coverage"] == 0.2  # 2 audited completed / 10 completed
    assert audit["honesty"] == 9 / 11
    assert audit["audited_tasks"] == 3
    assert audit["required_rate"] == 0.2
    assert audit["met"] is True
    assert audit["self_report_unreliable"] is False  # only 3 audited tasks
    assert (audit["facts_checked"], audit["facts_refuted"]) == (11, 2)
    assert len(audit["event_ids"]) == 3  # the three counting findings
    assert [(r["task_id"], r["fact"], r["reported"], r["found"]) for r in audit["refuted"]] == [
        ("t01", "checklist.memory_written", True, False),
        ("t01", "checklist.verification_evidence_provided", True, False),
    ]


def test_without_findings_honesty_is_null_and_coverage_zero() -> None:
    ev = Events()
    events = [e for i in range(3) for e in ev.task(f"t{i}", days_ago=1)]
    audit = _window(events)
    assert audit["coverage"] == 0.0 and audit["honesty"] is None and audit["audited_tasks"] == 0
    assert audit["met"] is False and audit["self_report_unreliable"] is False
    # a finding giving only errors checks no fact: honesty stays null, coverage counts it
    audit = _window([*events, audited(ev, "t0", errors=[{"severity": "major"}])])
    assert audit["coverage"] == pytest.approx(1 / 3) and audit["honesty"] is None


def test_coverage_is_null_without_completed_tasks() -> None:
    ev = Events()
    audit = _window([ev.assigned("t1", days_ago=1)])
    assert audit["coverage"] is None and audit["met"] is False


def test_coverage_uses_the_self_reported_completion() -> None:
    ev = Events()
    events = [e for i in range(4) for e in ev.task(f"t{i}", days_ago=1)]
    audit = _window([*events, audited(ev, "t0", completion_status="rejected")])
    assert audit["coverage"] == 0.25  # t0 was reported accepted: still in the frame
    assert audit["honesty"] == 0.0


@pytest.mark.parametrize(
    ("audited_tasks", "refuted", "flagged"),
    [
        (5, 2, True),  # 8 / 10 = 0.8 < 0.9
        (5, 1, False),  # 9 / 10 = 0.9 exactly: not below
        (4, 4, False),  # 4 / 8 = 0.5 but fewer than 5 audited tasks
    ],
)
def test_self_report_unreliable_flag(audited_tasks: int, refuted: int, flagged: bool) -> None:
    ev = Events()
    events = [e for i in range(10) for e in ev.task(f"t{i}", days_ago=1, review_checklist=ALL_TRUE)]
    for i in range(audited_tasks):
        # two facts per task; the first ``refuted`` tasks have one refuted item each
        found = {"memory_written": i >= refuted, "output_format_correct": True}
        events.append(audited(ev, f"t{i}", checklist=found))
    audit = _window(events)
    assert audit["honesty"] == pytest.approx((2 * audited_tasks - refuted) / (2 * audited_tasks))
    assert audit["self_report_unreliable"] is flagged


def test_the_flag_follows_the_config() -> None:
    ev = Events()
    events = [e for i in range(10) for e in ev.task(f"t{i}", days_ago=1, review_checklist=ALL_TRUE)]
    events.append(audited(ev, "t0", checklist={"memory_written": False}))
    strict = AAAFConfig(audit_min_tasks=1, audit_honesty_threshold=0.5, audit_rate=0.1)
    audit = dict(assess(events, strict, WINDOW_END, enforce_minimums=False).audit or {})
    assert audit["honesty"] == 0.0 and audit["self_report_unreliable"] is True
    assert audit["required_rate"] == 0.1 and audit["coverage"] == 0.1 and audit["met"] is True


def test_audit_summary_directly() -> None:
    summary = audit_summary([AuditedTask("a", True, None), AuditedTask("b", False, None)])
    assert summary.coverage == 0.0 and summary.honesty is None and summary.completed_tasks == 1
    assert math.isclose(summary.required_rate, 0.2)
