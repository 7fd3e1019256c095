"""Concise builders of ``EventRecord``s for scoring tests (reusable by other schemes' tests).

Times are given as ``days_ago`` relative to :data:`WINDOW_END` (fractions allowed), so a
test reads like the rule it checks: ``ev.completed("t1", days_ago=8)`` is a task of age 8.

    ev = Events()
    events = [*ev.task("t1", domain="code", complexity=2), ev.revised("t1", "minor")]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from aaaf.scoring.records import EventRecord

WINDOW_END = datetime(2026, 4, 16, 12, 0, tzinfo=UTC)


def at(days_ago: float = 0.0, *, end: datetime = WINDOW_END) -> datetime:
    """The moment ``days_ago`` days before ``end``."""
    return end - timedelta(days=days_ago)


class Events:
    """An event factory for one agent; ids are ``e1``, ``e2``, … in creation order."""

    def __init__(self, agent: str = "agent-1", *, end: datetime = WINDOW_END) -> None:
        self.agent = agent
        self.end = end
        self._counter = 0

    def _next_id(self) -> str:
        self._counter += 1
        return f"e{self._counter:05d}"

    def event(
        self,
        type_: str,
        data: Mapping[str, Any],
        *,
        days_ago: float = 0.0,
        timestamp: datetime | None = None,
        event_id: str | None = None,
        key: str | None = None,
    ) -> EventRecord:
        task_id = data.get("task_id")
        return EventRecord(
            id=event_id or self._next_id(),
            agent=self.agent,
            type=type_,
            timestamp=timestamp or at(days_ago, end=self.end),
            data=dict(data),
            task_id=task_id if isinstance(task_id, str) else None,
            key=key,
        )

    def assigned(
        self,
        task_id: str,
        *,
        domain: str | None = "code",
        complexity: int | None = 2,
        autonomy: int | None = None,
        days_ago: float = 0.0,
        assigned_days_ago: float | None = None,
        **extra: Any,
    ) -> EventRecord:
        """A ``task_assigned``; ``assigned_at`` defaults to the event's own time."""
        when = at(days_ago if assigned_days_ago is None else assigned_days_ago, end=self.end)
        data: dict[str, Any] = {"task_id": task_id, "assigned_at": when.isoformat().replace("+00:00", "Z")}
        if domain is not None:
            data["domain"] = domain
        if complexity is not None:
            data["complexity_level"] = complexity
        if autonomy is not None:
            data["autonomy_level"] = autonomy
        data.update(extra)
        return self.event("task_assigned", data, days_ago=days_ago)

    def completed(
        self,
        task_id: str,
        status: str = "accepted",
        *,
        days_ago: float = 0.0,
        seconds: float = 600.0,
        revision_count: int = 0,
        errors: Iterable[Any] = (),
        timestamp: datetime | None = None,
        **extra: Any,
    ) -> EventRecord:
        """A ``task_completed``; ``extra`` adds rich fields (domain, tools_used, review_checklist…)."""
        data: dict[str, Any] = {
            "task_id": task_id,
            "completion_status": status,
            "time_to_complete_seconds": seconds,
            "revision_count": revision_count,
            "errors": list(errors),
        }
        data.update(extra)
        return self.event("task_completed", data, days_ago=days_ago, timestamp=timestamp)

    def task(
        self,
        task_id: str,
        status: str = "accepted",
        *,
        domain: str | None = "code",
        complexity: int | None = 2,
        autonomy: int | None = None,
        days_ago: float = 0.0,
        seconds: float = 600.0,
        **completion: Any,
    ) -> list[EventRecord]:
        """A granular task: ``task_assigned`` (at the same moment) then ``task_completed``."""
        return [
            self.assigned(
                task_id, domain=domain, complexity=complexity, autonomy=autonomy, days_ago=days_ago
            ),
            self.completed(task_id, status, days_ago=days_ago, seconds=seconds, **completion),
        ]

    def revised(
        self, task_id: str, reason_code: str | None = "major", *, days_ago: float = 0.0
    ) -> EventRecord:
        data: dict[str, Any] = {"task_id": task_id, "revision_number": 1, "changes": "rework"}
        if reason_code is not None:
            data["reason_code"] = reason_code
        return self.event("task_revised", data, days_ago=days_ago)

    def tool(
        self,
        task_id: str | None,
        tool: str,
        *,
        success: bool = True,
        unnecessary: bool = False,
        recovered: bool = False,
        days_ago: float = 0.0,
    ) -> EventRecord:
        data: dict[str, Any] = {
            "tool": tool,
            "success": success,
            "unnecessary": unnecessary,
            "error_recovered": recovered,
        }
        if task_id is not None:
            data["task_id"] = task_id
        return self.event("tool_invoked", data, days_ago=days_ago)

    def decision(
        self,
        task_id: str | None,
        decision: str,
        ground_truth: str,
        *,
        delegate_to: str | None = None,
        optimal_delegate: str | None = None,
        days_ago: float = 0.0,
    ) -> EventRecord:
        data: dict[str, Any] = {
            "task_fragment": "fragment",
            "decision": decision,
            "delegate_to": delegate_to,
            "ground_truth": ground_truth,
        }
        if optimal_delegate is not None:
            data["optimal_delegate"] = optimal_delegate
        if task_id is not None:
            data["task_id"] = task_id
        return self.event("delegation_decision", data, days_ago=days_ago)

    def outcome(
        self, task_id: str | None, outcome: str, *, revision_needed: bool = False, days_ago: float = 0.0
    ) -> EventRecord:
        data: dict[str, Any] = {
            "delegate_agent_id": "helper",
            "outcome": outcome,
            "revision_needed": revision_needed,
        }
        if task_id is not None:
            data["task_id"] = task_id
        return self.event("delegation_outcome", data, days_ago=days_ago)

    def orchestration(
        self,
        task_id: str | None,
        *,
        failures_injected: int = 0,
        failures_recovered: int = 0,
        synthesis: float | None = None,
        workflow: float | None = None,
        communication: float | None = None,
        days_ago: float = 0.0,
    ) -> EventRecord:
        data: dict[str, Any] = {
            "outcome": "success",
            "failures_injected": failures_injected,
            "failures_recovered": failures_recovered,
        }
        if synthesis is not None:
            data["synthesis_quality_score"] = synthesis
        if workflow is not None:
            data["workflow_design_score"] = workflow
        if communication is not None:
            data["communication_clarity_score"] = communication
        if task_id is not None:
            data["task_id"] = task_id
        return self.event("orchestration_result", data, days_ago=days_ago)

    def plan(self, task_id: str, *, days_ago: float = 0.0) -> EventRecord:
        data = {
            "task_id": task_id,
            "agents_involved": ["a", "b", "c"],
            "dependency_graph": {},
            "parallel_groups": [],
        }
        return self.event("orchestration_plan", data, days_ago=days_ago)

    def memory(self, task_id: str, operation: str, *, days_ago: float = 0.0) -> EventRecord:
        return self.event("memory_operation", {"task_id": task_id, "operation": operation}, days_ago=days_ago)


def checklist(*passed: str, failed: Iterable[str] = ()) -> dict[str, bool]:
    """A ``review_checklist`` with the named items passed (and ``failed`` ones explicitly False)."""
    out = dict.fromkeys(passed, True)
    out.update(dict.fromkeys(failed, False))
    return out
