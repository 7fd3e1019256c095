"""The job queue as the services see it (issue 14): something that takes jobs.

The services record what is to be done (a ``pending`` assessment, a ``queued`` stress run) and
hand the job to a :class:`JobQueue` *on the transaction that records it*; the queue itself lives in
:mod:`aaaf.jobs` (procrastinate on PostgreSQL, a runner inside the server process on SQLite),
above the services, so that the services stay the only door and know no queue library.
The command that starts a process (``aaaf serve``, ``aaaf worker``) picks the queue.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import Connection


class JobQueue(Protocol):
    """Where the services put their jobs."""

    def defer_assessments(
        self, connection: Connection, organization_id: uuid.UUID, assessment_ids: Sequence[uuid.UUID]
    ) -> None:
        """Queue the scoring of ``pending`` assessments, one job each, on ``connection`` — the
        write transaction that records them — so all are committed or none is; an assessment
        whose job already waits keeps that job."""
        ...

    def defer_badge(self, organization_id: uuid.UUID, assessment_id: uuid.UUID) -> None:
        """Queue the issuing (signing and rendering) of a completed assessment's badge."""
        ...

    def defer_stress_run(
        self, connection: Connection | None, organization_id: uuid.UUID, run_id: uuid.UUID
    ) -> None:
        """Queue the job of a stress run requested over HTTP (:mod:`aaaf.services.stress_jobs`),
        on ``connection`` — the transaction that records the run ``queued`` — when given; a
        duplicate of a job already waiting is ignored."""
        ...

    def defer_compare_report(
        self, connection: Connection, organization_id: uuid.UUID, report_id: uuid.UUID
    ) -> None:
        """Queue the job of a dashboard compare report (:mod:`aaaf.services.compare_reports`),
        on ``connection`` — the transaction that records it ``queued`` — so both are committed
        or neither is."""
        ...


class RunningQueue(Protocol):
    """A process's queue as its command started it: the queue, and how to stop it."""

    @property
    def queue(self) -> JobQueue: ...

    def close(self) -> None: ...
