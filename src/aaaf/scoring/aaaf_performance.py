"""The five AAAF Performance dimensions (SCORING.md §2.2, document 004 §3.1).

Part of the AAAF scheme (:mod:`aaaf.scoring.aaaf`): each dimension reads the window's
:class:`~aaaf.scoring.aaaf_tasks.PerformanceComponents` and adds its traceability details.
Each is registered with its declaration (:mod:`aaaf.scoring.dimensions`) three times: its
result over the window (``ENGINE``), its score over any task set (``SUBSET_SCORES``, perf(S))
and its score in every resample of the bootstrap (``PERFORMANCE_ROWS``, §2.5: a row's sums of
the per-task terms).  The rows are NumPy arrays; NumPy is imported when a row formula first
runs, never when the engine is imported (the bootstrap alone needs it).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from operator import attrgetter, mul
from typing import TYPE_CHECKING, NamedTuple

from aaaf.scoring.aaaf_context import AssessmentContext, dimension_result
from aaaf.scoring.aaaf_tasks import (
    ACCURACY_ERROR_WEIGHT,
    ACCURACY_REVISION_WEIGHT,
    CREDIT_OF,
    ERROR_COUNT_OF,
    STATUS_OF,
    TERMS,
    WEIGHT_OF,
    WEIGHTED_ERRORS_OF,
    completed_tasks,
    distinct_ids,
)
from aaaf.scoring.core import DimensionResult
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.dimensions import ENGINE, PERFORMANCE_ROWS, SUBSET_SCORES

if TYPE_CHECKING:  # NumPy is the bootstrap's: imported where a row formula runs
    from aaaf.scoring.resample_arrays import FloatArray

# --------------------------------------------------------------------------- perf(S)

# Each dimension's score over any task set is its field of the set's components
# (what perf(S) of SCORING.md §2.3 weighs; read in C)
SUBSET_SCORES.register("task_completion_rate")(attrgetter("task_completion_rate"))
SUBSET_SCORES.register("accuracy")(attrgetter("accuracy"))
SUBSET_SCORES.register("speed")(attrgetter("speed"))
SUBSET_SCORES.register("consistency")(attrgetter("consistency"))
SUBSET_SCORES.register("review_compliance")(attrgetter("review_compliance"))


# --------------------------------------------------------------------------- bootstrap rows (§2.5)

_TERM_AT: Mapping[str, int] = {name: at for at, name in enumerate(TERMS)}


class PerformanceRows(NamedTuple):
    """What a Performance dimension's bootstrap formula reads: every row's (resample's, or a
    resampled subset's) sums of the per-task ``terms``, in :data:`aaaf.scoring.aaaf_tasks.TERMS`
    order, and its consistency (from the group statistics, computed once for all)."""

    sums: FloatArray
    consistency: FloatArray
    config: AAAFConfig

    def ratio(self, numerator: str, denominator: str) -> FloatArray:
        """Every row's sum of the term ``numerator`` over its sum of ``denominator`` (terms named
        as in ``TERMS``), NaN (null) where that is 0: most §2.2 weighted means are one."""
        return self.sums[:, _TERM_AT[numerator]] / self.positive(denominator)

    def positive(self, term: str) -> FloatArray:
        """Every row's sum of ``term``, NaN where it is not > 0 (a ratio over it is then null)."""
        from aaaf.scoring.resample_arrays import positive

        return positive(self.sums[:, _TERM_AT[term]])


# --------------------------------------------------------------------------- §2.2 dimensions


@ENGINE.register("task_completion_rate")
def _task_completion_rate(ctx: AssessmentContext) -> DimensionResult:
    comp = ctx.performance
    scored = ctx.window.scored
    statuses = {"accepted": 0, "partial": 0, "rejected": 0, "failed": 0, "not_completed": 0}
    for status, count in Counter(map(STATUS_OF, scored)).items():  # counted in C
        statuses[status if status in statuses else "not_completed"] += count
    credits = list(map(CREDIT_OF, scored))
    weighted_credit = math.fsum(map(mul, map(WEIGHT_OF, scored), credits))
    ids = distinct_ids((s.task.completion_event_id or s.task.assigned_event_id or "",) for s in scored)
    return dimension_result(
        "task_completion_rate",
        comp.task_completion_rate,
        comp.tasks,
        {
            "tasks": comp.tasks,
            "weighted_credit": weighted_credit,
            "total_weight": comp.total_weight,
            "credit_sum": math.fsum(credits),
            **{f"{name}_tasks": count for name, count in statuses.items()},
        },
        ids,
        "no task in the assessment window",
    )


@PERFORMANCE_ROWS.register("task_completion_rate")
def _task_completion_rate_rows(rows: PerformanceRows) -> FloatArray:
    return rows.ratio("weighted_credit", "weight")


@ENGINE.register("accuracy")
def _accuracy(ctx: AssessmentContext) -> DimensionResult:
    comp = ctx.performance
    completed = completed_tasks(ctx.window.scored)
    ids = distinct_ids((s.task.completion_event_id or "", *s.task.revision_event_ids) for s in completed)
    return dimension_result(
        "accuracy",
        comp.accuracy,
        comp.completed,
        {
            "completed_tasks": comp.completed,
            "revised_tasks": comp.revised_tasks,
            "revised_share": comp.revised_share,
            "weighted_errors_per_task": comp.weighted_errors_per_task,
            "weighted_errors": math.fsum(map(WEIGHTED_ERRORS_OF, completed)),
            "errors": sum(map(ERROR_COUNT_OF, completed)),
            "baseline_errors_per_task": ctx.config.baseline_errors_per_task,
            "from_revisions": comp.from_revisions,
            "from_errors": comp.from_errors,
        },
        ids,
        "no completed task (accepted or partial) in the assessment window",
    )


