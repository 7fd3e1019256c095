"""The AAAF per-task quantities and the §2.2 components over a task set (SCORING.md §2.2, §2.3).

:func:`score_task` computes, once per window task, every quantity the five Performance
formulas need; :func:`performance_components` turns the column sums of a task set's
``terms`` into the §2.2 intermediate quantities, which is also ``perf(S)`` of §2.3
(:func:`subset_performance`).  Part of the AAAF scheme (:mod:`aaaf.scoring.aaaf`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from itertools import chain, compress, repeat
from operator import attrgetter, is_
from typing import Any, NamedTuple, cast

from aaaf.scoring.core import composite
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.dimensions import SUBSET_SCORES
from aaaf.scoring.fold import (
    COMPLETED_STATUSES,
    Task,
)

ACCURACY_REVISION_WEIGHT = 0.6
ACCURACY_ERROR_WEIGHT = 0.4
CONSISTENCY_ACCURACY_WEIGHT = 0.6
CONSISTENCY_COMPLETION_WEIGHT = 0.4


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
    # tuple.__new__ in field order: keywords here and in performance_components cost +5.0 % of
    # a plain 1 000-event assess (callgrind instructions); field order checked by a test
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


def distinct_ids(parts: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Distinct non-empty event ids in first-seen order.

    Callers walk tasks in ``task_id`` order (and each task's ids are sorted by the fold),
    so the order is the same whatever the order of the log; no global sort is needed.
    """
    seen = dict.fromkeys(chain.from_iterable(parts))
    seen.pop("", None)
    return tuple(seen)


def coefficient_of_variation(values: Sequence[float]) -> float:
    """Population std / mean, 0 when the mean is 0 (SCORING.md §2.2 consistency).

    Equal values have a CV of exactly 0 (their mean, a rounded sum over n, need not be
    exactly the value): the bootstrap's groups say the same, so a resample of the same
    values is the assessment bit for bit (SCORING.md §2.5).
    """
    n = len(values)
    if min(values) == max(values):
        return 0.0
    mean = math.fsum(values) / n
    if mean == 0.0:
        return 0.0
    variance = math.fsum((x - mean) ** 2 for x in values) / n
    return math.sqrt(variance) / mean


# --------------------------------------------------------------------------- performance


class ConsistencyGroup(NamedTuple):
    """A (domain, complexity level) group of completed tasks and its two CVs (SCORING.md §2.2)."""

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
        """Each Performance dimension's score over this task set, by name (its registered
        subset score: :data:`aaaf.scoring.dimensions.SUBSET_SCORES`)."""
        return {name: score(self) for name, score in SUBSET_SCORES.complete().items()}


_GROUP_OF = attrgetter("group")
TOOL_OF = attrgetter("tool")
PERF_IDS_OF = attrgetter("perf_event_ids")
COMPLETED_OF = attrgetter("completed")
COMPLETED_AT = attrgetter("task.completed_at")
STATUS_OF = attrgetter("task.completion_status")
CREDIT_OF = attrgetter("credit")
WEIGHT_OF = attrgetter("weight")
WEIGHTED_ERRORS_OF = attrgetter("weighted_errors")
ERROR_COUNT_OF = attrgetter("task.error_count")
TASK_ID_OF = attrgetter("task.task_id")


def completed_tasks(scored: Sequence[ScoredTask]) -> list[ScoredTask]:
    """The completed tasks of ``scored``, in its order (selected in C)."""
    return list(compress(scored, map(COMPLETED_OF, scored)))


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
    # tuple.__new__ in field order, one per perf(S) subset: see score_task (+5.0 % with keywords)
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
