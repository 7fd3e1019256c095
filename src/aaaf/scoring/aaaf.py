"""The AAAF scheme: dual-axis Performance / Capability scoring (SCORING.md §2, document 004 §3).

Pure: events, config and ``window_end`` in, an :class:`~aaaf.scoring.results.AAAFResult`
out.  The work is one fold of the events into tasks (:mod:`aaaf.scoring.fold`), one pass
that gives every window task its recency weight and per-task quantities, and then each
dimension as sums over those quantities.  ``perf(S)`` (the Performance composite of a
subset, SCORING.md §2.3) reuses the same per-task quantities, so the capability axis costs
a few more passes over the window's tasks, never a re-fold.

Determinism (SCORING.md §0): tasks are always visited in ``task_id`` order (completion
order, ties by ``task_id``, for learning_rate) and unattached evidence in (timestamp, id)
order, and sums over unordered collections use :func:`math.fsum`; so the same evidence in
any order gives bit-identical scores.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from itertools import chain, compress, groupby, repeat
from operator import attrgetter, is_, mul
from typing import Any, NamedTuple, cast

from aaaf.errors import AAAFError
from aaaf.scoring.audit import window_audit
from aaaf.scoring.core import CompositeResult, DimensionResult, composite, renormalised_weights
from aaaf.scoring.defaults import (
    AXES,
    CAPABILITY_DIMENSIONS,
    CAPABILITY_TIERS,
    PERFORMANCE_DIMENSIONS,
    PERFORMANCE_TIERS,
    AAAFConfig,
)
from aaaf.scoring.fold import (
    COMPLETED_STATUSES,
    DelegationDecision,
    DelegationOutcome,
    FoldedEvidence,
    OrchestrationResult,
    Task,
    ToolUsage,
    fold_evidence,
)
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult, AxisResult, iso

SCHEME = "aaaf"
"""The scheme's registered name (DESIGN.md: one scheme = one module)."""
VERSION = "1"
"""Bumped whenever a formula changes, so a recorded result is never replayed on another one."""

ASSESSMENT_TYPES: tuple[str, ...] = ("full", "passive_only", "single_dimension")
"""Assessment types scored from events (``stress_test_only`` is not an events scheme)."""

ACCURACY_REVISION_WEIGHT = 0.6
ACCURACY_ERROR_WEIGHT = 0.4
CONSISTENCY_ACCURACY_WEIGHT = 0.6
CONSISTENCY_COMPLETION_WEIGHT = 0.4
DOMAIN_QUALIFYING_PERFORMANCE = 0.40
LEVEL_QUALIFYING_PERFORMANCE = 0.60
MIN_COMPLETED_PER_CLAIM = 3
COMPLEXITY_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
AUTONOMY_LEVELS: tuple[int, ...] = (0, 1, 2, 3)
MIN_TOOL_INVOCATIONS = 10
TOOL_WEIGHTS: tuple[float, float, float] = (0.5, 0.3, 0.2)  # correct, recovery, 1 - unnecessary
LEARNING_TASKS = 15
LEARNING_BLOCK = 5
LEARNING_FULL_IMPROVEMENT = 0.30
DELEGATION_WEIGHTS: Mapping[str, float] = {"judgment": 0.4, "selection": 0.3, "management": 0.3}
OUTCOME_VALUES: Mapping[str, float] = {"success": 1.0, "partial": 0.5, "failure": 0.0}
REVISION_NEEDED_FACTOR = 0.5
ORCHESTRATION_COMPONENTS: tuple[str, ...] = (
    "workflow_design",
    "communication_clarity",
    "failure_handling",
    "synthesis_quality",
)

ONE_DAY = timedelta(days=1)


# --------------------------------------------------------------------------- window


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive datetime is taken as UTC (the core reads no clock or zone)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def window_bounds(window_end: datetime, config: AAAFConfig) -> tuple[datetime, datetime]:
    """``[window_end − window_days, window_end]``, both bounds inclusive (SCORING.md §2.1)."""
    end = as_utc(window_end)
    return end - timedelta(days=config.window_days), end


def age_in_days(window_end: datetime, moment: datetime) -> int:
    """``floor((window_end − t) / 1 day)`` (SCORING.md §2.1)."""
    return (window_end - moment) // ONE_DAY


def recency_weight(age_days: int, table: Sequence[tuple[int, float]]) -> float:
    """The weight of the first bracket whose inclusive upper age bound ``age_days`` reaches.

    With the default table: 0-7 → 1.0, 8-14 → 0.8, 15-30 → 0.6.  An age beyond the table
    (an org window longer than its recency table) takes the oldest bracket's weight.
    """
    if not table:
        return 1.0
    for max_age, weight in table:
        if age_days <= max_age:
            return weight
    return table[-1][1]


# --------------------------------------------------------------------------- per-task quantities


class ScoredTask(NamedTuple):
    """A window task with its recency weight and every per-task quantity of §2.2."""

    task: Task
    weight: float
    credit: float
    completed: bool
    revised: bool
    weighted_errors: float
    accuracy: float
    speed: float | None
    review: float | None
    group: tuple[str, int] | None
    perf_event_ids: tuple[str, ...]
    terms: tuple[float, ...]
    """This task's terms of the §2.2 sums, in the order of :data:`TERMS` (0 where it has none)."""


_new_scored_task = cast(Callable[[tuple[Any, ...]], ScoredTask], partial(tuple.__new__, ScoredTask))


TERMS: tuple[str, ...] = (
    "weight",  # Σ wᵢ: denominator of task_completion_rate
    "weighted_credit",  # Σ wᵢ creditᵢ
    "completed_weight",  # Σ wᵢ over completed tasks: denominator of accuracy
    "revised_weight",  # Σ wᵢ revisedᵢ
    "weighted_errors",  # Σ wᵢ werrᵢ
    "speed_weight",  # Σ wᵢ over tasks with a speed
    "weighted_speed",  # Σ wᵢ speedᵢ
    "review_weight",  # Σ wᵢ over tasks with a checklist
    "weighted_review",  # Σ wᵢ reviewᵢ
    "completed",  # counts: completed, revised, timed, reviewed tasks
    "revised",
    "timed",
    "reviewed",
)
"""The per-task terms whose column sums give every §2.2 weighted mean of a task set."""

