"""The plain record the pure core reads evidence from.

The shell (evidence validation, the store, importers) turns events into ``EventRecord``s;
every scheme takes a sequence of them.  Records are already validated (SCORING.md §1):
the core does not re-validate, it only applies the scoring rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

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
    "task_audited",
)


class _NoData(dict[str, Any]):
    """The shared empty ``data`` of a record built without one: a real (empty) dict, so
    that it serialises and compares exactly as ``{}`` does, but one that refuses to be
    changed (a shared default must not be mutable)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("an EventRecord's default data is read-only")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse


_NO_DATA: Mapping[str, Any] = _NoData()


class EventRecord(NamedTuple):
    """One validated evidence event.

    ``id`` is the store's id for the event (used for traceability); ``key`` is the
    client's idempotency key if it gave one.  ``timestamp`` is timezone-aware.
    ``task_id`` repeats ``data['task_id']`` when the type has one.

    A ``NamedTuple`` rather than a frozen dataclass: equally immutable and typed, but an
    ``assess --all`` reads a million of them and a named tuple is built several times
    faster (the store builds them with ``tuple.__new__`` from C, no Python call per row).
    A changed copy is ``record._replace(field=value)``.  Without ``data`` a record gets a
    read-only empty mapping (a shared default must not be mutable).
    """

    id: str
    agent: str
    type: str
    timestamp: datetime
    data: Mapping[str, Any] = _NO_DATA
    task_id: str | None = None
    key: str | None = None
