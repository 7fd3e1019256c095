"""The embedded SQLite default: the job functions on a thread of the server process (issue 14).

No queue server: a job is an item of an in-memory queue, run by one thread (SQLite has one
writer anyway).  What makes it safe is the database, not the queue: a triggered assessment is
recorded ``pending`` first, and the timer's sweep (every ``AAAF_JOBS_SWEEP_SECONDS``, and once
at start) queues again every pending assessment older than ``AAAF_JOBS_REQUEUE_AFTER_SECONDS``
— after a restart, that is every one a stopped server left behind.  An assessment job that
raises (the database failed it; a scoring error is recorded, not raised) runs again with
backoff, and after ``ASSESSMENT_ATTEMPTS`` attempts its assessment ends ``failed`` with the
reason.  A job item queued inside
the trigger's transaction waits for it: the job's first write (``BEGIN IMMEDIATE``) queues
behind the trigger's, and an assessment whose transaction rolled back is simply not found.

The same timer runs :func:`aaaf.jobs.periodic.run_duties` every minute and
:func:`aaaf.jobs.periodic.run_retention` once a day and
:func:`aaaf.jobs.periodic.run_benchmarks` once an hour.

Stress runs (:mod:`aaaf.services.stress_jobs`) have a thread of their own: a run lasts minutes
to hours and would otherwise hold every assessment and badge behind it.  One thread, because
inspect_ai runs one evaluation per process at a time (a second ``eval`` in the same process is
refused); runs of the same and other organizations wait ``queued`` in the database.  The sweep
queues again the runs left ``queued`` and those ``running`` whose lease lapsed — after a
restart, every run a stopped server left: each resumes from scratch or, started too often,
fails with the reason.  The thread never runs a run twice at once: a run already waiting for
it or running on it is not queued again.
"""

from __future__ import annotations

import logging
import queue as queue_module
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import Connection

from aaaf.errors import AAAFError
from aaaf.jobs import periodic, tasks
from aaaf.settings import get_settings

log = logging.getLogger(__name__)

DUTIES_EVERY_SECONDS = 60.0
RETENTION_EVERY_SECONDS = 86_400.0
BENCHMARKS_EVERY_SECONDS = 3_600.0  # issue 20 §2
ASSESSMENT_ATTEMPTS = 5
RETRY_FIRST_SECONDS = 1.0


def _now() -> datetime:
    return datetime.now(UTC)


