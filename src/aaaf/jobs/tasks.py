"""The job functions (issue 14): plain functions over the services, run by a procrastinate
worker (PostgreSQL) or by the in-process runner (SQLite).  Each is idempotent — running one
twice, or again after its worker was killed, changes nothing more — and takes its clock.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Connection

from aaaf.services import assessment_jobs, compare_reports, stress_jobs
from aaaf.services.job_port import JobQueue
from aaaf.settings import Settings

log = logging.getLogger(__name__)

# Test-only: seconds the assessment job sleeps between claiming the assessment (it is
# ``in_progress``) and scoring it, so that a test can kill the worker mid-assessment
# (tests/jobs/test_crash_safety.py).  Read here and nowhere else; never set it in production.
TEST_JOB_DELAY_ENV = "AAAF_TEST_JOB_DELAY_S"


def _test_delay() -> None:
    delay = os.environ.get(TEST_JOB_DELAY_ENV)
    if delay:
        time.sleep(float(delay))


class BadgesAtOnce(JobQueue, Protocol):
    """A queue that queues the badges of a batch in the transaction that stores it."""

    def defer_badges(self, connection: Connection, badges: list[tuple[uuid.UUID, uuid.UUID]]) -> None: ...


class TakesJobs(Protocol):
    """Further assessment jobs a job run may take with it (:mod:`aaaf.jobs.assessment_batch`)."""

    def take(self, limit: int, connection: Connection | None = None) -> list[tuple[uuid.UUID, uuid.UUID]]: ...

    def finish(self, connection: Connection, assessment_ids: list[uuid.UUID]) -> None: ...

    def finished(self, assessment_ids: list[uuid.UUID]) -> None: ...

    def release(self) -> None: ...


def _badge_due(record: Any) -> bool:
    return bool(record.status == "completed" and record.review_state != "pending_review")


@contextmanager
def taking(
    taken: TakesJobs, first: tuple[uuid.UUID, uuid.UUID], at_once: int
) -> Iterator[list[tuple[uuid.UUID, uuid.UUID]]]:
    """The job run's own (organization id, assessment id) — ``first`` — and those of up to
    ``at_once - 1`` further jobs ``taken`` takes; an error in the block puts the jobs taken
    and not finished back in the queue, then is raised."""
    try:
        yield [first, *taken.take(at_once - 1)]
    except BaseException:
        taken.release()
        raise


def assessment_jobs_at_once(
    store: Any,
    queue: BadgesAtOnce,
    organization_id: uuid.UUID,
    assessment_id: uuid.UUID,
    *,
    now: datetime,
    taken: TakesJobs,
    at_once: int,
) -> list[Any]:
    """Score a triggered assessment and up to ``at_once - 1`` more whose jobs ``taken`` takes,
    in one pass and one transaction per organization whose commit finishes their jobs
    (:mod:`aaaf.jobs.assessment_batch`) and queues the badges of those that completed (one
    statement, no connection of its own).  The jobs are taken in the transaction that claims
    their assessments (:func:`~aaaf.services.assessment_jobs.claim_triggered`; the bench
    fleet: 3 commits and pool checkouts fewer in 3 runs).  Any error puts the jobs taken and
    not finished back in the queue, then is raised (:func:`claiming`)."""
    records: list[Any] = []

    def beside(connection: Connection, handled: list[uuid.UUID], written: list[Any]) -> None:
        taken.finish(connection, handled)
        badges = [(record.organization_id, record.id) for record in written if _badge_due(record)]
        if badges:
            queue.defer_badges(connection, badges)

    with claiming(store, taken, (organization_id, assessment_id), at_once) as claimed:
        for organization, (ids, found) in claimed.items():
            records += assessment_jobs.run_claimed_assessments(
                store, organization, ids, found, now=now, after_claim=_test_delay, also=beside
            )
            taken.finished(ids)
    return records


@contextmanager
def claiming(
    store: Any, taken: TakesJobs, first: tuple[uuid.UUID, uuid.UUID], at_once: int
) -> Iterator[dict[uuid.UUID, tuple[list[uuid.UUID], list[Any]]]]:
    """The assessments of the job run's own job — ``first`` — and of up to ``at_once - 1``
    further jobs ``taken`` takes, claimed with the take in one transaction
    (:func:`~aaaf.services.assessment_jobs.claim_triggered`), by organization.  Any error —
    in that transaction (nothing was taken), at its commit (taken or not) or in the block —
    puts the jobs taken and not finished back in the queue (those still running under this
    worker: :meth:`~aaaf.jobs.assessment_batch.TakenJobs.release`), then is raised."""
    try:
        yield assessment_jobs.claim_triggered(
            store, first, lambda connection: taken.take(at_once - 1, connection)
        )
    except BaseException:
        taken.release()
        raise


def badge_jobs_at_once(
    store: Any,
    organization_id: uuid.UUID,
    assessment_id: uuid.UUID,
    *,
    now: datetime,
    taken: TakesJobs,
    at_once: int,
) -> list[Any]:
    """Issue (sign and render) a completed assessment's badge and those of up to ``at_once - 1``
    more whose jobs ``taken`` takes, with the issuer key read once and each organization's
    reads on one connection; each badge in a transaction of its own (issuing is idempotent: a
    badge issued before a crash is re-rendered, never signed twice), then one statement
    finishes the jobs taken.  Any error puts the jobs taken and not finished back in the
    queue, then is raised (:func:`taking`).  The badges issued (None for one refused, the
    reason logged)."""
    from aaaf.services.badge_revocation import issuer_key

    with taking(taken, (organization_id, assessment_id), at_once) as badges:
        issued = assessment_jobs.issue_badges_of(store, badges, now=now, key=issuer_key(store))
        ids = [assessment for _, assessment in badges[1:]]  # the first is procrastinate's to finish
        if ids:
            with store.engine.begin() as connection:
                taken.finish(connection, ids)
            taken.finished(ids)
    return issued


def requeue_lost_assessments(
    store: Any, queue: JobQueue, *, now: datetime, grace_seconds: float
) -> list[uuid.UUID]:
    """The sweep's outbox half: pending assessments whose job was lost are queued again."""
    return assessment_jobs.requeue_pending(store, queue, now=now, grace=timedelta(seconds=grace_seconds))


