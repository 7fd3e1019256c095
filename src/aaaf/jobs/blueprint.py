"""AAAF's jobs, declared once (issue 31 §6; docs/jobs.md): a procrastinate blueprint of task
functions and the periodic schedule, run by procrastinate workers on PostgreSQL
(:mod:`aaaf.jobs.queue`) and by the server's own threads on SQLite (:mod:`aaaf.jobs.inprocess`).

The task functions are module-level and take what they use — the store, the queue they defer
to, the settings, the clock — from their job's context (:class:`JobResources`, set by
:func:`bind` when an app is built), never from a closure: they can be imported, introspected
and run with procrastinate's ``InMemoryConnector``.  Adding a job is one declaration here.

Tasks:

* ``aaaf.assess`` (queue ``aaaf``) — score a triggered assessment, with up to
  ``AAAF_JOBS_ASSESSMENTS_AT_ONCE - 1`` further due ones whose jobs it takes
  (:mod:`aaaf.jobs.assessment_batch`, PostgreSQL); retried with backoff (:data:`RETRY`);
* ``aaaf.issue_badge`` — sign and render a completed assessment's badge, with further due
  ones whose jobs it takes (PostgreSQL), after the assessments waiting
  (:data:`BADGE_PRIORITY`); retried likewise;
* ``aaaf.stress_run`` (queue ``aaaf-stress``) — a stress run requested over HTTP; no retry
  (the job records every failure on the run; an executor that dies leaves its lease to lapse);
* ``aaaf.compare_report`` — a dashboard compare report (:mod:`aaaf.services.compare_reports`);
  no retry (the job records a failure on the report; a report already claimed is never
  computed again);
* ``aaaf.sweep`` (queue ``aaaf-sweep``) — jobs of workers that stopped beating are retried,
  assessments whose job gave up end ``failed``, lost assessment and stress-run jobs are queued
  again;
* ``aaaf.duties``, ``aaaf.retention``, ``aaaf.benchmarks`` (queue ``aaaf-periodic``) —
  :mod:`aaaf.jobs.periodic`; a queue of their own, so that neither the assessments wait behind
  them (every worker defers the minute's duties when it starts) nor they behind a backlog.

:func:`schedule` gives the periodic ones with their cron (the sweep's period is
``AAAF_JOBS_SWEEP_SECONDS``).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import procrastinate
from procrastinate.utils import sync_to_async

from aaaf.jobs import periodic, tasks
from aaaf.settings import Settings

QUEUE = "aaaf"
STRESS_QUEUE = "aaaf-stress"
SWEEP_QUEUE = "aaaf-sweep"
PERIODIC_QUEUE = "aaaf-periodic"
ASSESS_TASK = "aaaf.assess"
BADGE_TASK = "aaaf.issue_badge"
STRESS_TASK = "aaaf.stress_run"
COMPARE_TASK = "aaaf.compare_report"
SWEEP_TASK = "aaaf.sweep"
DUTIES_TASK = "aaaf.duties"
RETENTION_TASK = "aaaf.retention"
BENCHMARKS_TASK = "aaaf.benchmarks"
BADGE_PRIORITY = -1
"""Below the assessments' (0): a worker scores the assessments waiting before it issues the
badges of those it scored (a badge costs about what scoring costs: signing, SVG and PNG)."""
BADGES_AT_ONCE = 8
"""The most badges one ``aaaf.issue_badge`` run issues (its own and those it takes): about a
second of signing and rendering, so that an assessment triggered meanwhile waits no longer."""
RETRY = procrastinate.RetryStrategy(max_attempts=10, wait=1, exponential_wait=2)
"""A database that cannot be reached fails an attempt, never the assessment
(services.assessment_jobs): retried after 3, 5, 9, 17, … s (about 17 minutes in all)."""
RESOURCES = "aaaf"
"""The key of :class:`JobResources` in a job context's ``additional_context``."""

blueprint = procrastinate.Blueprint()


@dataclass(frozen=True)
class JobResources:
    """What the job functions use, handed to them through their job's context.

    ``taken(job_id, task_name)`` gives the further jobs of ``task_name`` a run of job
    ``job_id`` may take with it; ``retry_stalled()`` puts back the jobs of workers that stopped
    beating (how many)."""

    store: Any
    queue: tasks.BadgesAtOnce
    settings: Settings
    clock: Callable[[], datetime]
    taken: Callable[[int | None, str], tasks.TakesJobs]
    retry_stalled: Callable[[], Awaitable[int]]


def resources_of(context: procrastinate.JobContext) -> JobResources:
    """The :class:`JobResources` of ``context`` (set by :func:`bind`)."""
    resources = context.additional_context[RESOURCES]
    assert isinstance(resources, JobResources)
    return resources


def schedule(settings: Settings) -> dict[str, str]:
    """The periodic tasks: task name → cron (a sixth field is seconds), declared once."""
    return {
        SWEEP_TASK: f"* * * * * */{settings.jobs_sweep_seconds}",
        DUTIES_TASK: "* * * * *",
        RETENTION_TASK: "17 3 * * *",
        BENCHMARKS_TASK: "23 * * * *",
    }


