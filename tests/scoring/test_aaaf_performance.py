"""The five Performance dimensions (SCORING.md §2.2), each against a hand computation.

Recency weights (§2.1): age 0-7 → 1.0, 8-14 → 0.8, 15-30 → 0.6, age = whole days before
``WINDOW_END``.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from aaaf.scoring.aaaf import assess, performance_dimensions
from aaaf.scoring.defaults import DEFAULT_CHECKLIST, AAAFConfig
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events, checklist

CONFIG = AAAFConfig()


def dims(events: list[EventRecord], config: AAAFConfig = CONFIG) -> dict[str, float | None]:
    return {name: d.score for name, d in performance_dimensions(events, config, WINDOW_END).items()}


# --------------------------------------------------------------------------- task_completion_rate


def test_task_completion_rate_with_partial_credit_and_recency() -> None:
    ev = Events()
    milestones = [{"name": n, "passed": n == "a"} for n in "abcd"]  # 1 of 4 passed
    events = [
        *ev.task("t1", "accepted", days_ago=1),  # w 1.0, credit 1
        *ev.task("t2", "partial", days_ago=8, milestone_fraction=0.5),  # w 0.8, credit 0.5
        *ev.task("t3", "partial", days_ago=15, milestones=milestones),  # w 0.6, credit 0.25
        *ev.task("t4", "rejected", days_ago=2),  # w 1.0, credit 0
        ev.assigned("t5", days_ago=3),  # never completed: w 1.0, credit 0
    ]
    result = performance_dimensions(events, CONFIG, WINDOW_END)["task_completion_rate"]
    # (1·1 + 0.8·0.5 + 0.6·0.25 + 1·0 + 1·0) / (1 + 0.8 + 0.6 + 1 + 1) = 1.55 / 4.4
    assert result.score == pytest.approx(1.55 / 4.4, abs=1e-15)
    assert result.sample_size == 5
    assert result.details["total_weight"] == pytest.approx(4.4)
    assert result.details["not_completed_tasks"] == 1
    # events used: the four counting completions and t5's assignment
    assert result.evidence_count == 5


def test_task_completion_rate_null_without_tasks() -> None:
    result = performance_dimensions([], CONFIG, WINDOW_END)["task_completion_rate"]
    assert result.score is None
    assert result.reason == "no task in the assessment window"


# --------------------------------------------------------------------------- accuracy


def accuracy_events() -> list[EventRecord]:
    ev = Events()
    return [
        *ev.task("a1", days_ago=0, revision_count=1),  # w 1.0: revised, werr 0
        *ev.task("a2", days_ago=10),  # w 0.8
        ev.revised("a2", "critical"),  # revised, werr 3
        *ev.task("a3", "partial", days_ago=20, milestone_fraction=0.5, errors=[{"severity": "minor"}] * 2),
        # a3: w 0.6, not revised, werr 0.5 + 0.5 = 1
        *ev.task("a4", days_ago=1, errors=[{"description": "no severity"}]),  # w 1: werr 1 (major)
        *ev.task("a5", "rejected", days_ago=1, errors=[{"severity": "critical"}]),  # not completed
    ]


def test_accuracy_with_revisions_errors_and_severities() -> None:
    result = performance_dimensions(accuracy_events(), CONFIG, WINDOW_END)["accuracy"]
    # Σw over completed = 1 + 0.8 + 0.6 + 1 = 3.4
    # revised share = (1 + 0.8) / 3.4 ; werr per task = (0 + 0.8·3 + 0.6·1 + 1·1) / 3.4 = 4.0 / 3.4
    # from_revisions = 1 − 1.8/3.4 ; from_errors = 1 − min(1, 1.176…) = 0
    from_revisions = 1 - 1.8 / 3.4
    assert result.details["from_revisions"] == pytest.approx(from_revisions)
    assert result.details["weighted_errors_per_task"] == pytest.approx(4.0 / 3.4)
    assert result.details["from_errors"] == 0.0
    assert result.score == pytest.approx(0.6 * from_revisions + 0.4 * 0.0)
    assert result.sample_size == 4
    # 4 counting completions + 1 task_revised
    assert result.evidence_count == 5


def test_accuracy_baseline_is_configurable() -> None:
    config = CONFIG.with_overrides(baseline_errors_per_task=2.0)
    result = performance_dimensions(accuracy_events(), config, WINDOW_END)["accuracy"]
    # from_errors = 1 − (4.0/3.4) / 2 = 1 − 0.588… ; accuracy = 0.6·(1 − 1.8/3.4) + 0.4·that
    from_errors = 1 - (4.0 / 3.4) / 2.0
    assert result.details["from_errors"] == pytest.approx(from_errors)
    assert result.score == pytest.approx(0.6 * (1 - 1.8 / 3.4) + 0.4 * from_errors)


def test_task_revised_without_reason_code_counts_one_major_error() -> None:
    ev = Events()
    events = [*ev.task("t1"), ev.revised("t1", None)]
    result = performance_dimensions(events, CONFIG, WINDOW_END)["accuracy"]
    # revised share 1 → from_revisions 0 ; werr 1 (major) → from_errors 1 − 1 = 0
    assert result.score == 0.0


def test_accuracy_null_without_completed_tasks() -> None:
    ev = Events()
    result = performance_dimensions(ev.task("t1", "failed"), CONFIG, WINDOW_END)["accuracy"]
    assert result.score is None and result.sample_size == 0


# --------------------------------------------------------------------------- speed


def test_speed_clamped_per_complexity_level() -> None:
    ev = Events()
    events = [
        *ev.task("l1", complexity=1, seconds=300, days_ago=0),  # n = 0.5 → 2 − 0.5 = 1.5 → 1.0 (w 1)
        *ev.task("l2", complexity=2, seconds=5400, days_ago=10),  # n = 1.5 → 0.5 (w 0.8)
        *ev.task("l3", complexity=3, seconds=28800, days_ago=0),  # n = 2 → 0 (w 1)
        *ev.task("l4", complexity=4, seconds=100000, days_ago=0),  # n = 2.31 → −0.31 → 0 (w 1)
        *ev.task("l5", complexity=5, seconds=86400, days_ago=20),  # n = 1 → 1.0 (w 0.6)
        ev.completed("nolevel", seconds=1),  # no complexity level: left out
        *ev.task("rej", "rejected", complexity=1, seconds=1),  # not completed: left out
    ]
    result = performance_dimensions(events, CONFIG, WINDOW_END)["speed"]
    # (1·1 + 0.8·0.5 + 1·0 + 1·0 + 0.6·1) / (1 + 0.8 + 1 + 1 + 0.6) = 2.0 / 4.4
    assert result.score == pytest.approx(2.0 / 4.4)
    assert result.sample_size == 5
    assert result.details["per_level"]["2"] == {"tasks": 1, "baseline_seconds": 3600.0, "mean_speed": 0.5}


@pytest.mark.parametrize(
    ("level", "baseline"), [(1, 600.0), (2, 3600.0), (3, 14400.0), (4, 43200.0), (5, 86400.0)]
)
def test_speed_is_one_at_baseline_half_at_one_and_a_half_zero_at_twice(level: int, baseline: float) -> None:
    for factor, expected in ((1.0, 1.0), (1.5, 0.5), (2.0, 0.0), (0.1, 1.0), (3.0, 0.0)):
        ev = Events()
        events = ev.task("t", complexity=level, seconds=baseline * factor)
        assert dims(events)["speed"] == pytest.approx(expected), (level, factor)


# --------------------------------------------------------------------------- consistency


def consistency_events() -> list[EventRecord]:
    ev = Events()
    events: list[EventRecord] = []
    # group (code, 2): 5 completed tasks, credits 1, 1, 1, 0.5, 0.5; accuracy 1 each
    for i, (status, fraction) in enumerate([("accepted", None)] * 3 + [("partial", 0.5)] * 2):
        extra: dict[str, Any] = {} if fraction is None else {"milestone_fraction": fraction}
        events += ev.task(f"c2-{i}", status, domain="code", complexity=2, days_ago=i * 4, **extra)
    events += ev.task("c2-rejected", "rejected", domain="code", complexity=2)  # not completed: not grouped
    # group (research, 3): only 4 tasks → ignored
    for i in range(4):
        events += ev.task(f"r3-{i}", domain="research", complexity=3, revision_count=i)
    # group (code, 3): 6 tasks, 3 revised (accuracy 0.6·0 + 0.4·1 = 0.4), 3 not (1.0); credits all 1
    for i in range(6):
        events += ev.task(f"c3-{i}", domain="code", complexity=3, days_ago=i * 5, revision_count=i % 2)
    return events


def test_consistency_groups_and_unweighted_population_cv() -> None:
    result = performance_dimensions(consistency_events(), CONFIG, WINDOW_END)["consistency"]
    # (code, 2) credits: mean 0.8, deviations .2 .2 .2 −.3 −.3, var = (3·.04 + 2·.09)/5 = .06
    cv_completion_c2 = math.sqrt(0.06) / 0.8
    # (code, 3) accuracy: mean 0.7, deviations ±0.3, var .09, std .3
    cv_accuracy_c3 = 0.3 / 0.7
    # weighted by group size: (5·0 + 6·cv_acc_c3) / 11 and (5·cv_c2 + 6·0) / 11
    cv_accuracy = 6 * cv_accuracy_c3 / 11
    cv_completion = 5 * cv_completion_c2 / 11
    assert result.details["groups_assessed"] == 2
    assert result.details["groups_too_small"] == 1
    assert result.details["cv_accuracy"] == pytest.approx(cv_accuracy)
    assert result.details["cv_completion"] == pytest.approx(cv_completion)
    assert result.score == pytest.approx(1 - (0.6 * cv_accuracy + 0.4 * cv_completion))  # ≈ 0.80407
    assert result.score == pytest.approx(0.804070, abs=1e-6)
    assert result.sample_size == 11


def test_consistency_null_when_no_group_reaches_five() -> None:
    ev = Events()
    events = [e for i in range(4) for e in ev.task(f"t{i}", domain="code", complexity=2)]
    events += [e for i in range(4) for e in ev.task(f"u{i}", domain="code", complexity=3)]
    result = performance_dimensions(events, CONFIG, WINDOW_END)["consistency"]
    assert result.score is None
    assert result.reason == "no (domain, level) group with ≥ 5 completed tasks"


def test_consistency_cv_is_zero_when_mean_is_zero() -> None:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(5):
        # partial with fraction 0 → credit 0; revised with a critical error → accuracy 0
        events += ev.task(
            f"t{i}", "partial", milestone_fraction=0.0, revision_count=1, errors=[{"severity": "critical"}]
        )
    result = performance_dimensions(events, CONFIG, WINDOW_END)["consistency"]
    assert result.details["cv_accuracy"] == 0.0 and result.details["cv_completion"] == 0.0
    assert result.score == 1.0


# --------------------------------------------------------------------------- review_compliance


def test_review_compliance_missing_items_and_excluded_tasks() -> None:
    ev = Events()
    events = [
        *ev.task("r1", review_checklist=checklist(*DEFAULT_CHECKLIST)),  # 4/4, w 1
        *ev.task(
            "r2",
            days_ago=9,
            review_checklist=checklist("memory_search_performed", failed=["output_format_correct"]),
        ),  # 1/4, w 0.8
        *ev.task("r3"),  # no checklist at all: excluded
        *ev.task("r4", "rejected", review_checklist=checklist(*DEFAULT_CHECKLIST)),  # not completed
        *ev.task("r5", review_checklist=checklist("memory_written", "not_an_org_item")),  # 1/4, w 1
        *ev.task("r6", days_ago=20),  # memory ops only: 2/4, w 0.6
        ev.memory("r6", "search"),
        ev.memory("r6", "write"),
    ]
    result = performance_dimensions(events, CONFIG, WINDOW_END)["review_compliance"]
    # (1·1 + 0.8·0.25 + 1·0.25 + 0.6·0.5) / (1 + 0.8 + 1 + 0.6) = 1.75 / 3.4
    assert result.score == pytest.approx(1.75 / 3.4)
    assert result.sample_size == 4
    assert result.details["completed_tasks_without_checklist"] == 1


def test_review_compliance_uses_the_org_checklist() -> None:
    ev = Events()
    events = ev.task("t", review_checklist={"peer_review": True, "memory_written": True})
    config = CONFIG.with_overrides(checklist=("peer_review", "tests_added", "changelog"))
    # 1 of the org's 3 items passed
    assert dims(events, config)["review_compliance"] == pytest.approx(1 / 3)


# --------------------------------------------------------------------------- composite


def test_performance_composite_renormalises_over_covered_dimensions() -> None:
    ev = Events()
    # 20 accepted L2 tasks at 1.5 × baseline, no domain (so no consistency group), no checklist
    events = [e for i in range(20) for e in ev.task(f"t{i:02d}", domain=None, complexity=2, seconds=5400)]
    result = assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    axis = result.performance
    assert axis is not None
    # tcr 1, accuracy 1, speed 0.5, consistency null, review null:
    # (0.25·1 + 0.25·1 + 0.15·0.5) / (0.25 + 0.25 + 0.15) = 0.575 / 0.65
    assert axis.composite.score == pytest.approx(0.575 / 0.65)
    assert (axis.composite.covered, axis.composite.total) == (3, 5)
    assert sum(axis.composite.weights_used.values()) == pytest.approx(1.0)
    assert axis.composite.tier == "Expert"  # 0.8846 ∈ [0.75, 0.90)
    assert axis.dimensions["consistency"].to_dict()["score"] is None
    assert axis.dimensions["consistency"].to_dict()["reason"].startswith("no (domain, level) group")
