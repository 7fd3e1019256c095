"""The plain record the pure core reads evidence from.

The shell (evidence validation, the store, importers) turns events into ``EventRecord``s;
every scheme takes a sequence of them.  Records are already validated (SCORING.md §1):
the core does not re-validate, it only applies the scoring rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

EVENT_TYPES: tuple[str, ...] = (
    "task_assigned",
    "task_completed",
    "task_revised",
    "tool_invoked",
    "delegation_decision",
    "delegation_outcome",
    "orchestration_plan",
    "orchestration_result",
    "eval_result",
    "workflow_run",
    "memory_operation",
)


@dataclass(frozen=True)
class EventRecord:
    """One validated evidence event.

    ``id`` is the store's id for the event (used for traceability); ``key`` is the
    client's idempotency key if it gave one.  ``timestamp`` is timezone-aware.
    ``task_id`` repeats ``data['task_id']`` when the type has one.
    """

    id: str
    agent: str
    type: str
    timestamp: datetime
    data: Mapping[str, Any] = field(default_factory=dict)
    task_id: str | None = None
    key: str | None = None
