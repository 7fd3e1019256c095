"""The PostgreSQL job queue: procrastinate (issue 14 §1).

Why procrastinate: it defers a job on a connection we hand it (``configure(connection=…)``),
so the ``pending`` assessment and its job commit in one transaction — no outbox table; its
workers beat (``procrastinate_workers``), so the jobs of a worker killed mid-job are found
(``get_stalled_jobs``) and run again by the periodic sweep; periodic tasks are deferred once
per tick however many workers run (``procrastinate_periodic_defers``).  Its schema is applied
by our migration 0010 (``aaaf db upgrade``), not by ``procrastinate schema --apply``.

The tasks and the periodic schedule are declared once, in :mod:`aaaf.jobs.blueprint`;
:func:`build_app` binds them to an app over ``AAAF_DATABASE_URL``.  A worker of ``aaaf worker``
serves the main queue, the stress queue (one run at a time) and the sweep's own queue, so that
the sweep never waits behind a backlog of assessments (:func:`aaaf.jobs.runner.run_worker`).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import procrastinate
import psycopg_pool
from procrastinate.exceptions import AlreadyEnqueued, ConnectorException, UniqueViolation
from procrastinate.jobs import JobDeferrer
from procrastinate.manager import JobManager
from sqlalchemy import Connection
from sqlalchemy.engine import make_url

from aaaf.jobs.assessment_batch import TakenJobs
from aaaf.jobs.blueprint import (
    ASSESS_TASK,
    BADGE_PRIORITY,
    BADGE_TASK,
    COMPARE_TASK,
    QUEUE,
    STRESS_QUEUE,
    STRESS_TASK,
    JobResources,
    bind,
)
from aaaf.settings import get_settings
from aaaf.store.engine import quiet

log = logging.getLogger(__name__)


def conninfo(database_url: str) -> str:
    """The libpq URI of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://`` → ``postgresql://``),
    keeping its query (``options=-csearch_path=…``)."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def _now() -> datetime:
    return datetime.now(UTC)


class ProcrastinateQueue:
    """The services' :class:`~aaaf.services.job_port.JobQueue` over a procrastinate app.

    A job deferred in one of our transactions is inserted on that transaction's (synchronous)
    psycopg connection by a synchronous connector of its own, never the app's: inside
    ``aaaf worker`` the app is open asynchronously, and its connector only takes asynchronous
    connections (the sweep's requeue, a badge in the write transaction)."""

    def __init__(self, app: procrastinate.App) -> None:
        self.app = app
        self._on_connection = JobManager(procrastinate.SyncPsycopgConnector())
        """Defers on a connection we hand it; never opened (it has no pool of its own)."""

    def _defer_on(self, connection: Connection, task: str, options: dict[str, Any], **arguments: str) -> None:
        job = self.app.configure_task(task, **options).job
        JobDeferrer(self._on_connection, job, connection.connection.driver_connection).defer(**arguments)

    def defer_assessments(
        self, connection: Connection, organization_id: uuid.UUID, assessment_ids: Sequence[uuid.UUID]
    ) -> None:
        """One job per assessment, each with its lock and queueing lock, in ``connection``'s
        transaction (:meth:`_defer_jobs`)."""
        self._defer_jobs(
            connection,
            [
                self.app.configure_task(
                    ASSESS_TASK,
                    queue=QUEUE,
                    lock=f"assessment:{assessment_id}",
                    queueing_lock=f"assessment:{assessment_id}",
                ).make_new_job(organization_id=str(organization_id), assessment_id=str(assessment_id))
                for assessment_id in assessment_ids
            ],
        )

    def defer_badge(self, organization_id: uuid.UUID, assessment_id: uuid.UUID) -> None:
        try:
            self.app.configure_task(
                BADGE_TASK, queue=QUEUE, queueing_lock=f"badge:{assessment_id}", priority=BADGE_PRIORITY
            ).defer(organization_id=str(organization_id), assessment_id=str(assessment_id))
        except AlreadyEnqueued:
            log.debug("the badge of assessment %s already has a waiting job", assessment_id)

    def defer_badges(self, connection: Connection, badges: list[tuple[uuid.UUID, uuid.UUID]]) -> None:
        """Queue the badges of ``badges`` (organization id, assessment id) in ``connection``'s
        transaction — the one that stores their assessments (:meth:`_defer_jobs`)."""
        self._defer_jobs(
            connection,
            [
                self.app.configure_task(
                    BADGE_TASK, queue=QUEUE, queueing_lock=f"badge:{assessment_id}", priority=BADGE_PRIORITY
                ).make_new_job(organization_id=str(organization_id), assessment_id=str(assessment_id))
                for organization_id, assessment_id in badges
            ],
        )

    def _defer_jobs(self, connection: Connection, jobs: list[Any]) -> None:
        """Insert ``jobs`` in ``connection``'s transaction in one statement; a job whose
        queueing lock is held by one already waiting keeps that one (each then in a savepoint
        of its own)."""
        if not jobs:
            return
        raw = connection.connection.driver_connection
        try:
            with connection.begin_nested():
                self._on_connection.batch_defer_jobs(jobs, connection=raw)
            return
        except AlreadyEnqueued:
            pass
        for job in jobs:
            try:
                with connection.begin_nested():
                    self._on_connection.defer_job(job, connection=raw)
            except AlreadyEnqueued:
                log.debug("%s already has a waiting job", job.queueing_lock)

    def defer_stress_run(
        self, connection: Connection | None, organization_id: uuid.UUID, run_id: uuid.UUID
    ) -> None:
        lock = f"stress-run:{run_id}"
        options: dict[str, Any] = {"queue": STRESS_QUEUE, "lock": lock, "queueing_lock": lock}
        arguments = {"organization_id": str(organization_id), "run_id": str(run_id)}
        try:
            if connection is not None:  # the transaction that records the run: both or neither
                self._defer_on(connection, STRESS_TASK, options, **arguments)
            else:
                self.app.configure_task(STRESS_TASK, **options).defer(**arguments)
        except AlreadyEnqueued:
            log.debug("stress run %s already has a waiting job", run_id)

    def defer_compare_report(
        self, connection: Connection, organization_id: uuid.UUID, report_id: uuid.UUID
    ) -> None:
        lock = f"compare:{report_id}"
        try:
            self._defer_on(
                connection,
                COMPARE_TASK,
                {"queue": QUEUE, "queueing_lock": lock},
                organization_id=str(organization_id),
                report_id=str(report_id),
            )
        except AlreadyEnqueued:
            log.debug("compare report %s already has a waiting job", report_id)