def bind(app: procrastinate.App, resources: JobResources) -> procrastinate.App:
    """Declare the blueprint's tasks and the periodic :func:`schedule` on ``app`` and hand its
    jobs ``resources``; returns ``app``.

    Each app gets tasks of its own, made from the blueprint's declarations (procrastinate's
    ``add_tasks_from`` would bind the blueprint's one task objects to the last app built, and
    a process may build several: a worker's, then another after a database outage)."""
    for task in blueprint.tasks.values():
        assert task.pass_context, f"{task.name} takes its resources from its context"
        app.task(
            name=task.name,
            aliases=list(task.aliases),
            retry=task.retry_strategy or False,
            pass_context=True,
            queue=task.queue,
            priority=task.priority,
            lock=task.lock,
            queueing_lock=task.queueing_lock,
        )(task.func)
    for name, cron in schedule(resources.settings).items():
        app.periodic_registry.register_task(
            task=app.tasks[name], cron=cron, periodic_id="", configure_kwargs={}
        )
    app.worker_defaults["additional_context"] = {RESOURCES: resources}
    return app


# -- the tasks ---------------------------------------------------------------------------------


@blueprint.task(name=ASSESS_TASK, queue=QUEUE, retry=RETRY, pass_context=True)
def assess(context: procrastinate.JobContext, organization_id: str, assessment_id: str) -> None:
    """Score a triggered assessment with further due ones (:func:`aaaf.jobs.tasks.assessment_jobs_at_once`)."""
    jobs = resources_of(context)
    tasks.assessment_jobs_at_once(
        jobs.store,
        jobs.queue,
        uuid.UUID(organization_id),
        uuid.UUID(assessment_id),
        now=jobs.clock(),
        taken=jobs.taken(context.job.id, ASSESS_TASK),
        at_once=jobs.settings.jobs_assessments_at_once,
    )


@blueprint.task(name=BADGE_TASK, queue=QUEUE, retry=RETRY, priority=BADGE_PRIORITY, pass_context=True)
def issue_badge(context: procrastinate.JobContext, organization_id: str, assessment_id: str) -> None:
    """Issue a completed assessment's badge with further due ones (:func:`aaaf.jobs.tasks.badge_jobs_at_once`)."""
    jobs = resources_of(context)
    tasks.badge_jobs_at_once(
        jobs.store,
        uuid.UUID(organization_id),
        uuid.UUID(assessment_id),
        now=jobs.clock(),
        taken=jobs.taken(context.job.id, BADGE_TASK),
        at_once=BADGES_AT_ONCE,
    )


@blueprint.task(name=STRESS_TASK, queue=STRESS_QUEUE, pass_context=True)
def stress_run(context: procrastinate.JobContext, organization_id: str, run_id: str) -> None:
    """Run a stress run requested over HTTP (no retry: the job records every failure on the run;
    a worker killed mid-run leaves its job to the stalled-job sweep and its run's lease to lapse)."""
    jobs = resources_of(context)
    tasks.stress_run_job(
        jobs.store,
        jobs.queue,
        uuid.UUID(organization_id),
        uuid.UUID(run_id),
        settings=jobs.settings,
        clock=jobs.clock,
    )


@blueprint.task(name=COMPARE_TASK, queue=QUEUE, pass_context=True)
def compare_report(context: procrastinate.JobContext, organization_id: str, report_id: str) -> None:
    """Compute and store a dashboard compare report (module docstring)."""
    jobs = resources_of(context)
    tasks.compare_report_job(jobs.store, uuid.UUID(organization_id), uuid.UUID(report_id), clock=jobs.clock)


@blueprint.task(name=SWEEP_TASK, queue=SWEEP_QUEUE, queueing_lock=SWEEP_TASK, pass_context=True)
async def sweep(context: procrastinate.JobContext, timestamp: int) -> None:
    """The sweep (module docstring)."""
    # sync_to_async (asgiref's, as procrastinate runs sync tasks), not asyncio.to_thread:
    # a job deferred there without a connection runs on this loop's open pool
    jobs = resources_of(context)
    await jobs.retry_stalled()
    await sync_to_async(tasks.fail_abandoned_assessments, jobs.store, now=jobs.clock())
    await sync_to_async(
        tasks.requeue_lost_assessments,
        jobs.store,
        jobs.queue,
        now=jobs.clock(),
        grace_seconds=jobs.settings.jobs_requeue_after_seconds,
    )
    await sync_to_async(
        tasks.requeue_stress_runs, jobs.store, jobs.queue, now=jobs.clock(), settings=jobs.settings
    )


@blueprint.task(name=DUTIES_TASK, queue=PERIODIC_QUEUE, queueing_lock=DUTIES_TASK, pass_context=True)
def duties(context: procrastinate.JobContext, timestamp: int) -> None:
    """:func:`aaaf.jobs.periodic.run_duties` at the tick's time."""
    periodic.run_duties(resources_of(context).store, now=datetime.fromtimestamp(timestamp, UTC))


@blueprint.task(name=RETENTION_TASK, queue=PERIODIC_QUEUE, queueing_lock=RETENTION_TASK, pass_context=True)
def retention(context: procrastinate.JobContext, timestamp: int) -> None:
    """:func:`aaaf.jobs.periodic.run_retention` at the tick's time."""
    periodic.run_retention(resources_of(context).store, now=datetime.fromtimestamp(timestamp, UTC))


@blueprint.task(name=BENCHMARKS_TASK, queue=PERIODIC_QUEUE, queueing_lock=BENCHMARKS_TASK, pass_context=True)
def benchmarks(context: procrastinate.JobContext, timestamp: int) -> None:
    """:func:`aaaf.jobs.periodic.run_benchmarks` at the tick's time."""
    periodic.run_benchmarks(resources_of(context).store, now=datetime.fromtimestamp(timestamp, UTC))
