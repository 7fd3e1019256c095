"""Is anybody working?  The job queue's state and what it means for ``/health``, ``aaaf
status`` and ``aaaf serve`` (docs/jobs.md "Is anybody working?").

On PostgreSQL, assessments are scored by ``aaaf worker`` processes; with none running they
would wait for ever while the server answers.  So: jobs waiting and no worker heartbeat within
``AAAF_JOBS_STALLED_AFTER_SECONDS`` is ``degraded``, with the reason in words.  The embedded
SQLite runner is the server itself, so it is never missing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from aaaf.services.context import ServiceContext
from aaaf.store.queue_state import QueueState, read_queue_state

WAITING_FOR_A_WORKER = "waiting for a worker"


@dataclass(frozen=True)
class QueueHealth:
    """The queue's state and the verdict on it."""

    state: QueueState
    degraded: bool
    reason: str | None

    def to_dict(self) -> dict[str, object]:
        state = self.state
        return {
            "runner": state.runner,
            "waiting_jobs": state.waiting,
            "oldest_waiting_seconds": state.oldest_waiting_seconds,
            "last_worker_heartbeat": None
            if state.last_worker_heartbeat is None
            else state.last_worker_heartbeat.isoformat().replace("+00:00", "Z"),
            "status": "degraded" if self.degraded else "ok",
            "reason": self.reason,
        }


def queue_health(engine: Engine, context: ServiceContext) -> QueueHealth:
    """Read the queue (read-only) and judge it."""
    state = read_queue_state(engine, context.now())
    within = context.settings.jobs_stalled_after_seconds
    if state.waiting and not state.worker_seen(within):
        oldest = state.oldest_waiting_seconds
        since = "" if oldest is None else f", the oldest for {oldest:.0f} s"
        seen = (
            "no worker has ever beaten"
            if state.last_worker_heartbeat is None
            else f"no worker has beaten in the last {within:g} s"
        )
        reason = f"{state.waiting} job(s) waiting{since} and {seen}: start one with `aaaf worker`"
        return QueueHealth(state, True, reason)
    return QueueHealth(state, False, None)
