"""The records the fold produces: tasks and their evidence (SCORING.md §1, §2.1).

Part of the fold (:mod:`aaaf.scoring.fold`).  The per-task records are ``NamedTuple``s:
immutable and typed like a frozen dataclass, but built several times faster (a 33-field
frozen dataclass costs ~8 µs to construct against ~1.4 µs for a named tuple, measured),
and the fold builds one per task of every agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from aaaf.scoring.audit import TaskAudit

COMPLETED_STATUSES: frozenset[str] = frozenset({"accepted", "partial"})
"""SCORING.md §2.2: a task is *completed* when accepted or partial."""

MEMORY_OPERATION_ITEMS: Mapping[str, str] = {
    "search": "memory_search_performed",
    "write": "memory_written",
}
"""Which checklist item a ``memory_operation`` marks passed, by its ``operation``."""

DEFAULT_ERROR_SEVERITY = "major"
"""SCORING.md §2.2: an error given without severity counts as major."""


class ToolUsage(NamedTuple):
    """One tool's use within one task (or by one unattached ``tool_invoked`` event).

    ``failures`` = invocations − successes; ``recovered`` counts only recoveries from a
    failed invocation (SCORING.md §1), so it never exceeds ``failures``.
    """

    tool: str
    invocations: int
    successes: int
    failures: int
    recovered: int
    unnecessary: int
    event_ids: tuple[str, ...]


class DelegationDecision(NamedTuple):
    """A ``delegation_decision`` event or an embedded ``delegation_decisions`` entry."""

    decision: str | None
    delegate_to: str | None
    ground_truth: str | None
    optimal_delegate: str | None
    event_id: str


class DelegationOutcome(NamedTuple):
    """A ``delegation_outcome`` event: how delegated work ended."""

    outcome: str | None
    revision_needed: bool
    event_id: str


class OrchestrationResult(NamedTuple):
    """An ``orchestration_result`` event with its graded scores (SCORING.md §2.3)."""

    failures_injected: float
    failures_recovered: float
    workflow_design_score: float | None
    communication_clarity_score: float | None
    synthesis_quality_score: float | None
    event_id: str


class Task(NamedTuple):
    """Everything the AAAF formulas read about one task, after the §1 rules.

    ``placed_at`` is the timestamp that places the task in a window (its counting
    completion, else its assignment; SCORING.md §2.1); ``None`` when the task is known
    only from evidence that cannot place it (e.g. a lone ``tool_invoked``).
    """

    task_id: str
    domain: str | None
    complexity_level: int | None
    autonomy_level: int | None
    assigned_at: datetime | None
    completed_at: datetime | None
    completion_status: str | None
    credit: float
    milestone_fraction: float | None
    milestones_passed: int
    milestones_total: int
    time_to_complete_seconds: float | None
    revision_count: int
    revision_events: int
    revised: bool
    error_count: int
    weighted_errors: float
    checklist: Mapping[str, bool] | None
    tools: tuple[ToolUsage, ...]
    tools_from_events: bool
    delegation_decisions: tuple[DelegationDecision, ...]
    decisions_from_events: bool
    delegation_outcomes: tuple[DelegationOutcome, ...]
    orchestration_results: tuple[OrchestrationResult, ...]
    assigned_event_id: str | None
    completion_event_id: str | None
    attribute_event_id: str | None
    revision_event_ids: tuple[str, ...]
    memory_event_ids: tuple[str, ...]
    plan_event_ids: tuple[str, ...]
    superseded_completion_ids: tuple[str, ...]
    audit: TaskAudit | None  # the counting task_audited finding's facts (SCORING.md §2.6)

    @property
    def placed_at(self) -> datetime | None:
        return self.completed_at if self.completed_at is not None else self.assigned_at

    @property
    def completed(self) -> bool:
        """Accepted or partial (SCORING.md §2.2)."""
        return self.completion_status in COMPLETED_STATUSES

    @property
    def tool_event_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(i for usage in self.tools for i in usage.event_ids))

    @property
    def decision_event_ids(self) -> tuple[str, ...]:
        ids = {d.event_id for d in self.delegation_decisions}
        return tuple(sorted(ids))

    def event_ids(self) -> tuple[str, ...]:
        """Every event id that this task's record uses (superseded completions excluded)."""
        ids: set[str] = set()
        for single in (self.assigned_event_id, self.completion_event_id):
            if single is not None:
                ids.add(single)
        ids.update(self.revision_event_ids)
        ids.update(self.memory_event_ids)
        ids.update(self.plan_event_ids)
        ids.update(self.tool_event_ids)
        ids.update(self.decision_event_ids)
        ids.update(o.event_id for o in self.delegation_outcomes)
        ids.update(o.event_id for o in self.orchestration_results)
        if self.audit is not None:
            ids.add(self.audit.event_id)
        return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class UnattachedEvidence:
    """Evidence without a ``task_id``, as (own timestamp, item) pairs sorted by time and id;
    it counts in a window by its own timestamp (SCORING.md §2.1)."""

    tools: tuple[tuple[datetime, ToolUsage], ...] = ()
    delegation_decisions: tuple[tuple[datetime, DelegationDecision], ...] = ()
    delegation_outcomes: tuple[tuple[datetime, DelegationOutcome], ...] = ()
    orchestration_results: tuple[tuple[datetime, OrchestrationResult], ...] = ()


@dataclass(frozen=True, slots=True)
class FoldedEvidence:
    """The result of folding: tasks by id, unattached evidence, and each event's type."""

    tasks: Mapping[str, Task]
    unattached: UnattachedEvidence
    event_types: Mapping[str, str] = field(default_factory=dict)
