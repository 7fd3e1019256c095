"""Several triggered assessments in one job run (PostgreSQL; docs/jobs.md "Workers").

A worker that runs an ``aaaf.assess`` job takes further due ``aaaf.assess`` jobs of its queue
with it — up to ``AAAF_JOBS_ASSESSMENTS_AT_ONCE`` in all (default 32) — the way procrastinate takes one
(``procrastinate_fetch_job_v2``'s rule: ``todo``, due, its lock not held by a running job,
``FOR UPDATE SKIP LOCKED``), marking them ``doing`` under the same worker.  It takes its
share of those due: them divided by the job slots of the live ``aaaf worker`` processes
(:mod:`aaaf.jobs.presence`; at least :data:`SHARE_FLOOR`).  Of a fleet triggered at once, a
second worker finds its share waiting instead of one worker taking 32 of 40 while the other
idles, and whichever finishes first takes the next share (guided self-scheduling); a worker
alone takes them all (up to the limit) in one run, not half and half again.  Their
assessments are scored in one pass and stored in one transaction, and that transaction
marks their jobs ``succeeded``: a job is done if and only if its assessment is stored.
An ``aaaf.issue_badge`` run takes further badge jobs the same way
(:func:`aaaf.jobs.tasks.badge_jobs_at_once`).

What stays true of one job holds for each job of the batch: killed with the worker
(SIGKILL), they are ``doing`` under a worker that stopped beating, and the sweep runs them
again; when the run fails on a database error, they go back to ``todo`` (each its own
retry) before the error reaches procrastinate, which retries the job that took them.
"""

from __future__ import annotations

import logging
import uuid

from sqlalchemy import Connection, Engine, text

from aaaf.jobs.presence import LIVE_SLOTS

log = logging.getLogger(__name__)

SHARE_FLOOR = 8
"""The fewest further jobs a run takes when more are due: a run's fixed cost (about 20
statements: the claim, the configuration, the stress runs, the previous composites, the
evidence, the write) spread over at least 9 assessments."""

_TAKE = text(
    f"""
    WITH me AS (
        SELECT worker_id, queue_name FROM procrastinate_jobs WHERE id = :job_id AND status = 'doing'
    ),
    due AS (
        SELECT count(*) AS jobs
          FROM procrastinate_jobs AS jobs, me
         WHERE jobs.task_name = :task_name
           AND jobs.status = 'todo'
           AND jobs.queue_name = me.queue_name
           AND (jobs.scheduled_at IS NULL OR jobs.scheduled_at <= now())
    ),
    candidate AS (
        SELECT jobs.id
          FROM procrastinate_jobs AS jobs, me
         WHERE jobs.task_name = :task_name
           AND jobs.status = 'todo'
           AND jobs.queue_name = me.queue_name
           AND (jobs.scheduled_at IS NULL OR jobs.scheduled_at <= now())
           AND NOT EXISTS (
               SELECT 1 FROM procrastinate_jobs AS other_jobs
                WHERE jobs.lock IS NOT NULL AND other_jobs.lock = jobs.lock
                  AND (other_jobs.status = 'doing'
                       OR (other_jobs.status = 'todo'
                           AND (other_jobs.priority > jobs.priority
                                OR (other_jobs.priority = jobs.priority AND other_jobs.id < jobs.id))))
           )
         ORDER BY jobs.priority DESC, jobs.id ASC
         LIMIT (SELECT least(:limit, greatest(:floor, ceil(due.jobs::numeric / slots.live)::bigint))
                  FROM due, (SELECT greatest(1, ({LIVE_SLOTS})) AS live) AS slots)
         FOR UPDATE OF jobs SKIP LOCKED
    )
    UPDATE procrastinate_jobs
       SET status = 'doing', worker_id = (SELECT worker_id FROM me)
      FROM candidate
     WHERE procrastinate_jobs.id = candidate.id
    RETURNING procrastinate_jobs.id, procrastinate_jobs.args
    """
)

_FINISH = text("SELECT procrastinate_finish_job_v1(id, 'succeeded', false) FROM unnest(:ids) AS id")
_RELEASE = text(
    """
    SELECT procrastinate_retry_job_v2(jobs.id, now(), NULL, NULL, NULL)
      FROM procrastinate_jobs AS jobs
     WHERE jobs.id = ANY(:ids) AND jobs.status = 'doing'
       AND jobs.worker_id = (SELECT worker_id FROM procrastinate_jobs WHERE id = :job_id)
    """
)
"""The jobs taken and still running under this run's worker go back to ``todo`` (one taken in
a transaction that rolled back is ``todo`` already: retrying it would raise)."""


class TakenJobs:
    """The further jobs of ``task_name`` (``aaaf.assess``, ``aaaf.issue_badge``) one job run
    took (module docstring)."""

    def __init__(self, engine: Engine, job_id: int, task_name: str) -> None:
        self._engine = engine
        self._job_id = job_id
        self._task_name = task_name
        self._open: dict[uuid.UUID, int] = {}
        """Assessment id → job id of the jobs taken and not finished yet."""

    def take(self, limit: int, connection: Connection | None = None) -> list[tuple[uuid.UUID, uuid.UUID]]:
        """Take up to ``limit`` due jobs, this run's share of those due (at least
        :data:`SHARE_FLOOR`; module docstring), in ``connection``'s transaction (the one that claims their
        assessments) or in one of its own; their (organization id, assessment id)."""
        if limit <= 0:
            return []
        arguments = {
            "job_id": self._job_id,
            "task_name": self._task_name,
            "limit": limit,
            "floor": SHARE_FLOOR,
        }
        if connection is not None:
            rows = connection.execute(_TAKE, arguments).all()
        else:
            with self._engine.begin() as own:
                rows = own.execute(_TAKE, arguments).all()
        taken = []
        for job_id, args in rows:
            assessment_id = uuid.UUID(args["assessment_id"])
            self._open[assessment_id] = job_id
            taken.append((uuid.UUID(args["organization_id"]), assessment_id))
            log.info(
                "job %s took %s[%d] for assessment %s", self._job_id, self._task_name, job_id, assessment_id
            )
        return taken

    def finish(self, connection: Connection, assessment_ids: list[uuid.UUID]) -> None:
        """Mark the jobs of ``assessment_ids`` succeeded in ``connection``'s transaction (the
        one that stores their assessments)."""
        ids = [self._open[a] for a in assessment_ids if a in self._open]
        if ids:
            connection.execute(_FINISH, {"ids": ids})

    def finished(self, assessment_ids: list[uuid.UUID]) -> None:
        """The transaction of :meth:`finish` committed: those jobs are done."""
        for assessment_id in assessment_ids:
            job_id = self._open.pop(assessment_id, None)
            if job_id is not None:  # the worker's log says which run scored every job
                log.info(
                    "taken job %s[%d] for assessment %s succeeded in job %s's run",
                    self._task_name,
                    job_id,
                    assessment_id,
                    self._job_id,
                )

    def release(self) -> None:
        """Put every job taken and not finished back in the queue (the run failed), those
        still running under this run's worker: none when the transaction that took them
        rolled back."""
        ids, self._open = list(self._open.values()), {}
        if not ids:
            return
        try:
            with self._engine.begin() as connection:
                connection.execute(_RELEASE, {"ids": ids, "job_id": self._job_id})
        except Exception:  # the database is gone: the jobs wait for the sweep (worker restarts)
            log.warning(
                "could not put %d taken assessment job(s) back: the sweep will", len(ids), exc_info=True
            )

    def __repr__(self) -> str:
        return f"TakenJobs(job_id={self._job_id}, open={len(self._open)})"