def build_app(database_url: str, store: Callable[[], Any]) -> procrastinate.App:
    """The procrastinate app of ``database_url`` with AAAF's tasks (:mod:`aaaf.jobs.blueprint`);
    ``store()`` gives the open :class:`~aaaf.store.Store` its jobs use (the worker's)."""
    settings = get_settings()
    opened = store()
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(
            conninfo=conninfo(database_url),
            # a database gone for this long stops a worker's heartbeat, and the worker starts
            # its queue again (aaaf.jobs.runner)
            timeout=settings.jobs_pool_timeout_seconds,
            pool_factory=_autocommit_pool,
        )
    )
    resources = JobResources(
        store=opened,
        queue=ProcrastinateQueue(app),
        settings=settings,
        clock=_now,
        taken=lambda job_id, task_name: TakenJobs(opened.engine, _required(job_id), task_name),
        retry_stalled=lambda: retry_stalled_jobs(app, settings.jobs_stalled_after_seconds),
    )
    return bind(app, resources)


async def _check_when_in_doubt(connection: Any) -> None:
    """psycopg_pool's check of a connection it hands out (a ping, one round trip), only when in
    doubt: a connection outside a transaction whose socket has nothing to read is handed out as
    it is (:func:`aaaf.store.engine.quiet`).  A backend terminated, or a server stopped or
    crashed, has written its last message or closed the socket: such a connection is checked,
    and replaced when the check fails."""
    if not quiet(connection):
        await psycopg_pool.AsyncConnectionPool.check_connection(connection)


async def _autocommit(connection: Any) -> None:
    await connection.set_autocommit(True)


def _autocommit_pool(**arguments: Any) -> psycopg_pool.AsyncConnectionPool:
    """procrastinate's pool, its connections in autocommit — each of procrastinate's queries is
    one statement (a function call, atomic on its own): one round trip, not ``BEGIN``, the
    query and ``COMMIT`` (the bench fleet: 45 of procrastinate's 93) — and checked at checkout
    only when in doubt (:func:`_check_when_in_doubt`; procrastinate asks for a ping each time).
    Its listening connection is its own, in autocommit already."""
    arguments["check"] = _check_when_in_doubt
    arguments["configure"] = _autocommit
    return psycopg_pool.AsyncConnectionPool(**arguments)


def _required(job_id: int | None) -> int:
    assert job_id is not None, "a job a worker runs has its id"
    return job_id


async def retry_stalled_jobs(app: procrastinate.App, stalled_after_seconds: float) -> int:
    """Put the running jobs of workers without a heartbeat for ``stalled_after_seconds`` back
    in the queue (procrastinate's documented recipe); returns how many.  A job whose
    queueing lock a waiting duplicate holds ends ``failed`` (the duplicate runs instead); one
    whose retry failed otherwise — its connection lost, the job finished meanwhile by a worker
    that was only slow — is left as it is for the next sweep: failed, it would leave its
    assessment with no job, and the sweep would fail that assessment (it did under load, with
    connections terminated every 0.5 s)."""
    stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after_seconds)
    retried = 0
    for job in stalled:
        try:
            await app.job_manager.retry_job(job)
            retried += 1
        except UniqueViolation as duplicate:
            if duplicate.queueing_lock is None:
                raise
            log.warning(
                "stalled job %s (%s) not retried: a waiting duplicate runs instead", job.id, job.task_name
            )
            await app.job_manager.finish_job(job, status=procrastinate.jobs.Status.FAILED, delete_job=False)
        except ConnectorException as error:
            log.warning(
                "stalled job %s (%s) not retried now: %s; the next sweep tries again",
                job.id,
                job.task_name,
                str(error.__cause__ or error).strip()[:300],
            )
    if retried:
        log.warning("retried %d stalled job(s) of workers that stopped beating", retried)
    return retried