@PERFORMANCE_ROWS.register("accuracy")
def _accuracy_rows(rows: PerformanceRows) -> FloatArray:
    import numpy as np

    completed_weight = rows.positive("completed_weight")  # one denominator for both shares
    revised_share = rows.sums[:, _TERM_AT["revised_weight"]] / completed_weight
    errors_per_task = rows.sums[:, _TERM_AT["weighted_errors"]] / completed_weight
    baseline = rows.config.baseline_errors_per_task
    if baseline <= 0.0:
        load = np.where(errors_per_task > 0.0, 1.0, 0.0)
    else:
        load = np.minimum(1.0, errors_per_task / baseline)
    accuracy = ACCURACY_REVISION_WEIGHT * (1.0 - revised_share) + ACCURACY_ERROR_WEIGHT * (1.0 - load)
    if baseline <= 0.0:
        return np.where(np.isnan(revised_share), np.nan, accuracy)
    return accuracy  # null where revised_share is: its NaN (np.nan's) carried through, bit for bit


@ENGINE.register("speed")
def _speed(ctx: AssessmentContext) -> DimensionResult:
    comp = ctx.performance
    timed = [s for s in ctx.window.scored if s.speed is not None]
    by_level: dict[int, list[float]] = {}
    for s in timed:
        level = s.task.complexity_level
        if level is not None and s.speed is not None:
            speeds = by_level.get(level)
            if speeds is None:
                by_level[level] = [s.speed]
            else:
                speeds.append(s.speed)
    per_level = {
        str(level): {
            "tasks": len(by_level[level]),
            "baseline_seconds": ctx.config.speed_baselines[level],
            "mean_speed": math.fsum(by_level[level]) / len(by_level[level]),
        }
        for level in sorted(by_level)
    }
    ids = distinct_ids((s.task.completion_event_id or "", s.task.attribute_event_id or "") for s in timed)
    return dimension_result(
        "speed",
        comp.speed,
        comp.speed_tasks,
        {"timed_tasks": comp.speed_tasks, "per_level": per_level},
        ids,
        "no completed task with a known complexity level and time to complete",
    )


@PERFORMANCE_ROWS.register("speed")
def _speed_rows(rows: PerformanceRows) -> FloatArray:
    return rows.ratio("weighted_speed", "speed_weight")


@ENGINE.register("consistency")
def _consistency(ctx: AssessmentContext) -> DimensionResult:
    comp = ctx.performance
    kept = {(g.domain, g.complexity_level) for g in comp.groups}
    members = [s for s in ctx.window.scored if s.group is not None and s.group in kept]
    ids = distinct_ids((*s.perf_event_ids, s.task.attribute_event_id or "") for s in members)
    return dimension_result(
        "consistency",
        comp.consistency,
        len(members),
        {
            "groups_assessed": len(comp.groups),
            "groups_too_small": comp.small_groups,
            "min_group_size": ctx.config.consistency_min_group,
            "cv_accuracy": comp.cv_accuracy,
            "cv_completion": comp.cv_completion,
            "groups": [
                {
                    "domain": g.domain,
                    "complexity_level": g.complexity_level,
                    "tasks": g.tasks,
                    "cv_accuracy": g.cv_accuracy,
                    "cv_completion": g.cv_completion,
                }
                for g in comp.groups
            ],
        },
        ids,
        f"no (domain, level) group with ≥ {ctx.config.consistency_min_group} completed tasks",
    )


@PERFORMANCE_ROWS.register("consistency")
def _consistency_rows(rows: PerformanceRows) -> FloatArray:
    return rows.consistency


@ENGINE.register("review_compliance")
def _review_compliance(ctx: AssessmentContext) -> DimensionResult:
    comp = ctx.performance
    reviewed = [s for s in ctx.window.scored if s.review is not None]
    completed_without = sum(1 for s in ctx.window.scored if s.completed and s.review is None)
    ids = distinct_ids((s.task.completion_event_id or "", *s.task.memory_event_ids) for s in reviewed)
    reason = (
        "the organization's review checklist is empty"
        if not ctx.config.checklist
        else "no completed task with a review checklist"
    )
    return dimension_result(
        "review_compliance",
        comp.review_compliance,
        comp.review_tasks,
        {
            "reviewed_tasks": comp.review_tasks,
            "completed_tasks_without_checklist": completed_without,
            "checklist": list(ctx.config.checklist),
            # review_i = passed_i / |checklist| exactly, so this recovers the integer count
            "items_passed": sum(round((s.review or 0.0) * len(ctx.config.checklist)) for s in reviewed),
        },
        ids,
        reason,
    )


@PERFORMANCE_ROWS.register("review_compliance")
def _review_compliance_rows(rows: PerformanceRows) -> FloatArray:
    return rows.ratio("weighted_review", "review_weight")