def fail_abandoned_assessments(store: Any, *, now: datetime) -> list[uuid.UUID]:
    """The sweep's half for jobs that gave up: their assessments end ``failed`` with the reason."""
    return assessment_jobs.fail_abandoned(store, now=now)


def give_up_assessment(
    store: Any, organization_id: uuid.UUID, assessment_id: uuid.UUID, *, attempts: int, now: datetime
) -> bool:
    """An assessment whose job failed ``attempts`` times ends ``failed`` with the reason."""
    return assessment_jobs.give_up(store, organization_id, assessment_id, attempts=attempts, now=now)


def stress_run_job(
    store: Any,
    queue: JobQueue,
    organization_id: uuid.UUID,
    run_id: uuid.UUID,
    *,
    settings: Settings,
    clock: Callable[[], datetime],
) -> Any:
    """Run a stress run requested over HTTP (at most once to its end; resumed from scratch
    when its executor died), then queue the organization's next waiting runs."""
    from aaaf.services.issuer import secret_box

    return stress_jobs.run_stress_job(
        store,
        queue,
        organization_id,
        run_id,
        settings=settings,
        clock=clock,
        box=lambda: secret_box(store, settings),
    )


def compare_report_job(
    store: Any, organization_id: uuid.UUID, report_id: uuid.UUID, *, clock: Callable[[], datetime]
) -> str:
    """Compute and store a dashboard compare report (at most once); its closing status."""
    return compare_reports.run_report_job(store, organization_id, report_id, clock=clock)


def requeue_stress_runs(
    store: Any, queue: JobQueue, *, now: datetime, settings: Settings, grace_seconds: float | None = None
) -> list[uuid.UUID]:
    """The sweep's half for stress runs: runs waiting ``queued`` longer than ``grace_seconds``
    (``AAAF_JOBS_REQUEUE_AFTER_SECONDS`` unless given) and runs whose executor's lease lapsed
    get their job again."""
    grace = settings.jobs_requeue_after_seconds if grace_seconds is None else grace_seconds
    return stress_jobs.requeue_stress_runs(
        store,
        queue,
        now=now,
        grace=timedelta(seconds=grace),
        lease=timedelta(seconds=settings.jobs_stalled_after_seconds),
    )
