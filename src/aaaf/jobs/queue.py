"""The PostgreSQL job queue: procrastinate (issue 14 §1).

Why procrastinate: it defers a job on a connection we hand it (``configure(connection=…)``),
so the ``pending`` assessment and its job commit in one transaction — no outbox table; its
workers beat (``procrastinate_workers``), so the jobs of a worker killed mid-job are found
(``get_stalled_jobs``) and run again by the periodic sweep; periodic tasks are deferred once
per tick however many workers run (``procrastinate_periodic_defers``).  Its schema is applied
by our migration 0010 (``aaaf db upgrade``), not by ``procrastinate schema --apply``.

Tasks (queue ``aaaf``):

* ``aaaf.assess`` — score a triggered assessment, with up to ``AAAF_JOBS_ASSESSMENTS_AT_ONCE - 1``
  further due ones whose jobs it takes (:mod:`aaaf.jobs.assessment_batch`); ``lock`` per
  assessment (never two at once), ``queueing_lock`` per assessment (never two waiting);
* ``aaaf.issue_badge`` — sign and render a completed assessment's badge, after the
  assessments waiting (``BADGE_PRIORITY``);
* ``aaaf.stress_run`` (queue ``aaaf-stress``, :mod:`aaaf.services.stress_jobs`) — a stress run
  requested over HTTP; ``lock`` and ``queueing_lock`` per run.  A queue of its own, so that a
  worker's stress runs (minutes to hours) never hold its assessments: ``aaaf worker`` runs it
  beside the main queue (:func:`aaaf.jobs.runner.run_worker`);
* ``aaaf.compare_report`` — a dashboard compare report (:mod:`aaaf.services.compare_reports`);
  ``queueing_lock`` per report;
* ``aaaf.sweep`` (queue ``aaaf-sweep``, served by a worker of its own in every ``aaaf worker``
  so that it never waits behind a backlog of assessments) — every ``AAAF_JOBS_SWEEP_SECONDS``: jobs of workers silent for
  ``AAAF_JOBS_STALLED_AFTER_SECONDS`` are retried; assessments whose job gave up after its
  retries end ``failed`` with that reason; pending assessments without a job are queued again, and so are stress runs waiting ``queued`` and those whose lease lapsed;
* ``aaaf.duties`` — every minute, :func:`aaaf.jobs.periodic.run_duties`;
* ``aaaf.retention`` — daily at 03:17 UTC, :func:`aaaf.jobs.periodic.run_retention`;
* ``aaaf.benchmarks`` — hourly at :23, :func:`aaaf.jobs.periodic.run_benchmarks` (issue 20 §2).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import procrastinate
from procrastinate.exceptions import AlreadyEnqueued
from procrastinate.jobs import JobDeferrer
from procrastinate.manager import JobManager
from procrastinate.utils import sync_to_async
from sqlalchemy import Connection
from sqlalchemy.engine import make_url

from aaaf.jobs import periodic, tasks
from aaaf.jobs.assessment_batch import TakenJobs
from aaaf.settings import get_settings

log = logging.getLogger(__name__)

QUEUE = "aaaf"
STRESS_QUEUE = "aaaf-stress"
SWEEP_QUEUE = "aaaf-sweep"
ASSESS_TASK = "aaaf.assess"
BADGE_TASK = "aaaf.issue_badge"
STRESS_TASK = "aaaf.stress_run"
COMPARE_TASK = "aaaf.compare_report"
BADGE_PRIORITY = -1
"""Below the assessments' (0): a worker scores the assessments waiting before it issues the
badges of those it scored (a badge costs about what scoring costs: signing, SVG and PNG)."""
POOL_TIMEOUT_SECONDS = 10.0
"""How long the queue's pool waits for a connection: a database gone for this long stops a
worker's heartbeat, and the worker starts its queue again (:mod:`aaaf.jobs.runner`)."""


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

    def defer_assessment(
        self, connection: Connection, organization_id: uuid.UUID, assessment_id: uuid.UUID
    ) -> None:
        lock = f"assessment:{assessment_id}"
        try:
            self._defer_on(
                connection,
                ASSESS_TASK,
                {"queue": QUEUE, "lock": lock, "queueing_lock": lock},
                organization_id=str(organization_id),
                assessment_id=str(assessment_id),
            )
        except AlreadyEnqueued:
            log.debug("assessment %s already has a waiting job", assessment_id)

    def defer_badge(self, organization_id: uuid.UUID, assessment_id: uuid.UUID) -> None:
        try:
            self.app.configure_task(
                BADGE_TASK, queue=QUEUE, queueing_lock=f"badge:{assessment_id}", priority=BADGE_PRIORITY
            ).defer(organization_id=str(organization_id), assessment_id=str(assessment_id))
        except AlreadyEnqueued:
            log.debug("the badge of assessment %s already has a waiting job", assessment_id)

    def defer_badges(self, connection: Connection, badges: list[tuple[uuid.UUID, uuid.UUID]]) -> None:
        """Queue the badges of ``badges`` (organization id, assessment id) in ``connection``'s
        transaction — the one that stores their assessments — in one statement; a badge whose
        job already waits keeps that job (each then in a savepoint of its own)."""
        raw = connection.connection.driver_connection
        jobs = [
            self.app.configure_task(
                BADGE_TASK, queue=QUEUE, queueing_lock=f"badge:{assessment_id}", priority=BADGE_PRIORITY
            ).make_new_job(organization_id=str(organization_id), assessment_id=str(assessment_id))
            for organization_id, assessment_id in badges
        ]
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
                log.debug("the badge of %s already has a waiting job", job.task_kwargs["assessment_id"])

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
    """The procrastinate app of ``database_url`` with AAAF's tasks; ``store()`` gives the open
    :class:`~aaaf.store.Store` the tasks use (the worker's)."""
    settings = get_settings()
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(
            conninfo=conninfo(database_url), timeout=POOL_TIMEOUT_SECONDS
        )
    )
    queue = ProcrastinateQueue(app)
    # a database that cannot be reached fails an attempt, never the assessment
    # (services.assessment_jobs): retried after 3, 5, 9, 17, … s (about 17 minutes in all)
    retry = procrastinate.RetryStrategy(max_attempts=10, wait=1, exponential_wait=2)

    @app.task(name=ASSESS_TASK, queue=QUEUE, retry=retry, pass_context=True)
    def assess(context: procrastinate.JobContext, organization_id: str, assessment_id: str) -> None:
        # with further due assessment jobs, scored in one pass (aaaf.jobs.assessment_batch)
        assert context.job.id is not None
        tasks.assessment_jobs_at_once(
            store(),
            queue,
            uuid.UUID(organization_id),
            uuid.UUID(assessment_id),
            now=_now(),
            taken=TakenJobs(store().engine, context.job.id, ASSESS_TASK),
            at_once=settings.jobs_assessments_at_once,
        )

    @app.task(name=BADGE_TASK, queue=QUEUE, retry=retry)
    def issue_badge(organization_id: str, assessment_id: str) -> None:
        tasks.badge_job(store(), uuid.UUID(organization_id), uuid.UUID(assessment_id), now=_now())

    @app.task(name=STRESS_TASK, queue=STRESS_QUEUE)
    def stress_run(organization_id: str, run_id: str) -> None:
        # no retry strategy: the job records every failure on the run; a worker killed
        # mid-run leaves its job to the stalled-job sweep and its run's lease to lapse
        tasks.stress_run_job(
            store(), queue, uuid.UUID(organization_id), uuid.UUID(run_id), settings=settings, clock=_now
        )

    @app.task(name=COMPARE_TASK, queue=QUEUE)
    def compare_report(organization_id: str, report_id: str) -> None:
        # no retry: the job records a failure on the report, and a report already claimed is
        # never computed again
        tasks.compare_report_job(store(), uuid.UUID(organization_id), uuid.UUID(report_id), clock=_now)

    @app.periodic(cron=f"* * * * * */{settings.jobs_sweep_seconds}")
    @app.task(name="aaaf.sweep", queue=SWEEP_QUEUE, queueing_lock="aaaf.sweep")
    async def sweep(timestamp: int) -> None:
        # sync_to_async (asgiref's, as procrastinate runs sync tasks), not asyncio.to_thread:
        # a job deferred there without a connection runs on this loop's open pool
        await retry_stalled_jobs(app, settings.jobs_stalled_after_seconds)
        await sync_to_async(tasks.fail_abandoned_assessments, store(), now=_now())
        await sync_to_async(
            tasks.requeue_lost_assessments,
            store(),
            queue,
            now=_now(),
            grace_seconds=settings.jobs_requeue_after_seconds,
        )
        await sync_to_async(tasks.requeue_stress_runs, store(), queue, now=_now(), settings=settings)

    @app.periodic(cron="* * * * *")
    @app.task(name="aaaf.duties", queue=QUEUE, queueing_lock="aaaf.duties")
    def duties(timestamp: int) -> None:
        periodic.run_duties(store(), now=datetime.fromtimestamp(timestamp, UTC))

    @app.periodic(cron="17 3 * * *")
    @app.task(name="aaaf.retention", queue=QUEUE, queueing_lock="aaaf.retention")
    def retention(timestamp: int) -> None:
        periodic.run_retention(store(), now=datetime.fromtimestamp(timestamp, UTC))

    @app.periodic(cron="23 * * * *")
    @app.task(name="aaaf.benchmarks", queue=QUEUE, queueing_lock="aaaf.benchmarks")
    def benchmarks(timestamp: int) -> None:
        periodic.run_benchmarks(store(), now=datetime.fromtimestamp(timestamp, UTC))

    return app


async def retry_stalled_jobs(app: procrastinate.App, stalled_after_seconds: float) -> int:
    """Put the running jobs of workers without a heartbeat for ``stalled_after_seconds`` back
    in the queue (procrastinate's documented recipe); returns how many."""
    stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after_seconds)
    retried = 0
    for job in stalled:
        try:
            await app.job_manager.retry_job(job)
            retried += 1
        except Exception:  # a waiting duplicate holds its queueing lock: that one will run
            log.warning(
                "stalled job %s (%s) not retried: a waiting duplicate runs instead", job.id, job.task_name
            )
            await app.job_manager.finish_job(job, status=procrastinate.jobs.Status.FAILED, delete_job=False)
    if retried:
        log.warning("retried %d stalled job(s) of workers that stopped beating", retried)
    return retried
