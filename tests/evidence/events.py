"""Minimal valid events of every type, and helpers to vary them, for the evidence tests."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

NOW = datetime(2026, 4, 16, 15, 0, 0, tzinfo=UTC)
AGENT = "security-auditor"
TIMESTAMP = "2026-04-16T14:30:00Z"

MINIMAL_DATA: dict[str, dict[str, Any]] = {
    "task_assigned": {
        "task_id": "t-1",
        "complexity_level": 3,
        "domain": "security",
        "assigned_at": "2026-04-16T14:00:00Z",
    },
    "task_completed": {
        "task_id": "t-1",
        "completion_status": "accepted",
        "time_to_complete_seconds": 1847,
        "revision_count": 0,
        "errors": [],
    },
    "task_revised": {"task_id": "t-1", "revision_number": 1, "reason_code": "minor", "changes": "typo fixed"},
    "tool_invoked": {
        "task_id": "t-1",
        "tool": "grep",
        "success": True,
        "unnecessary": False,
        "error_recovered": False,
    },
    "delegation_decision": {
        "task_id": "t-1",
        "task_fragment": "Generate architecture diagram",
        "decision": "delegate",
        "delegate_to": "doc-synthesizer",
        "ground_truth": "delegate",
    },
    "delegation_outcome": {
        "task_id": "t-1",
        "delegate_agent_id": "doc-synthesizer",
        "outcome": "success",
        "revision_needed": False,
    },
    "orchestration_plan": {
        "task_id": "t-1",
        "agents_involved": ["a", "b"],
        "dependency_graph": {"b": ["a"]},
        "parallel_groups": [["a"], ["b"]],
    },
    "orchestration_result": {
        "task_id": "t-1",
        "outcome": "success",
        "failures_injected": 2,
        "failures_recovered": 1,
        "synthesis_quality_score": 0.8,
    },
    "eval_result": {"dimension": "safety", "score": 87.5},
    "workflow_run": {
        "task_id": "t-1",
        "dag_steps": 4,
        "steps_completed": 4,
        "output_quality": 0.9,
        "actual_cost": 0.5,
        "max_budget": 1.0,
        "actual_seconds": 30,
        "max_latency_seconds": 60,
        "declared_retry_budget": 2,
        "actual_retries": 1,
        "timeouts": 0,
        "hard_failures": 0,
    },
    "memory_operation": {"task_id": "t-1", "operation": "search"},
    "task_audited": {"task_id": "t-1", "auditor": "auditor-1"},
}

# Document 004 §6.2's single-event example, verbatim but for the agent.
RICH_TASK_COMPLETED: dict[str, Any] = {
    "agent_id": AGENT,
    "type": "task_completed",
    "timestamp": "2026-04-16T14:30:00Z",
    "data": {
        "task_id": "task_uuid",
        "complexity_level": 3,
        "domain": "security",
        "completion_status": "accepted",
        "time_to_complete_seconds": 1847,
        "revision_count": 0,
        "errors": [],
        "tools_used": [
            {"tool": "grep", "invocations": 12, "successes": 12, "unnecessary": 1},
            {"tool": "web_search", "invocations": 3, "successes": 3, "unnecessary": 0},
        ],
        "delegation_decisions": [
            {
                "task_fragment": "Review API endpoints for OWASP top 10",
                "decision": "self",
                "ground_truth": "self",
                "correct": True,
            },
            {
                "task_fragment": "Generate architecture diagram",
                "decision": "delegate",
                "delegate_to": "doc-synthesizer",
                "ground_truth": "delegate",
                "correct": True,
            },
        ],
        "autonomy_level": 2,
        "review_checklist": {
            "memory_search_performed": True,
            "output_format_correct": True,
            "verification_evidence_provided": True,
            "memory_written": True,
        },
    },
}


class Remove:
    """Marks a key to delete in ``with_data``."""


REMOVE = Remove()


def event(event_type: str, payload: dict[str, Any] | None = None, **envelope: Any) -> dict[str, Any]:
    """A valid raw event of ``event_type`` (its minimal data unless ``payload`` is given);
    ``envelope`` replaces top-level members (``REMOVE`` deletes one)."""
    raw: dict[str, Any] = {
        "agent_id": AGENT,
        "type": event_type,
        "timestamp": TIMESTAMP,
        "data": copy.deepcopy(MINIMAL_DATA[event_type] if payload is None else payload),
    }
    for key, value in envelope.items():
        if isinstance(value, Remove):
            raw.pop(key, None)
        else:
            raw[key] = value
    return raw


def with_data(event_type: str, **changes: Any) -> dict[str, Any]:
    """The minimal event of ``event_type`` with data fields changed (``REMOVE`` deletes)."""
    data = copy.deepcopy(MINIMAL_DATA[event_type])
    for key, value in changes.items():
        if isinstance(value, Remove):
            data.pop(key, None)
        else:
            data[key] = value
    return event(event_type, data)
