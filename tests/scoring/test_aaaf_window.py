"""Window, recency, minimum evidence, tiers and assessment types (SCORING.md §0, §2.1)."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.aaaf import age_in_days, assess, axis_result, performance_dimensions, recency_weight
from aaaf.scoring.core import DimensionResult
from aaaf.scoring.defaults import CAPABILITY_DIMENSIONS, PERFORMANCE_DIMENSIONS, RECENCY_WEIGHTS, AAAFConfig
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events, at

CONFIG = AAAFConfig()


def accepted_tasks(count: int, ev: Events | None = None, **kwargs: object) -> list[EventRecord]:
    ev = ev or Events()
    return [e for i in range(count) for e in ev.task(f"t{i:03d}", **kwargs)]  # type: ignore[arg-type]


# --------------------------------------------------------------------------- recency


@pytest.mark.parametrize(
    ("days", "weight"),
    [(0, 1.0), (7, 1.0), (7.999, 1.0), (8, 0.8), (14, 0.8), (14.5, 0.8), (15, 0.6), (30, 0.6)],
)
def test_recency_weight_by_floor_of_whole_days(days: float, weight: float) -> None:
    age = age_in_days(WINDOW_END, at(days))
    assert age == int(days)
    assert recency_weight(age, RECENCY_WEIGHTS) == weight


def test_age_seven_versus_eight_days_in_the_completion_rate() -> None:
    for days, weight in ((7, 1.0), (8, 0.8), (14, 0.8), (15, 0.6)):
        ev = Events()
        events = ev.task("old", days_ago=days) + ev.task("new", "rejected", days_ago=0)
        # tcr = (w·1 + 1·0) / (w + 1)
        score = performance_dimensions(events, CONFIG, WINDOW_END)["task_completion_rate"].score
        assert score == pytest.approx(weight / (weight + 1)), days


# --------------------------------------------------------------------------- window membership


def test_window_bounds_are_inclusive() -> None:
    ev = Events()
    events = [
        *ev.task("at-start", days_ago=30),  # exactly window_end − 30 days: inside, age 30 → 0.6
        *ev.task("before-start", days_ago=30 + 1 / 86400),  # one second earlier: outside
        *ev.task("at-end", "rejected", days_ago=0),  # exactly window_end: inside
    ]
    result = performance_dimensions(events, CONFIG, WINDOW_END)["task_completion_rate"]
    assert result.sample_size == 2
    assert result.score == pytest.approx(0.6 / 1.6)


def test_task_completed_after_window_end_is_not_a_window_task() -> None:
    ev = Events()
    events = [
        ev.assigned("late", days_ago=2),
        ev.completed("late", days_ago=-0.5),  # completed 12 h after window_end
        ev.assigned("early", assigned_days_ago=45, days_ago=45),  # assigned before window_start...
        ev.completed("early", days_ago=3),  # ...completed inside: counted
    ]
    result = assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    assert result.evidence_summary["task_ids"] == ["early"]
    assert result.evidence_summary["window_tasks"] == 1


def test_task_without_completion_is_placed_by_its_assignment() -> None:
    ev = Events()
    events = [ev.assigned("open", days_ago=10), ev.assigned("stale", days_ago=40)]
    result = assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    assert result.evidence_summary["task_ids"] == ["open"]
    assert result.performance is not None
    assert result.performance.dimensions["task_completion_rate"].score == 0.0


def test_evidence_of_a_window_task_counts_whatever_its_timestamp() -> None:
    ev = Events()
    # revised three days after window_end
    events = [*ev.task("t1", days_ago=1), ev.revised("t1", "critical", days_ago=-3)]
    accuracy = performance_dimensions(events, CONFIG, WINDOW_END)["accuracy"]
    # revised (1) with one critical error (3 ≥ baseline 1): 0.6·0 + 0.4·0 = 0
    assert accuracy.score == 0.0


def test_window_length_is_configurable() -> None:
    events = accepted_tasks(1, days_ago=10)
    short = AAAFConfig(window_days=7)
    assert performance_dimensions(events, short, WINDOW_END)["task_completion_rate"].score is None
    assert performance_dimensions(events, CONFIG, WINDOW_END)["task_completion_rate"].score == 1.0


def test_window_end_in_another_zone_is_the_same_instant() -> None:
    events = accepted_tasks(30, days_ago=1)
    elsewhere = WINDOW_END.astimezone(timezone(timedelta(hours=5, minutes=30)))
    assert assess(events, CONFIG, elsewhere).to_dict() == assess(events, CONFIG, WINDOW_END).to_dict()
    assert assess(events, CONFIG, elsewhere).to_dict()["window_end"] == "2026-04-16T12:00:00Z"


# --------------------------------------------------------------------------- minimum evidence


def test_nineteen_tasks_fail_on_the_performance_axis_with_details() -> None:
    with pytest.raises(AAAFError) as caught:
        assess(accepted_tasks(19), CONFIG, WINDOW_END)
    error = caught.value
    assert error.code == "INSUFFICIENT_EVIDENCE"
    assert error.http_status == 422
    assert error.message.startswith("Agent has 19 tasks in assessment window. Minimum required: 20.")
    assert error.details == {
        "axis": "performance",
        "current_count": 19,
        "required_count": 20,
        "window_start": "2026-03-17T12:00:00Z",
        "window_end": "2026-04-16T12:00:00Z",
        "setting": "minimum_tasks_performance",
    }


def test_twenty_to_twenty_nine_tasks_fail_on_the_capability_axis() -> None:
    for count in (20, 29):
        with pytest.raises(AAAFError) as caught:
            assess(accepted_tasks(count), CONFIG, WINDOW_END, assessment_type="passive_only")
        assert caught.value.details["axis"] == "capability"
        assert caught.value.details["current_count"] == count
        assert caught.value.message.startswith(
            f"Agent has {count} tasks in assessment window. Minimum required: 30."
        )


def test_thirty_tasks_are_enough_for_both_axes() -> None:
    result = assess(accepted_tasks(30), CONFIG, WINDOW_END)
    assert result.performance is not None and result.capability is not None


def test_minimums_count_tasks_not_completions() -> None:
    # 30 window tasks, only some completed: the minimum is about window tasks
    ev = Events()
    events = accepted_tasks(10, ev) + [ev.assigned(f"open{i}", days_ago=1) for i in range(20)]
    assert assess(events, CONFIG, WINDOW_END).evidence_summary["window_tasks"] == 30


def test_single_dimension_needs_only_its_axis_minimum() -> None:
    twenty = accepted_tasks(20)
    result = assess(twenty, CONFIG, WINDOW_END, assessment_type="single_dimension", dimension="accuracy")
    assert result.capability is None
    assert result.performance is not None
    assert list(result.performance.dimensions) == ["accuracy"]
    assert result.performance.composite.score is None and result.performance.composite.tier is None
    assert (result.performance.composite.covered, result.performance.composite.total) == (1, 1)
    with pytest.raises(AAAFError) as caught:
        assess(accepted_tasks(19), CONFIG, WINDOW_END, assessment_type="single_dimension", dimension="speed")
    assert caught.value.details["axis"] == "performance"
    with pytest.raises(AAAFError) as caught:
        assess(twenty, CONFIG, WINDOW_END, assessment_type="single_dimension", dimension="domain_breadth")
    assert caught.value.details["axis"] == "capability"
    assert caught.value.details["required_count"] == 30


def test_single_dimension_without_evidence_reports_zero_covered() -> None:
    result = assess(
        accepted_tasks(30),
        CONFIG,
        WINDOW_END,
        assessment_type="single_dimension",
        dimension="orchestration_skills",
    )
    assert result.capability is not None
    assert result.capability.dimensions["orchestration_skills"].score is None
    assert (result.capability.composite.covered, result.capability.composite.total) == (0, 1)


def test_configured_minimums() -> None:
    config = CONFIG.with_overrides(min_tasks_performance=2, min_tasks_capability=3)
    assert assess(accepted_tasks(3), config, WINDOW_END).performance is not None
    with pytest.raises(AAAFError):
        assess(accepted_tasks(2), config, WINDOW_END)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"assessment_type": "stress_test_only"}, "not scored from events"),
        ({"assessment_type": "single_dimension"}, "needs a 'dimension'"),
        ({"assessment_type": "single_dimension", "dimension": "charisma"}, "needs a 'dimension'"),
    ],
)
def test_invalid_assessment_requests(kwargs: dict[str, str], fragment: str) -> None:
    with pytest.raises(AAAFError) as caught:
        assess(accepted_tasks(30), CONFIG, WINDOW_END, **kwargs)  # type: ignore[arg-type]
    assert caught.value.code == "INVALID_REQUEST"
    assert fragment in caught.value.message


# --------------------------------------------------------------------------- tiers


def one_dimension_axis(axis: str, score: float) -> dict[str, DimensionResult]:
    names = PERFORMANCE_DIMENSIONS if axis == "performance" else CAPABILITY_DIMENSIONS
    first, *rest = names
    dims = {first: DimensionResult(first, score, 1, 1)}
    dims.update({name: DimensionResult(name, None, 0, 0, reason="none") for name in rest})
    return dims


@pytest.mark.parametrize(
    ("score", "tier"),
    [
        (0.0, "Novice"),
        (0.3999, "Novice"),
        (0.40, "Competent"),
        (0.5999, "Competent"),
        (0.60, "Proficient"),
        (0.75, "Expert"),
        (0.8999, "Expert"),
        (0.90, "Elite"),
        (1.0, "Elite"),
    ],
)
def test_performance_tier_bounds(score: float, tier: str) -> None:
    # one covered dimension: its renormalised weight is 1, so the composite is its score
    axis = axis_result("performance", one_dimension_axis("performance", score), CONFIG)
    assert axis.composite.score == score
    assert axis.composite.tier == tier


@pytest.mark.parametrize(
    ("score", "tier"),
    [
        (0.2999, "Narrow"),
        (0.30, "Functional"),
        (0.4999, "Functional"),
        (0.50, "Versatile"),
        (0.6999, "Versatile"),
        (0.70, "Specialist"),
        (0.8499, "Specialist"),
        (0.85, "Full-Stack"),
    ],
)
def test_capability_tier_bounds(score: float, tier: str) -> None:
    axis = axis_result("capability", one_dimension_axis("capability", score), CONFIG)
    assert axis.composite.tier == tier


# --------------------------------------------------------------------------- summary and exclusion


def test_evidence_summary_and_event_ids() -> None:
    ev = Events()
    events = accepted_tasks(30, ev)
    events += [ev.tool("t000", "grep"), ev.event("eval_result", {"dimension": "accuracy", "score": 90})]
    result = assess(events, CONFIG, WINDOW_END)
    summary = result.evidence_summary
    assert summary["window_tasks"] == 30 and summary["completed_tasks"] == 30
    assert summary["events_used_by_type"] == {"task_assigned": 30, "task_completed": 30}
    # the lone grep invocation is in the window but no dimension used it (< 10 invocations)
    assert summary["events_used"] == 60 == len(result.event_ids)
    assert events[-1].id not in result.event_ids


def test_excluded_tasks_drop_the_task_and_its_evidence() -> None:
    ev = Events()
    events = [*accepted_tasks(30, ev), ev.revised("t000", "critical")]
    full = assess(events, CONFIG, WINDOW_END)
    excluded = assess(events, CONFIG, WINDOW_END, excluded_tasks=frozenset({"t000"}), enforce_minimums=False)
    assert full.performance is not None and excluded.performance is not None
    assert excluded.evidence_summary["window_tasks"] == 29
    assert excluded.evidence_summary["excluded_tasks"] == ["t000"]
    # without t000 no task is revised: accuracy 1.0 (it was below 1 with t000's critical revision)
    assert excluded.performance.dimensions["accuracy"].score == 1.0
    assert full.performance.dimensions["accuracy"].score is not None
    assert full.performance.dimensions["accuracy"].score < 1.0
