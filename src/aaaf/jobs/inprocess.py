"""The embedded SQLite default: the job functions on threads of the server process (issue 14;
issue 31 §6).

A thin adapter over the tasks declared once in :mod:`aaaf.jobs.blueprint`: the app it binds is
the registry of the task functions, their retry strategies, queueing locks and priorities, and
the periodic schedule — the ones a procrastinate worker runs on PostgreSQL — and this runner
executes them itself instead of a procrastinate worker (no queue server: a job is an item of an
in-memory queue; SQLite has one writer anyway).

What makes it safe is the database, not the queue: a triggered assessment is recorded
``pending`` first, and the sweep queues again every pending assessment older than
``AAAF_JOBS_REQUEUE_AFTER_SECONDS`` — at start with no grace, that is every one a stopped server
left behind.  A job that raises runs again as its task's retry strategy says (procrastinate's
rule); an assessment job that gave up ends its assessment ``failed`` with the reason (on
PostgreSQL the sweep does it from the queue's failed jobs).  A job queued inside the trigger's
transaction waits for it: the job's first write (``BEGIN IMMEDIATE``) queues behind the
trigger's, and an assessment whose transaction rolled back is simply not found.  A job whose
queueing lock is held by a job waiting or running is not queued again.

The periodic tasks run on their cron, as procrastinate's periodic deferrer runs them: at start,
each whose latest tick is at most ``procrastinate.periodic.MAX_DELAY`` old, then every tick.

Stress runs have a thread of their own (their queue, ``aaaf-stress``): a run lasts minutes to
hours and would otherwise hold every assessment and badge behind it.  One thread, because
inspect_ai runs one evaluation per process at a time; runs of the same and other organizations
wait ``queued`` in the database, and the sweep queues again the runs left ``queued`` and those
``running`` whose lease lapsed — after a restart, every run a stopped server left.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
import queue as queue_module
import threading
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import procrastinate
from croniter import croniter
from procrastinate.jobs import Job
from procrastinate.periodic import MAX_DELAY
from procrastinate.testing import InMemoryConnector
from sqlalchemy import Connection

from aaaf.errors import AAAFError
from aaaf.jobs import tasks
from aaaf.jobs.blueprint import (
    ASSESS_TASK,
    BADGE_TASK,
    COMPARE_TASK,
    RESOURCES,
    STRESS_QUEUE,
    STRESS_TASK,
    JobResources,
    bind,
)
from aaaf.settings import Settings, get_settings

log = logging.getLogger(__name__)

_STOP_PRIORITY = 2**31
"""Above any job's: a stopping runner finishes the job at hand and takes no other."""


def _now() -> datetime:
    return datetime.now(UTC)


class NothingTaken:
    """No further jobs: a job here scores (or badges) its own assessment alone."""

    def take(self, limit: int, connection: Connection | None = None) -> list[tuple[uuid.UUID, uuid.UUID]]:
        return []

    def finish(self, connection: Connection, assessment_ids: list[uuid.UUID]) -> None:
        return None

    def finished(self, assessment_ids: list[uuid.UUID]) -> None:
        return None

    def release(self) -> None:
        return None


async def _no_stalled_workers() -> int:
    return 0  # the only worker is this process: its jobs die with it and the sweep finds them