_NOT_COMPLETED_TERMS = (0.0,) * (len(TERMS) - 2)


def _per_task_accuracy(revised: float, weighted_errors: float, baseline: float) -> float:
    """``0.6 (1 − revised_i) + 0.4 (1 − min(1, werr_i / baseline))`` (SCORING.md §2.2)."""
    return ACCURACY_REVISION_WEIGHT * (1.0 - revised) + ACCURACY_ERROR_WEIGHT * (
        1.0 - _error_load(weighted_errors, baseline)
    )


def _error_load(weighted_errors: float, baseline: float) -> float:
    """``min(1, werr / baseline)``; a non-positive baseline tolerates no error at all."""
    if baseline <= 0.0:
        return 1.0 if weighted_errors > 0.0 else 0.0
    return min(1.0, weighted_errors / baseline)


def score_task(task: Task, weight: float, config: AAAFConfig) -> ScoredTask:
    """The per-task quantities of SCORING.md §2.2 for one window task.

    Computed once per assessment; every weighted mean of §2.2 and every perf(S) of §2.3
    is then a sum of these ``terms``.  Written flat (no helper calls, the properties of
    :class:`Task` read directly): it runs once per window task of every agent.
    """
    completed = task.completion_status in COMPLETED_STATUSES
    revised = task.revised
    weighted_errors = task.weighted_errors
    credit = task.credit
    # _per_task_accuracy, inlined (same operations in the same order)
    baseline_errors = config.baseline_errors_per_task
    if baseline_errors <= 0.0:
        error_load = 1.0 if weighted_errors > 0.0 else 0.0
    else:
        error_load = min(1.0, weighted_errors / baseline_errors)
    accuracy = ACCURACY_REVISION_WEIGHT * (1.0 - (1.0 if revised else 0.0)) + ACCURACY_ERROR_WEIGHT * (
        1.0 - error_load
    )
    speed: float | None = None
    review: float | None = None
    group: tuple[str, int] | None = None
    completion_id = task.completion_event_id
    assigned_id = task.assigned_event_id
    if completion_id is not None:
        ids: tuple[str, ...] = (completion_id, assigned_id) if assigned_id is not None else (completion_id,)
    else:
        ids = (assigned_id,) if assigned_id is not None else ()
    if task.revision_event_ids:
        ids += task.revision_event_ids
    if task.memory_event_ids:
        ids += task.memory_event_ids
    terms: tuple[float, ...]
    if completed:
        level = task.complexity_level
        if task.domain is not None and level is not None:
            group = (task.domain, level)
        seconds = task.time_to_complete_seconds
        if level is not None and seconds is not None:
            baseline = config.speed_baselines.get(level)
            if baseline is not None and baseline > 0.0:
                speed = min(1.0, max(0.0, 2.0 - seconds / baseline))
        checklist = task.checklist
        items = config.checklist
        if checklist is not None and items:
            # the items whose value is True, counted in C
            review = sum(map(is_, map(checklist.get, items), repeat(True))) / len(items)
        terms = (
            weight,
            weight * credit,
            weight,
            weight if revised else 0.0,
            weight * weighted_errors,
            weight if speed is not None else 0.0,
            weight * speed if speed is not None else 0.0,
            weight if review is not None else 0.0,
            weight * review if review is not None else 0.0,
            1.0,
            1.0 if revised else 0.0,
            1.0 if speed is not None else 0.0,
            1.0 if review is not None else 0.0,
        )
    else:
        terms = (weight, weight * credit, *_NOT_COMPLETED_TERMS)
    # tuple.__new__: the named tuple's own __new__ is a Python call, one per window task
    return _new_scored_task(
        (
            task,
            weight,
            credit,
            completed,
            revised,
            weighted_errors,
            accuracy,
            speed,
            review,
            group,
            ids,
            terms,
        )
    )


