"""Which tasks moved a score: each task's contribution to each dimension (SCORING.md §0
'Traceability', issue 10 §5).

Pure: an assessment's evidence, its config and its window end in; per dimension, per task,
the dimension recomputed *without* that task out.  A task's ``change`` is

    change_i = score − score_without_i

so a negative change is a task that lowered the dimension (without it the score would be
higher).  The recomputation is the engine's own (:func:`aaaf.scoring.aaaf.dimension_scores`,
leave-one-task-out: the task and every event naming it dropped, exactly as an appeal drops
a counter-evidenced task, SCORING.md §2.4), so it holds for every dimension, threshold
measures included.  The log is folded once; each task costs one window pass.

Where the formula is a weighted mean of per-task values x_i with recency weights w_i
(task_completion_rate over the window's tasks, speed over the timed tasks,
review_compliance over the tasks with a checklist, SCORING.md §2.2), the exact per-task
term is given as well:

    pull_i = w_i (x_i − M) / W,    W = Σ w_j,  M = Σ w_j x_j / W,

the task's share of the mean's distance from its own value (Σ pull_i = 0; a task below the
mean has a negative pull).  The two agree: ``change_i = pull_i · W / (W − w_i)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.scoring.aaaf import AXIS_OF, DIMENSIONS, ScoredTask, dimension_scores
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord

CHANGE_TOLERANCE = 1e-12
"""A change this small is the rounding of a sum taken over one task fewer, not an effect (the
engine sums terms in order, so removing a task whose value equals the mean can move the last
bits): such a task does not move the dimension."""

MEAN_DIMENSIONS: tuple[str, ...] = ("task_completion_rate", "speed", "review_compliance")
"""Dimensions that are a recency-weighted mean of a per-task value (SCORING.md §2.2)."""


@dataclass(frozen=True)
class TaskContribution:
    """One task's effect on one dimension; ``change`` None when the dimension has no score
    with or without the task (a task whose removal leaves it without evidence: ``without``
    None, ``change`` None)."""

    task_id: str
    without: float | None
    change: float | None
    value: float | None = None
    weight: float | None = None
    pull: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task_id": self.task_id, "without": self.without, "change": self.change}
        if self.pull is not None:
            out.update(value=self.value, weight=self.weight, pull=self.pull)
        return out


@dataclass(frozen=True)
class DimensionExplanation:
    """A dimension's score as recomputed from the evidence and every task's contribution,
    ordered by ``change`` (most lowering first; tasks that leave it without a score last)."""

    dimension: str
    axis: str
    score: float | None
    tasks_examined: int
    contributions: tuple[TaskContribution, ...] = field(default=())
    excluded_tasks: tuple[str, ...] = ()

    def lowered(self, top: int | None = None) -> list[TaskContribution]:
        """The tasks without which the dimension would be higher, most lowering first."""
        found = [c for c in self.contributions if c.change is not None and c.change < 0.0]
        return found if top is None else found[:top]

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        lowered = self.lowered(top)
        out: dict[str, Any] = {
            "axis": self.axis,
            "score": self.score,
            "tasks_examined": self.tasks_examined,
            "lowered_by": [c.to_dict() for c in lowered],
            "tasks_lowering": len(self.lowered()),
        }
        if self.excluded_tasks:
            out["excluded_tasks"] = list(self.excluded_tasks)
        return out


def _mean_terms(dimension: str, scored: Sequence[ScoredTask]) -> dict[str, tuple[float, float]]:
    """task_id → (x_i, w_i) of a mean dimension's per-task values (SCORING.md §2.2)."""
    out: dict[str, tuple[float, float]] = {}
    for item in scored:
        value: float | None
        if dimension == "task_completion_rate":
            value = item.credit
        elif dimension == "speed":
            value = item.speed
        else:
            value = item.review
        if value is not None:
            out[item.task.task_id] = (value, item.weight)
    return out


def _order(contribution: TaskContribution) -> tuple[int, float, str]:
    if contribution.change is None:
        return (1, 0.0, contribution.task_id)
    return (0, contribution.change, contribution.task_id)


def explain_dimensions(
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    dimensions: Sequence[str],
    excluded: Mapping[str, frozenset[str]] | None = None,
) -> dict[str, DimensionExplanation]:
    """Every task's contribution to each of ``dimensions`` (leave-one-task-out, see above).

    ``excluded``: per dimension, tasks already left out of it (an accepted appeal re-scored
    that dimension without them, SCORING.md §2.4); they are left out of its recomputation
    and are not candidates.
    """
    unknown = [name for name in dimensions if name not in DIMENSIONS]
    if unknown:
        raise ValueError(f"unknown dimension(s): {', '.join(unknown)}")
    folded = fold_evidence(events)
    groups: dict[frozenset[str], list[str]] = {}
    for name in dimensions:
        groups.setdefault((excluded or {}).get(name, frozenset()), []).append(name)
    out: dict[str, DimensionExplanation] = {}
    for left_out, names in groups.items():
        window, base = dimension_scores(folded, config, window_end, names, left_out)
        task_ids = [item.task.task_id for item in window.scored]
        changes: dict[str, list[TaskContribution]] = {name: [] for name in names}
        means = {
            name: _mean_terms(name, window.scored)
            for name in names
            if name in MEAN_DIMENSIONS and base[name].score is not None
        }
        totals = {name: math.fsum(w for _, w in terms.values()) for name, terms in means.items()}
        for task_id in task_ids:
            _, without = dimension_scores(folded, config, window_end, names, left_out | {task_id})
            for name in names:
                score, after = base[name].score, without[name].score
                if score is None and after is None:
                    continue  # no score with or without the task
                change = None if score is None or after is None else score - after
                if change is not None and abs(change) <= CHANGE_TOLERANCE:
                    continue  # the task does not move this dimension
                pull = value = weight = None
                terms = means.get(name)
                if terms is not None and task_id in terms and score is not None:
                    value, weight = terms[task_id]
                    pull = weight * (value - score) / totals[name]
                changes[name].append(TaskContribution(task_id, after, change, value, weight, pull))
        for name in names:
            out[name] = DimensionExplanation(
                dimension=name,
                axis=AXIS_OF[name],
                score=base[name].score,
                tasks_examined=len(task_ids),
                contributions=tuple(sorted(changes[name], key=_order)),
                excluded_tasks=tuple(sorted(left_out)),
            )
    return {name: out[name] for name in dimensions}