class InProcessQueue:
    """The services' :class:`~aaaf.services.job_port.JobQueue` run by a thread of this process."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._jobs: queue_module.Queue[Callable[[], None] | None] = queue_module.Queue()
        self._stress_jobs: queue_module.Queue[uuid.UUID | None] = queue_module.Queue()
        self._stress_orgs: dict[uuid.UUID, uuid.UUID] = {}
        """Run id → organization id of the stress runs waiting for the stress thread or on it."""
        self._stress_lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- the JobQueue protocol ---------------------------------------------------------------

    def defer_assessment(
        self, connection: Connection, organization_id: uuid.UUID, assessment_id: uuid.UUID
    ) -> None:
        self._jobs.put(partial(self._assessment_attempt, organization_id, assessment_id, 1))

    def _assessment_attempt(self, organization_id: uuid.UUID, assessment_id: uuid.UUID, attempt: int) -> None:
        """Run an assessment's job; when it raises (its scoring never does: the database
        did), run it again after ``RETRY_FIRST_SECONDS`` × 2ⁿ, and after ``ASSESSMENT_ATTEMPTS``
        attempts end the assessment ``failed`` with the reason (procrastinate's retry on
        PostgreSQL, and its sweep of jobs that gave up)."""
        try:
            tasks.assessment_job(self.store, self, organization_id, assessment_id, now=_now())
        except AAAFError:
            raise
        except Exception:
            if attempt >= ASSESSMENT_ATTEMPTS:
                log.exception("assessment %s: attempt %d failed, giving up", assessment_id, attempt)
                tasks.give_up_assessment(
                    self.store, organization_id, assessment_id, attempts=attempt, now=_now()
                )
                return
            log.warning("assessment %s: attempt %d failed, runs again", assessment_id, attempt, exc_info=True)
            timer = threading.Timer(
                RETRY_FIRST_SECONDS * 2 ** (attempt - 1),
                self._jobs.put,
                (partial(self._assessment_attempt, organization_id, assessment_id, attempt + 1),),
            )
            timer.daemon = True
            timer.start()

    def defer_badge(self, organization_id: uuid.UUID, assessment_id: uuid.UUID) -> None:
        self._jobs.put(lambda: tasks.badge_job(self.store, organization_id, assessment_id, now=_now()))

    def defer_stress_run(
        self, connection: Connection | None, organization_id: uuid.UUID, run_id: uuid.UUID
    ) -> None:
        with self._stress_lock:
            if run_id in self._stress_orgs:  # already waiting for the stress thread, or on it
                return
            self._stress_orgs[run_id] = organization_id
        self._stress_jobs.put(run_id)

    def defer_compare_report(
        self, connection: Connection, organization_id: uuid.UUID, report_id: uuid.UUID
    ) -> None:
        self._jobs.put(partial(self._compare_report, organization_id, report_id))

    def _compare_report(self, organization_id: uuid.UUID, report_id: uuid.UUID) -> None:
        status = tasks.compare_report_job(self.store, organization_id, report_id, clock=_now)
        log.debug("compare report %s: %s", report_id, status)

    # -- running -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the job thread, the stress thread and the timer thread (daemons: they never
        hold the server up)."""
        for target, name in (
            (self._run_jobs, "aaaf-jobs"),
            (self._run_stress_jobs, "aaaf-jobs-stress"),
            (self._run_timer, "aaaf-jobs-timer"),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the job at hand, then stop (jobs still queued are found again by the sweep;
        a stress run cut short keeps its lease until it lapses, then a restarted server
        resumes it)."""
        self._stop.set()
        self._jobs.put(None)
        self._stress_jobs.put(None)
        for thread in self._threads:
            thread.join(timeout)

    def _run_stress_jobs(self) -> None:
        while not self._stop.is_set():
            run_id = self._stress_jobs.get()
            if run_id is None:
                return
            organization_id = self._stress_orgs[run_id]
            try:
                tasks.stress_run_job(
                    self.store, self, organization_id, run_id, settings=get_settings(), clock=_now
                )
            except AAAFError as error:  # the request's transaction rolled back: NOT_FOUND
                log.info("stress job dropped: %s %s", error.code, error.message)
            except Exception:
                log.exception("stress job failed")
            finally:
                with self._stress_lock:
                    self._stress_orgs.pop(run_id, None)

    def _run_jobs(self) -> None:
        while not self._stop.is_set():
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except AAAFError as error:  # e.g. the trigger's transaction rolled back: NOT_FOUND
                log.info("job dropped: %s %s", error.code, error.message)
            except Exception:
                log.exception("job failed")

    def sweep(self, now: datetime, *, at_start: bool = False) -> list[uuid.UUID]:
        """Queue again the pending assessments whose job was lost, the stress runs waiting and
        those whose executor's lease lapsed (a restart); at start, every pending assessment and
        queued run was left by a stopped server: no grace."""
        settings = get_settings()
        grace = 0.0 if at_start else settings.jobs_requeue_after_seconds
        requeued = tasks.requeue_lost_assessments(self.store, self, now=now, grace_seconds=grace)
        return requeued + tasks.requeue_stress_runs(
            self.store, self, now=now, settings=settings, grace_seconds=grace
        )

    def _run_timer(self) -> None:
        settings = get_settings()
        last_duties = last_retention = last_benchmarks = float("-inf")
        first = True
        while not self._stop.is_set():
            clock = time.monotonic()
            try:
                now = _now()
                self.sweep(now, at_start=first)
                if clock - last_duties >= DUTIES_EVERY_SECONDS:
                    last_duties = clock
                    self._jobs.put(partial(_run_duty, periodic.run_duties, self.store, now))
                if clock - last_retention >= RETENTION_EVERY_SECONDS:
                    last_retention = clock
                    self._jobs.put(partial(_run_duty, periodic.run_retention, self.store, now))
                if clock - last_benchmarks >= BENCHMARKS_EVERY_SECONDS:
                    last_benchmarks = clock
                    self._jobs.put(partial(_run_duty, periodic.run_benchmarks, self.store, now))
            except Exception:
                log.exception("periodic sweep failed")
            first = False
            self._stop.wait(settings.jobs_sweep_seconds)


def _run_duty(duty: Callable[..., Any], store: Any, now: datetime) -> None:
    log.debug("periodic duty %s: %s", duty.__name__, duty(store, now=now))