def _ids(parts: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Distinct non-empty event ids in first-seen order.

    Callers walk tasks in ``task_id`` order (and each task's ids are sorted by the fold),
    so the order is the same whatever the order of the log; no global sort is needed.
    """
    seen = dict.fromkeys(chain.from_iterable(parts))
    seen.pop("", None)
    return tuple(seen)


def coefficient_of_variation(values: Sequence[float]) -> float:
    """Population std / mean, 0 when the mean is 0 (SCORING.md §2.2 consistency)."""
    n = len(values)
    mean = math.fsum(values) / n
    if mean == 0.0:
        return 0.0
    variance = math.fsum((x - mean) ** 2 for x in values) / n
    return math.sqrt(variance) / mean


# --------------------------------------------------------------------------- performance


class ConsistencyGroup(NamedTuple):
    domain: str
    complexity_level: int
    tasks: int
    cv_accuracy: float
    cv_completion: float


class PerformanceComponents(NamedTuple):
    """Every intermediate quantity of the five §2.2 formulas over one set of tasks."""

    tasks: int
    total_weight: float
    task_completion_rate: float | None
    completed: int
    completed_weight: float
    revised_tasks: int
    revised_share: float | None
    weighted_errors_per_task: float | None
    from_revisions: float | None
    from_errors: float | None
    accuracy: float | None
    speed_tasks: int
    speed: float | None
    groups: tuple[ConsistencyGroup, ...]
    small_groups: int
    cv_accuracy: float | None
    cv_completion: float | None
    consistency: float | None
    review_tasks: int
    review_compliance: float | None

    def scores(self) -> dict[str, float | None]:
        return {
            "task_completion_rate": self.task_completion_rate,
            "accuracy": self.accuracy,
            "speed": self.speed,
            "consistency": self.consistency,
            "review_compliance": self.review_compliance,
        }


_GROUP_OF = attrgetter("group")
_TOOL_OF = attrgetter("tool")
_PERF_IDS_OF = attrgetter("perf_event_ids")
_COMPLETED_OF = attrgetter("completed")
_COMPLETED_AT = attrgetter("task.completed_at")
_STATUS_OF = attrgetter("task.completion_status")
_CREDIT_OF = attrgetter("credit")
_WEIGHT_OF = attrgetter("weight")
_WEIGHTED_ERRORS_OF = attrgetter("weighted_errors")
_ERROR_COUNT_OF = attrgetter("task.error_count")
_TASK_ID_OF = attrgetter("task.task_id")


def _completed(scored: Sequence[ScoredTask]) -> list[ScoredTask]:
    """The completed tasks of ``scored``, in its order (selected in C)."""
    return list(compress(scored, map(_COMPLETED_OF, scored)))


_TERMS_OF = attrgetter("terms")


def consistency_groups(
    scored: Sequence[ScoredTask],
    min_group: int,
    known_groups: Mapping[tuple[str, int], ConsistencyGroup] | None = None,
) -> tuple[list[ConsistencyGroup], int]:
    """The (domain, level) groups of ``scored`` with ≥ ``min_group`` completed tasks, in key
    order, and how many groups were too small (SCORING.md §2.2 consistency).

    ``known_groups`` are the groups of a superset of ``scored`` (the whole window): a
    group of ``scored`` with as many members as the known group of its key *is* that group
    (a subset of equal size), and a CV depends only on the members' values, not their
    order (both sums are :func:`math.fsum`, exactly rounded), so the known CVs are reused
    bit for bit.  perf(S) of §2.3 on a domain or a complexity level takes every group of
    that domain / level whole, so its consistency costs no CV at all.
    """
    if len(scored) < min_group:  # every group too small (a learning-rate block of 5, say)
        keys = set(map(_GROUP_OF, scored))
        keys.discard(None)
        return [], len(keys)
    counts = Counter(map(_GROUP_OF, scored))  # counted in C
    counts.pop(None, None)
    kept: list[ConsistencyGroup] = []
    small = 0
    pending: list[tuple[str, int]] = []
    for key in sorted(counts):
        size = counts[key]
        if size < min_group:
            small += 1
            continue
        known = known_groups.get(key) if known_groups is not None else None
        if known is not None and known.tasks == size:
            kept.append(known)
        else:
            pending.append(key)
            kept.append(ConsistencyGroup(key[0], key[1], size, 0.0, 0.0))  # filled below
    if pending:
        members: dict[tuple[str, int], list[ScoredTask]] = {key: [] for key in pending}
        for item in scored:
            bucket = members.get(item.group)  # type: ignore[arg-type]
            if bucket is not None:
                bucket.append(item)
        for index, group in enumerate(kept):
            bucket = members.get((group.domain, group.complexity_level))
            if bucket is not None:
                kept[index] = ConsistencyGroup(
                    group.domain,
                    group.complexity_level,
                    group.tasks,
                    coefficient_of_variation([m.accuracy for m in bucket]),
                    coefficient_of_variation([m.credit for m in bucket]),
                )
    return kept, small


def performance_components(
    scored: Sequence[ScoredTask],
    config: AAAFConfig,
    known_groups: Mapping[tuple[str, int], ConsistencyGroup] | None = None,
) -> PerformanceComponents:
    """The §2.2 quantities over ``scored`` (recency-weighted; minimums not applied).

    ``known_groups``: the consistency groups of a superset (see :func:`consistency_groups`).
    """
    # One column sum per term (zip and sum run in C): the cheapest way to take the weighted
    # means of many subsets (perf(S) of §2.3) in pure Python.  The tasks come in task_id
    # order (or completion order for learning_rate), so the sums are bit-identical
    # whatever the order of the log.
    if scored:
        sums = [sum(column) for column in zip(*map(_TERMS_OF, scored), strict=True)]
    else:
        sums = [0.0] * len(TERMS)
    (
        total_weight,
        weighted_credit,
        completed_weight,
        revised_weight,
        weighted_errors,
        speed_weight,
        weighted_speed,
        review_weight,
        weighted_review,
        completed_count,
        revised_count,
        timed_count,
        reviewed_count,
    ) = sums
    tcr = weighted_credit / total_weight if total_weight > 0.0 else None
    revised_share = errors_per_task = None
    if completed_weight > 0.0:
        revised_share = revised_weight / completed_weight
        errors_per_task = weighted_errors / completed_weight
    from_revisions = from_errors = accuracy = None
    if revised_share is not None and errors_per_task is not None:
        from_revisions = 1.0 - revised_share
        from_errors = 1.0 - _error_load(errors_per_task, config.baseline_errors_per_task)
        accuracy = ACCURACY_REVISION_WEIGHT * from_revisions + ACCURACY_ERROR_WEIGHT * from_errors
    speed = weighted_speed / speed_weight if speed_weight > 0.0 else None
    review = weighted_review / review_weight if review_weight > 0.0 else None

    kept, small = consistency_groups(scored, config.consistency_min_group, known_groups)
    cv_accuracy = cv_completion = consistency = None
    if kept:
        grouped_tasks = sum(g.tasks for g in kept)
        cv_accuracy = math.fsum(g.tasks * g.cv_accuracy for g in kept) / grouped_tasks
        cv_completion = math.fsum(g.tasks * g.cv_completion for g in kept) / grouped_tasks
        consistency = 1.0 - min(
            1.0, CONSISTENCY_ACCURACY_WEIGHT * cv_accuracy + CONSISTENCY_COMPLETION_WEIGHT * cv_completion
        )
    # tuple.__new__ in field order: the named tuple's keyword __new__ is a Python call, and
    # perf(S) builds one of these per subset
    return _new_components(
        (
            len(scored),  # tasks
            total_weight,  # total_weight
            tcr,  # task_completion_rate
            int(completed_count),  # completed
            completed_weight,  # completed_weight
            int(revised_count),  # revised_tasks
            revised_share,  # revised_share
            errors_per_task,  # weighted_errors_per_task
            from_revisions,  # from_revisions
            from_errors,  # from_errors
            accuracy,  # accuracy
            int(timed_count),  # speed_tasks
            speed,  # speed
            tuple(kept),  # groups
            small,  # small_groups
            cv_accuracy,  # cv_accuracy
            cv_completion,  # cv_completion
            consistency,  # consistency
            int(reviewed_count),  # review_tasks
            review,  # review_compliance
        )
    )


_new_components = cast(
    Callable[[tuple[Any, ...]], PerformanceComponents], partial(tuple.__new__, PerformanceComponents)
)


def subset_performance(
    scored: Sequence[ScoredTask],
    config: AAAFConfig,
    known_groups: Mapping[tuple[str, int], ConsistencyGroup] | None = None,
) -> float | None:
    """``perf(S)``: the Performance composite over a subset, minimums waived (SCORING.md §2.3).

    ``known_groups``: the window's consistency groups, reused when whole (same values).
    """
    if not scored:
        return None
    components = performance_components(scored, config, known_groups)
    return composite(components.scores(), config.performance_weights).score


# --------------------------------------------------------------------------- assessment context


@dataclass(frozen=True, slots=True)
class WindowEvidence:
    """The evidence of one window: its scored tasks and the unattached evidence inside it."""

    window_start: datetime
    window_end: datetime
    scored: tuple[ScoredTask, ...]
    tools: tuple[ToolUsage, ...]
    delegation_decisions: tuple[DelegationDecision, ...]
    delegation_outcomes: tuple[DelegationOutcome, ...]
    orchestration_results: tuple[OrchestrationResult, ...]
    event_types: Mapping[str, str]

    @property
    def completed_count(self) -> int:
        return sum(map(_COMPLETED_OF, self.scored))  # True counts 1, summed in C


def window_evidence(
    folded: FoldedEvidence,
    config: AAAFConfig,
    window_end: datetime,
    excluded_tasks: frozenset[str] = frozenset(),
) -> WindowEvidence:
    """Place tasks in the window and weight them by recency (SCORING.md §2.1).

    A task belongs to the window by its counting completion's timestamp (else its
    assignment); evidence carrying a window task's id counts whatever its own timestamp;
    unattached evidence counts by its own timestamp.  ``excluded_tasks`` (appeals) drop a
    task and every piece of evidence naming it.
    """
    start, end = window_bounds(window_end, config)
    table = tuple(sorted(config.recency_weights))
    scored: list[ScoredTask] = []
    weights: dict[int, float] = {}  # recency weight by age in days, looked up once per age
    tasks = folded.tasks
    for task_id in sorted(tasks):
        if excluded_tasks and task_id in excluded_tasks:
            continue
        task = tasks[task_id]
        placed = task.completed_at  # Task.placed_at, read inline
        if placed is None:
            placed = task.assigned_at
        if placed is None or placed < start or placed > end:
            continue
        age = (end - placed) // ONE_DAY  # age_in_days
        weight = weights.get(age)
        if weight is None:
            weight = weights[age] = recency_weight(age, table)
        scored.append(score_task(task, weight, config))
    loose = folded.unattached
    tools = [usage for moment, usage in loose.tools if start <= moment <= end]
    decisions = [d for moment, d in loose.delegation_decisions if start <= moment <= end]
    outcomes = [o for moment, o in loose.delegation_outcomes if start <= moment <= end]
    orchestration = [o for moment, o in loose.orchestration_results if start <= moment <= end]
    for item in scored:
        task = item.task
        if task.tools:
            tools.extend(task.tools)
        if task.delegation_decisions:
            decisions.extend(task.delegation_decisions)
        if task.delegation_outcomes:
            outcomes.extend(task.delegation_outcomes)
        if task.orchestration_results:
            orchestration.extend(task.orchestration_results)
    return WindowEvidence(
        start,
        end,
        tuple(scored),
        tuple(tools),
        tuple(decisions),
        tuple(outcomes),
        tuple(orchestration),
        folded.event_types,
    )


def _partition(
    scored: Sequence[ScoredTask], key_of: Callable[[ScoredTask], Any]
) -> dict[Any, list[ScoredTask]]:
    """``scored`` split by ``key_of`` (``None`` keys dropped), each part in ``scored``'s order."""
    parts: dict[Any, list[ScoredTask]] = {}
    for key, item in zip(map(key_of, scored), scored, strict=True):
        if key is not None:
            bucket = parts.get(key)
            if bucket is None:
                parts[key] = [item]
            else:
                bucket.append(item)
    return parts


_DOMAIN_OF = attrgetter("task.domain")
_COMPLEXITY_OF = attrgetter("task.complexity_level")
_AUTONOMY_OF = attrgetter("task.autonomy_level")


class _Context:
    """One assessment's evidence plus caches shared by its dimensions."""

    __slots__ = ("_by_domain", "_groups", "_performance", "_weights", "config", "window")

    def __init__(self, window: WindowEvidence, config: AAAFConfig) -> None:
        self.window = window
        self.config = config
        self._performance: PerformanceComponents | None = None
        self._groups: dict[tuple[str, int], ConsistencyGroup] | None = None
        self._weights: dict[tuple[bool, ...], dict[str, float]] = {}
        self._by_domain: dict[str, list[ScoredTask]] | None = None

    @property
    def by_domain(self) -> dict[str, list[ScoredTask]]:
        """The window's tasks by domain, each domain's in task_id order (shared, read-only)."""
        if self._by_domain is None:
            self._by_domain = _partition(self.window.scored, _DOMAIN_OF)
        return self._by_domain

    @property
    def performance(self) -> PerformanceComponents:
        if self._performance is None:
            self._performance = performance_components(self.window.scored, self.config)
        return self._performance

    def perf(self, subset: Sequence[ScoredTask]) -> float | None:
        """perf(S) (§2.3), the window's consistency groups reused where a subset holds them whole."""
        groups = self._groups
        if groups is None:
            groups = self._groups = {(g.domain, g.complexity_level): g for g in self.performance.groups}
        if not subset:
            return None
        scores = performance_components(subset, self.config, groups).scores()
        # composite(scores, performance_weights).score, its renormalised weights kept per
        # pattern of covered dimensions (they depend on nothing else): the same sum
        pattern = tuple([value is not None for value in scores.values()])
        used = self._weights.get(pattern)
        if used is None:
            used = self._weights[pattern] = renormalised_weights(scores, self.config.performance_weights)
        if not used:
            return None
        return math.fsum(used[name] * float(scores[name]) for name in used)  # type: ignore[arg-type]


def _result(
    name: str,
    score: float | None,
    sample_size: int,
    details: Mapping[str, Any],
    event_ids: tuple[str, ...],
    reason: str,
) -> DimensionResult:
    return DimensionResult(
        name=name,
        score=score,
        sample_size=sample_size,
        evidence_count=len(event_ids),
        details=details,
        reason=None if score is not None else reason,
        event_ids=event_ids,
    )


# --------------------------------------------------------------------------- §2.2 dimensions


def _task_completion_rate(ctx: _Context) -> DimensionResult:
    comp = ctx.performance
    scored = ctx.window.scored
    statuses = {"accepted": 0, "partial": 0, "rejected": 0, "failed": 0, "not_completed": 0}
    for status, count in Counter(map(_STATUS_OF, scored)).items():  # counted in C
        statuses[status if status in statuses else "not_completed"] += count
    credits = list(map(_CREDIT_OF, scored))
    weighted_credit = math.fsum(map(mul, map(_WEIGHT_OF, scored), credits))
    ids = _ids((s.task.completion_event_id or s.task.assigned_event_id or "",) for s in scored)
    return _result(
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


def _accuracy(ctx: _Context) -> DimensionResult:
    comp = ctx.performance
    completed = _completed(ctx.window.scored)
    ids = _ids((s.task.completion_event_id or "", *s.task.revision_event_ids) for s in completed)
    return _result(
        "accuracy",
        comp.accuracy,
        comp.completed,
        {
            "completed_tasks": comp.completed,
            "revised_tasks": comp.revised_tasks,
            "revised_share": comp.revised_share,
            "weighted_errors_per_task": comp.weighted_errors_per_task,
            "weighted_errors": math.fsum(map(_WEIGHTED_ERRORS_OF, completed)),
            "errors": sum(map(_ERROR_COUNT_OF, completed)),
            "baseline_errors_per_task": ctx.config.baseline_errors_per_task,
            "from_revisions": comp.from_revisions,
            "from_errors": comp.from_errors,
        },
        ids,
        "no completed task (accepted or partial) in the assessment window",
    )


def _speed(ctx: _Context) -> DimensionResult:
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
    ids = _ids((s.task.completion_event_id or "", s.task.attribute_event_id or "") for s in timed)
    return _result(
        "speed",
        comp.speed,
        comp.speed_tasks,
        {"timed_tasks": comp.speed_tasks, "per_level": per_level},
        ids,
        "no completed task with a known complexity level and time to complete",
    )


def _consistency(ctx: _Context) -> DimensionResult:
    comp = ctx.performance
    kept = {(g.domain, g.complexity_level) for g in comp.groups}
    members = [s for s in ctx.window.scored if s.group is not None and s.group in kept]
    ids = _ids((*s.perf_event_ids, s.task.attribute_event_id or "") for s in members)
    return _result(
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


def _review_compliance(ctx: _Context) -> DimensionResult:
    comp = ctx.performance
    reviewed = [s for s in ctx.window.scored if s.review is not None]
    completed_without = sum(1 for s in ctx.window.scored if s.completed and s.review is None)
    ids = _ids((s.task.completion_event_id or "", *s.task.memory_event_ids) for s in reviewed)
    reason = (
        "the organization's review checklist is empty"
        if not ctx.config.checklist
        else "no completed task with a review checklist"
    )
    return _result(
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


# --------------------------------------------------------------------------- §2.3 dimensions


def _perf_ids(members: Iterable[ScoredTask]) -> tuple[str, ...]:
    return _ids(map(_PERF_IDS_OF, members))


def _domain_breadth(ctx: _Context) -> DimensionResult:
    scored = ctx.window.scored
    taxonomy = tuple(dict.fromkeys(ctx.config.taxonomy))
    if not any(map(_COMPLETED_OF, scored)):
        return _result(
            "domain_breadth",
            None,
            0,
            {"qualified_domains": 0, "total_domains": len(taxonomy), "qualified_domain_names": []},
            (),
            "no completed task in the assessment window",
        )
    by_domain = ctx.by_domain
    per_domain: dict[str, dict[str, Any]] = {}
    qualified: list[str] = []
    examined: list[ScoredTask] = []
    sample = 0
    for domain in taxonomy:
        members = by_domain.get(domain, [])
        completed = sum(map(_COMPLETED_OF, members))  # True counts 1, summed in C
        sample += completed
        if not members:
            continue
        performance = None
        if completed >= MIN_COMPLETED_PER_CLAIM:
            performance = ctx.perf(members)
            examined.extend(members)
        ok = performance is not None and performance >= DOMAIN_QUALIFYING_PERFORMANCE
        if ok:
            qualified.append(domain)
        per_domain[domain] = {
            "tasks": len(members),
            "completed_tasks": completed,
            "performance": performance,
            "qualified": ok,
        }
    outside = sorted(d for d in by_domain if d not in taxonomy)
    score = len(qualified) / len(taxonomy) if taxonomy else None
    return _result(
        "domain_breadth",
        score,
        sample,
        {
            "qualified_domains": len(qualified),
            "qualified_domain_names": qualified,
            "total_domains": len(taxonomy),
            "per_domain": per_domain,
            "domains_outside_taxonomy": outside,
        },
        _perf_ids(examined),
        "the organization's domain taxonomy is empty",
    )


def _highest_passing_level(
    ctx: _Context,
    levels: Sequence[int],
    level_of: Callable[[ScoredTask], int | None],
) -> tuple[int | None, dict[str, dict[str, Any]], list[ScoredTask], int]:
    """The highest level with ≥ 3 completed tasks and perf ≥ 0.60 at it (§2.3)."""
    by_level: dict[int, list[ScoredTask]] = _partition(ctx.window.scored, level_of)
    per_level: dict[str, dict[str, Any]] = {}
    highest: int | None = None
    examined: list[ScoredTask] = []
    sample = 0
    for level in levels:
        members = by_level.get(level, [])
        completed = sum(map(_COMPLETED_OF, members))  # True counts 1, summed in C
        sample += completed
        if not members:
            continue
        performance = None
        if completed >= MIN_COMPLETED_PER_CLAIM:
            performance = ctx.perf(members)
            examined.extend(members)
        ok = performance is not None and performance >= LEVEL_QUALIFYING_PERFORMANCE
        if ok:
            highest = level
        per_level[str(level)] = {
            "tasks": len(members),
            "completed_tasks": completed,
            "performance": performance,
            "qualified": ok,
        }
    return highest, per_level, examined, sample


def _level_ceiling(
    ctx: _Context,
    name: str,
    levels: Sequence[int],
    level_of: Callable[[ScoredTask], int | None],
    top: int,
    covered: bool,
    reason: str,
) -> DimensionResult:
    """complexity_ceiling and autonomy_level (§2.3): highest qualifying level / top; 0 if none."""
    if not covered:
        return _result(name, None, 0, {"highest_level": None, "per_level": {}}, (), reason)
    highest, per_level, examined, sample = _highest_passing_level(ctx, levels, level_of)
    score = 0.0 if highest is None else highest / float(top)
    return _result(
        name, score, sample, {"highest_level": highest, "per_level": per_level}, _perf_ids(examined), reason
    )


def _complexity_ceiling(ctx: _Context) -> DimensionResult:
    return _level_ceiling(
        ctx,
        "complexity_ceiling",
        COMPLEXITY_LEVELS,
        _COMPLEXITY_OF,
        5,
        any(map(_COMPLETED_OF, ctx.window.scored)),
        "no completed task in the assessment window",
    )


def _autonomy_level(ctx: _Context) -> DimensionResult:
    return _level_ceiling(
        ctx,
        "autonomy_level",
        AUTONOMY_LEVELS,
        _AUTONOMY_OF,
        3,
        any(s.completed and s.task.autonomy_level is not None for s in ctx.window.scored),
        "no completed task carries an autonomy level",
    )


def _tool_proficiency(ctx: _Context) -> DimensionResult:
    # usages grouped per tool by a stable sort (window order kept within a tool), each
    # tool's counts summed column-wise in C; integer sums, so the order is immaterial
    totals: dict[str, list[int]] = {}
    tool_ids: dict[str, tuple[tuple[str, ...], ...]] = {}
    for tool, group in groupby(sorted(ctx.window.tools, key=_TOOL_OF), key=_TOOL_OF):
        columns = tuple(zip(*group, strict=True))
        totals[tool] = [sum(columns[1]), sum(columns[2]), sum(columns[3]), sum(columns[4]), sum(columns[5])]
        tool_ids[tool] = columns[6]
    per_tool: dict[str, dict[str, Any]] = {}
    scores: list[float] = []
    used: list[tuple[str, ...]] = []
    for tool in sorted(totals):
        invocations, successes, failures, recovered, unnecessary = totals[tool]
        entry: dict[str, Any] = {
            "invocations": invocations,
            "successes": successes,
            "failures": failures,
            "recovered": recovered,
            "unnecessary": unnecessary,
            "qualified": invocations >= MIN_TOOL_INVOCATIONS,
        }
        if invocations >= MIN_TOOL_INVOCATIONS:
            correct = successes / invocations
            recovery = recovered / failures if failures > 0 else 1.0
            unnecessary_rate = unnecessary / invocations
            wc, wr, wu = TOOL_WEIGHTS
            tool_score = wc * correct + wr * recovery + wu * (1.0 - unnecessary_rate)
            entry.update(
                correct=correct, recovery=recovery, unnecessary_rate=unnecessary_rate, score=tool_score
            )
            scores.append(tool_score)
            used.extend(tool_ids[tool])
        per_tool[tool] = entry
    score = math.fsum(scores) / len(scores) if scores else None
    return _result(
        "tool_proficiency",
        score,
        len(scores),
        {"tools_assessed": len(scores), "tools_seen": len(totals), "tools": per_tool},
        _ids(used),
        f"no tool with ≥ {MIN_TOOL_INVOCATIONS} invocations",
    )


def _learning_rate(ctx: _Context) -> DimensionResult:
    taxonomy = tuple(dict.fromkeys(ctx.config.taxonomy))
    by_domain = ctx.by_domain
    per_domain: dict[str, dict[str, Any]] = {}
    learnings: list[float] = []
    improvements: list[float] = []
    compared: list[ScoredTask] = []
    for domain in taxonomy:
        in_domain = by_domain.get(domain, [])
        members = _completed(in_domain)
        if len(members) < LEARNING_TASKS:
            continue
        # completion order, ties by task_id: members come in task_id order and the sort
        # is stable (a completed task always has its counting completion's timestamp)
        recent = sorted(members, key=_COMPLETED_AT)[-LEARNING_TASKS:]
        earlier, later = recent[:LEARNING_BLOCK], recent[-LEARNING_BLOCK:]
        perf_earlier = ctx.perf(earlier)
        perf_later = ctx.perf(later)
        if perf_earlier is None or perf_later is None:
            continue
        improvement = perf_later - perf_earlier
        learning = min(1.0, max(0.0, improvement / LEARNING_FULL_IMPROVEMENT))
        learnings.append(learning)
        improvements.append(improvement)
        compared.extend(earlier)
        compared.extend(later)
        per_domain[domain] = {
            "completed_tasks": len(members),
            "performance_earlier": perf_earlier,
            "performance_later": perf_later,
            "improvement": improvement,
            "learning": learning,
            "earlier_tasks": [s.task.task_id for s in earlier],
            "later_tasks": [s.task.task_id for s in later],
        }
    score = math.fsum(learnings) / len(learnings) if learnings else None
    return _result(
        "learning_rate",
        score,
        len(compared),
        {
            "domains_assessed": len(learnings),
            "improvement": math.fsum(improvements) / len(improvements) if improvements else None,
            "per_domain": per_domain,
        },
        _perf_ids(compared),
        f"no taxonomy domain with ≥ {LEARNING_TASKS} completed tasks in the assessment window",
    )


def _delegation_capability(ctx: _Context) -> DimensionResult:
    decisions = ctx.window.delegation_decisions
    outcomes = ctx.window.delegation_outcomes
    judged = [d for d in decisions if d.ground_truth is not None]
    judgment = sum(1 for d in judged if d.decision == d.ground_truth) / len(judged) if judged else None
    selectable = [d for d in decisions if d.decision == "delegate" and d.optimal_delegate is not None]
    selection = (
        sum(1 for d in selectable if d.delegate_to == d.optimal_delegate) / len(selectable)
        if selectable
        else None
    )
    managed = [o for o in outcomes if o.outcome in OUTCOME_VALUES]
    management = (
        math.fsum(
            OUTCOME_VALUES[o.outcome or ""] * (REVISION_NEEDED_FACTOR if o.revision_needed else 1.0)
            for o in managed
        )
        / len(managed)
        if managed
        else None
    )
    parts = {"judgment": judgment, "selection": selection, "management": management}
    combined = composite(parts, DELEGATION_WEIGHTS)
    ids = _ids(((d.event_id for d in decisions), (o.event_id for o in managed)))
    return _result(
        "delegation_capability",
        combined.score,
        len(decisions) + len(managed),
        {
            "decisions_assessed": len(decisions),
            "outcomes_assessed": len(managed),
            "judgment": judgment,
            "judged_decisions": len(judged),
            "selection": selection,
            "selection_decisions": len(selectable),
            "management": management,
            "weights_used": dict(combined.weights_used),
        },
        ids,
        "no delegation decision or outcome in the assessment window",
    )


def _orchestration_skills(ctx: _Context) -> DimensionResult:
    results = ctx.window.orchestration_results
    per_component: dict[str, list[float]] = {name: [] for name in ORCHESTRATION_COMPONENTS}
    scenario_scores: list[float] = []
    for r in results:
        if r.failures_injected > 0:
            failure_handling = min(1.0, max(0.0, r.failures_recovered / r.failures_injected))
        else:
            failure_handling = 1.0
        components = {
            "workflow_design": r.workflow_design_score,
            "communication_clarity": r.communication_clarity_score,
            "failure_handling": failure_handling,
            "synthesis_quality": r.synthesis_quality_score,
        }
        present = [v for v in components.values() if v is not None]
        for name, value in components.items():
            if value is not None:
                per_component[name].append(value)
        # equal weights 0.25 renormalised over the present components = their mean
        scenario_scores.append(math.fsum(present) / len(present))
    score = math.fsum(scenario_scores) / len(scenario_scores) if scenario_scores else None
    details: dict[str, Any] = {"scenarios_assessed": len(results)}
    for name, values in per_component.items():
        details[name] = math.fsum(values) / len(values) if values else None
    return _result(
        "orchestration_skills",
        score,
        len(results),
        details,
        tuple(sorted({r.event_id for r in results})),
        "no orchestration_result in the assessment window",
    )


DIMENSIONS: Mapping[str, Callable[[_Context], DimensionResult]] = {
    "task_completion_rate": _task_completion_rate,
    "accuracy": _accuracy,
    "speed": _speed,
    "consistency": _consistency,
    "review_compliance": _review_compliance,
    "domain_breadth": _domain_breadth,
    "complexity_ceiling": _complexity_ceiling,
    "tool_proficiency": _tool_proficiency,
    "autonomy_level": _autonomy_level,
    "learning_rate": _learning_rate,
    "delegation_capability": _delegation_capability,
    "orchestration_skills": _orchestration_skills,
}
AXIS_OF: Mapping[str, str] = {name: axis for axis, names in AXES.items() for name in names}
TIERS = {"performance": PERFORMANCE_TIERS, "capability": CAPABILITY_TIERS}


# --------------------------------------------------------------------------- assembling results


def axis_result(axis: str, dimensions: Mapping[str, DimensionResult], config: AAAFConfig) -> AxisResult:
    """An axis from its dimension results: renormalised composite and tier (SCORING.md §0)."""
    scores = {name: dim.score for name, dim in dimensions.items()}
    return AxisResult(axis, dict(dimensions), composite(scores, config.weights(axis), TIERS[axis]))


def single_dimension_axis(axis: str, dimension: DimensionResult) -> AxisResult:
    """An axis holding one dimension: a single dimension is not a composite (no score, no tier)."""
    covered = 0 if dimension.score is None else 1
    return AxisResult(axis, {dimension.name: dimension}, CompositeResult(None, None, covered, 1, {}))


def _evidence_summary(
    window: WindowEvidence, used: Sequence[str], excluded_tasks: frozenset[str]
) -> dict[str, Any]:
    by_type = Counter(map(window.event_types.get, used))
    by_type.pop(None, None)
    summary: dict[str, Any] = {
        "window_tasks": len(window.scored),
        "completed_tasks": window.completed_count,
        "task_ids": list(map(_TASK_ID_OF, window.scored)),
        "events_used": len(used),
        "events_used_by_type": {kind: by_type[kind] for kind in sorted(k for k in by_type if k is not None)},
    }
    if excluded_tasks:
        summary["excluded_tasks"] = sorted(excluded_tasks)
    return summary


def _used_event_ids(axes: Iterable[AxisResult | None]) -> tuple[str, ...]:
    return _ids(dim.event_ids for axis in axes if axis is not None for dim in axis.dimensions.values())


def insufficient_evidence(axis: str, current: int, required: int, window: WindowEvidence) -> AAAFError:
    """The §6.4 ``INSUFFICIENT_EVIDENCE`` error for one axis (SCORING.md §2.1)."""
    return AAAFError(
        "INSUFFICIENT_EVIDENCE",
        f"Agent has {current} tasks in assessment window. Minimum required: {required}.",
        {
            "axis": axis,
            "current_count": current,
            "required_count": required,
            "window_start": iso(window.window_start),
            "window_end": iso(window.window_end),
        },
    )


def _check_minimums(axes: Sequence[str], window: WindowEvidence, config: AAAFConfig) -> None:
    count = len(window.scored)
    required = {"performance": config.min_tasks_performance, "capability": config.min_tasks_capability}
    for axis in ("performance", "capability"):  # below both, the performance axis is named
        if axis in axes and count < required[axis]:
            raise insufficient_evidence(axis, count, required[axis], window)


def assess(
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    *,
    assessment_type: str = "full",
    dimension: str | None = None,
    excluded_tasks: frozenset[str] = frozenset(),
    enforce_minimums: bool = True,
) -> AAAFResult:
    """Score an agent's events for the window ending at ``window_end`` (SCORING.md §2.1-§2.3).

    ``full`` and ``passive_only`` score both axes from events and need both minimums;
    ``single_dimension`` scores ``dimension`` alone and needs only its axis's minimum.
    ``excluded_tasks`` drops tasks and all evidence naming them (appeals, §2.4).
    """
    if assessment_type not in ASSESSMENT_TYPES:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Assessment type {assessment_type!r} is not scored from events; "
            f"expected one of {', '.join(ASSESSMENT_TYPES)}.",
            {"assessment_type": assessment_type},
        )
    if assessment_type == "single_dimension" and (dimension is None or dimension not in DIMENSIONS):
        raise AAAFError(
            "INVALID_REQUEST",
            "A single_dimension assessment needs a 'dimension' naming one of the 12 AAAF dimensions"
            f" (got {dimension!r}).",
            {"dimension": dimension, "expected": list(DIMENSIONS)},
        )
    window = window_evidence(fold_evidence(events), config, window_end, excluded_tasks)
    ctx = _Context(window, config)

    performance: AxisResult | None
    capability: AxisResult | None
    if assessment_type == "single_dimension":
        assert dimension is not None
        axis = AXIS_OF[dimension]
        if enforce_minimums:
            _check_minimums((axis,), window, config)
        single = single_dimension_axis(axis, DIMENSIONS[dimension](ctx))
        performance = single if axis == "performance" else None
        capability = single if axis == "capability" else None
    else:
        if enforce_minimums:
            _check_minimums(("performance", "capability"), window, config)
        performance = axis_result(
            "performance", {name: DIMENSIONS[name](ctx) for name in PERFORMANCE_DIMENSIONS}, config
        )
        capability = axis_result(
            "capability", {name: DIMENSIONS[name](ctx) for name in CAPABILITY_DIMENSIONS}, config
        )
    used = _used_event_ids((performance, capability))
    return AAAFResult(
        assessment_type=assessment_type,
        window_start=window.window_start,
        window_end=window.window_end,
        performance=performance,
        capability=capability,
        evidence_summary=_evidence_summary(window, used, excluded_tasks),
        event_ids=used,
        audit=window_audit(window.scored, config).to_dict(),  # SCORING.md §2.6
    )


def performance_dimensions(
    events: Sequence[EventRecord], config: AAAFConfig, window_end: datetime
) -> dict[str, DimensionResult]:
    """The five §2.2 dimensions with minimums waived (the trust scheme's operational fill-ins)."""
    window = window_evidence(fold_evidence(events), config, window_end)
    ctx = _Context(window, config)
    return {name: DIMENSIONS[name](ctx) for name in PERFORMANCE_DIMENSIONS}


def dimension_scores(
    folded: FoldedEvidence,
    config: AAAFConfig,
    window_end: datetime,
    names: Sequence[str],
    excluded_tasks: frozenset[str] = frozenset(),
) -> tuple[WindowEvidence, dict[str, DimensionResult]]:
    """The named dimensions over an already folded log, minimums waived (``explain``'s
    leave-one-task-out recomputes them once per task without re-folding)."""
    window = window_evidence(folded, config, window_end, excluded_tasks)
    ctx = _Context(window, config)
    return window, {name: DIMENSIONS[name](ctx) for name in names}


def rescore_after_appeal(
    previous: AAAFResult,
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    challenged: Sequence[str],
    excluded_tasks: frozenset[str],
) -> AAAFResult:
    """Recompute only the challenged dimensions without the excluded tasks (SCORING.md §2.4).

    Unchallenged dimension results are carried over as the same objects, so their scores
    are bit-identical; composites and tiers are recomputed from the mixed set.
    """
    if not challenged:
        raise AAAFError("APPEAL_NOT_ALLOWED", "An appeal must name at least one assessed dimension.", {})
    for name in challenged:
        axis = previous.axis(AXIS_OF.get(name, ""))
        if name not in AXIS_OF or axis is None or name not in axis.dimensions:
            raise AAAFError(
                "APPEAL_NOT_ALLOWED",
                f"Dimension {name!r} was not assessed in this assessment and cannot be appealed.",
                {"dimension": name, "assessed": _assessed(previous)},
            )
    window = window_evidence(fold_evidence(events), config, window_end, excluded_tasks)
    ctx = _Context(window, config)
    wanted = set(challenged)
    axes: dict[str, AxisResult | None] = {}
    for axis_name in ("performance", "capability"):
        old = previous.axis(axis_name)
        if old is None:
            axes[axis_name] = None
            continue
        dims = {
            name: (DIMENSIONS[name](ctx) if name in wanted else dim) for name, dim in old.dimensions.items()
        }
        if previous.assessment_type == "single_dimension":
            (only,) = dims.values()
            axes[axis_name] = single_dimension_axis(axis_name, only)
        else:
            axes[axis_name] = axis_result(axis_name, dims, config)
    used = _used_event_ids(axes.values())
    summary = dict(previous.evidence_summary)
    summary["appeal"] = {
        "challenged": sorted(wanted),
        "excluded_tasks": sorted(excluded_tasks),
        "window_tasks_after_exclusion": len(window.scored),
    }
    return AAAFResult(
        assessment_type=previous.assessment_type,
        window_start=previous.window_start,
        window_end=previous.window_end,
        performance=axes["performance"],
        capability=axes["capability"],
        evidence_summary=summary,
        event_ids=used,
        audit=previous.audit,  # the audit is the assessment's, not the appeal's
    )


def _assessed(result: AAAFResult) -> list[str]:
    return [
        name
        for axis in (result.performance, result.capability)
        if axis is not None
        for name in axis.dimensions
    ]


def check_minimums(
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    *,
    assessment_type: str = "full",
    dimension: str | None = None,
) -> None:
    """``INSUFFICIENT_EVIDENCE`` when :func:`assess` would refuse for want of tasks (SCORING.md
    §2.1), without scoring anything: a trigger answers 422 at once (SCORING.md §7
    "Assessments") and leaves the scoring to run off the request path."""
    window = window_evidence(fold_evidence(events), config, window_end)
    if assessment_type == "single_dimension" and dimension is not None and dimension in AXIS_OF:
        _check_minimums((AXIS_OF[dimension],), window, config)
    else:
        _check_minimums(("performance", "capability"), window, config)