class InProcessQueue:
    """The services' :class:`~aaaf.services.job_port.JobQueue` run by threads of this process."""

    def __init__(self, store: Any, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or get_settings()
        self.resources = JobResources(
            store=store,
            queue=self,
            settings=self.settings,
            clock=_now,
            taken=lambda job_id, task_name: NothingTaken(),
            retry_stalled=_no_stalled_workers,
        )
        # the registry of tasks and schedule; its connector is never opened (the queue is ours)
        self.app = bind(procrastinate.App(connector=InMemoryConnector()), self.resources)
        self._jobs: queue_module.PriorityQueue[tuple[int, int, Job | None]] = queue_module.PriorityQueue()
        self._stress_jobs: queue_module.PriorityQueue[tuple[int, int, Job | None]] = (
            queue_module.PriorityQueue()
        )
        self._order = itertools.count()
        self._locks: set[str] = set()
        """Queueing locks of the jobs waiting or running."""
        self._locks_guard = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- the JobQueue protocol ---------------------------------------------------------------

    def defer_assessments(
        self, connection: Connection, organization_id: uuid.UUID, assessment_ids: Sequence[uuid.UUID]
    ) -> None:
        for assessment_id in assessment_ids:
            self.defer(
                ASSESS_TASK,
                f"assessment:{assessment_id}",
                organization_id=str(organization_id),
                assessment_id=str(assessment_id),
            )

    def defer_badge(self, organization_id: uuid.UUID, assessment_id: uuid.UUID) -> None:
        self.defer(
            BADGE_TASK,
            f"badge:{assessment_id}",
            organization_id=str(organization_id),
            assessment_id=str(assessment_id),
        )

    def defer_badges(self, connection: Connection, badges: list[tuple[uuid.UUID, uuid.UUID]]) -> None:
        """Queue the badges of a batch; each runs after the job that stores the batch (one job
        thread), so after its transaction: a badge of an assessment not stored finds it not
        completed and is not issued."""
        for organization_id, assessment_id in badges:
            self.defer_badge(organization_id, assessment_id)

    def defer_stress_run(
        self, connection: Connection | None, organization_id: uuid.UUID, run_id: uuid.UUID
    ) -> None:
        self.defer(
            STRESS_TASK, f"stress-run:{run_id}", organization_id=str(organization_id), run_id=str(run_id)
        )

    # -- the adapter -----------------------------------------------------------------------------

    def defer(self, task_name: str, queueing_lock: str | None, **arguments: Any) -> bool:
        """Queue a job of ``task_name``; False when a job with its queueing lock waits or runs."""
        task = self.app.tasks[task_name]
        if queueing_lock is not None:
            with self._locks_guard:
                if queueing_lock in self._locks:
                    log.debug("%s already has a waiting job", queueing_lock)
                    return False
                self._locks.add(queueing_lock)
        job = Job(
            queue=task.queue,
            priority=task.priority,
            lock=None,
            queueing_lock=queueing_lock,
            task_name=task_name,
            task_kwargs=arguments,
        )
        self._put(job)
        return True

    def _put(self, job: Job) -> None:
        waiting = self._stress_jobs if job.queue == STRESS_QUEUE else self._jobs
        waiting.put((-job.priority, next(self._order), job))

    def run(self, job: Job) -> None:
        """Run ``job``'s task function with its context; when it raises, queue it again as its
        task's retry strategy says, else (retries used up, or none declared) log why and, for
        an assessment job, fail its assessment with the reason."""
        task = self.app.tasks[job.task_name]
        context = procrastinate.JobContext(
            app=self.app,
            job=job,
            start_timestamp=time.time(),
            additional_context={RESOURCES: self.resources},
            abort_reason=lambda: None,
        )
        try:
            outcome = (
                task.func(context, **job.task_kwargs) if task.pass_context else task.func(**job.task_kwargs)
            )
            if inspect.isawaitable(outcome):
                asyncio.run(_awaited(outcome))
        except Exception as error:
            retry = task.get_retry_exception(error, job)
            if retry is not None:
                log.warning(
                    "%s: attempt %d failed, runs again", job.task_name, job.attempts + 1, exc_info=True
                )
                self._retry_later(job.evolve(attempts=job.attempts + 1), retry.retry_decision.retry_at)
                return
            self._gave_up(job, error)
        self._release(job)

    def _retry_later(self, job: Job, at: datetime | None) -> None:
        delay = max(0.0, (at - _now()).total_seconds()) if at is not None else 0.0
        timer = threading.Timer(delay, self._put, (job,))
        timer.daemon = True
        timer.start()

    def _gave_up(self, job: Job, error: Exception) -> None:
        if isinstance(error, AAAFError):  # e.g. the trigger's transaction rolled back: NOT_FOUND
            log.info("job %s dropped: %s %s", job.task_name, error.code, error.message)
        else:
            log.error("job %s failed after %d attempt(s)", job.task_name, job.attempts + 1, exc_info=error)
        if job.task_name == ASSESS_TASK:
            arguments = job.task_kwargs
            tasks.give_up_assessment(
                self.store,
                uuid.UUID(str(arguments["organization_id"])),
                uuid.UUID(str(arguments["assessment_id"])),
                attempts=job.attempts + 1,
                now=_now(),
            )

    def _release(self, job: Job) -> None:
        if job.queueing_lock is not None:
            with self._locks_guard:
                self._locks.discard(job.queueing_lock)

    def defer_compare_report(
        self, connection: Connection, organization_id: uuid.UUID, report_id: uuid.UUID
    ) -> None:
        self.defer(
            COMPARE_TASK,
            f"compare:{report_id}",
            organization_id=str(organization_id),
            report_id=str(report_id),
        )

    # -- running -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the job thread, the stress thread and the timer thread (daemons: they never
        hold the server up)."""
        for target, name in (
            (lambda: self.run_jobs(self._jobs), "aaaf-jobs"),
            (lambda: self.run_jobs(self._stress_jobs), "aaaf-jobs-stress"),
            (self._run_timer, "aaaf-jobs-timer"),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the jobs at hand, then stop (jobs still queued are found again by the sweep;
        a stress run cut short keeps its lease until it lapses, then a restarted server
        resumes it)."""
        self._stop.set()
        for waiting in (self._jobs, self._stress_jobs):
            waiting.put((-_STOP_PRIORITY, next(self._order), None))
        for thread in self._threads:
            thread.join(timeout)

    def run_jobs(
        self, waiting: queue_module.PriorityQueue[tuple[int, int, Job | None]] | None = None
    ) -> None:
        """Run the jobs of ``waiting`` (the job queue unless given) until stopped."""
        waiting = self._jobs if waiting is None else waiting
        while not self._stop.is_set():
            job = waiting.get()[2]
            if job is None:
                return
            try:
                self.run(job)
            except Exception:  # the give-up itself failed (the database is gone): the sweep
                log.exception("job %s failed", job.task_name)
                self._release(job)

    def sweep_at_start(self, now: datetime) -> list[uuid.UUID]:
        """Every pending assessment and queued or lapsed stress run was left by a stopped
        server: queue them again, with no grace."""
        requeued = tasks.requeue_lost_assessments(self.store, self, now=now, grace_seconds=0.0)
        return requeued + tasks.requeue_stress_runs(
            self.store, self, now=now, settings=self.settings, grace_seconds=0.0
        )

    def due(self, now: float, last: dict[str, float]) -> list[tuple[str, int]]:
        """The periodic tasks due at ``now`` (epoch seconds) with their tick, given ``last``,
        the tick each ran last (updated): at start (no tick yet) those whose latest tick is at
        most ``MAX_DELAY`` old, then each new tick."""
        found = []
        for periodic_task in self.app.periodic_registry.periodic_tasks.values():
            name = periodic_task.task.name
            tick = float(croniter(periodic_task.cron, now).get_prev(float))
            seen = last.get(name)
            if (seen is None and now - tick <= MAX_DELAY) or (seen is not None and tick > seen):
                found.append((name, int(tick)))
            last[name] = tick
        return found

    def _next_tick(self, now: float) -> float:
        return min(
            float(croniter(p.cron, now).get_next(float))
            for p in self.app.periodic_registry.periodic_tasks.values()
        )

    def _run_timer(self) -> None:
        last: dict[str, float] = {}
        try:
            self.sweep_at_start(_now())
        except Exception:
            log.exception("the start-up sweep failed")
        while not self._stop.is_set():
            now = time.time()
            for name, tick in self.due(now, last):
                self.defer(name, self.app.tasks[name].queueing_lock, timestamp=tick)
            # a little after the tick: at the tick itself, a cron's latest tick is the one before
            self._stop.wait(max(0.05, self._next_tick(time.time()) - time.time() + 0.01))


async def _awaited(outcome: Any) -> None:
    await outcome
