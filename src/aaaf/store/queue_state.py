"""What the job queue looks like right now, read without touching it (``/health``, ``aaaf
status``, the warning of ``aaaf serve``; docs/jobs.md "Is anybody working?").

* PostgreSQL: procrastinate's own tables — jobs waiting (``procrastinate_jobs`` in ``todo``
  whose time has come), when the oldest was deferred (``procrastinate_events``), and the newest
  worker heartbeat (``procrastinate_workers``).  Before ``aaaf db upgrade`` created them there is
  no queue: nothing waits.
* SQLite: the in-process runner of ``aaaf serve`` has no table of its own; what waits for it is
  the assessments recorded ``pending``, and the worker is the server process itself.

Only reads, one short transaction, no lock: the queue's own code (aaaf.jobs) is not involved.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, func, select, text

from aaaf.store import tables as t


@dataclass(frozen=True)
class QueueState:
    """The queue at ``at``: who runs jobs, how many wait, since when, the newest heartbeat."""

    runner: str  # "procrastinate" (PostgreSQL, `aaaf worker`) or "in-process" (SQLite, `aaaf serve`)
    waiting: int
    oldest_waiting_since: datetime | None
    last_worker_heartbeat: datetime | None
    at: datetime

    @property
    def oldest_waiting_seconds(self) -> float | None:
        if self.oldest_waiting_since is None:
            return None
        return max(0.0, (self.at - self.oldest_waiting_since).total_seconds())

    def worker_seen(self, within_seconds: float) -> bool:
        """Whether a worker beat in the last ``within_seconds`` (the in-process runner always has)."""
        if self.runner == "in-process":
            return True
        if self.last_worker_heartbeat is None:
            return False
        return (self.at - self.last_worker_heartbeat).total_seconds() <= within_seconds


_PROCRASTINATE = text(
    """
    SELECT count(*) AS waiting,
           min(deferred.at) AS oldest,
           (SELECT max(last_heartbeat) FROM procrastinate_workers) AS heartbeat
    FROM procrastinate_jobs AS job
    LEFT JOIN procrastinate_events AS deferred ON deferred.job_id = job.id AND deferred.type = 'deferred'
    WHERE job.status = 'todo' AND (job.scheduled_at IS NULL OR job.scheduled_at <= now())
    """
)


def read_queue_state(engine: Engine, at: datetime) -> QueueState:
    """The queue of the database behind ``engine`` at ``at`` (module docstring)."""
    if engine.dialect.name != "postgresql":
        with engine.connect() as connection:
            row = connection.execute(
                select(func.count(), func.min(t.assessments.c.created_at)).where(
                    t.assessments.c.status == "pending"
                )
            ).one()
        oldest = row[1]
        if oldest is not None and oldest.tzinfo is None:
            oldest = oldest.replace(tzinfo=at.tzinfo)
        return QueueState("in-process", int(row[0]), oldest, None, at)
    with engine.connect() as connection:
        present = connection.execute(text("SELECT to_regclass('procrastinate_jobs') IS NOT NULL")).scalar()
        if not present:
            return QueueState("procrastinate", 0, None, None, at)
        row = connection.execute(_PROCRASTINATE).one()
    return QueueState("procrastinate", int(row.waiting), row.oldest, row.heartbeat, at)
