"""The AAAF assessment window: its bounds, recency weights and evidence (SCORING.md §2.1).

Part of the AAAF scheme (:mod:`aaaf.scoring.aaaf`): :func:`window_evidence` places the
folded tasks in ``[window_end − window_days, window_end]``, weights them by age and
scores each once (:func:`aaaf.scoring.aaaf_tasks.score_task`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from aaaf.scoring.aaaf_tasks import COMPLETED_OF, ScoredTask, score_task
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import (
    DelegationDecision,
    DelegationOutcome,
    FoldedEvidence,
    OrchestrationResult,
    ToolUsage,
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
        return sum(map(COMPLETED_OF, self.scored))  # True counts 1, summed in C


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
