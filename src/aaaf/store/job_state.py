"""What the job queue's sweep asks of the whole database, across organizations (issue 14).

A triggered assessment is ``pending`` until a worker claims it; one still ``pending`` long
after its trigger lost its job (a job that failed at the queue's level, say) and is queued
again by the sweep (``aaaf.jobs``); one whose job gave up after its retries ends ``failed``
with that reason.  A stress run requested over HTTP is swept the same way
while it waits ``queued``, and when the lease of its ``running`` executor lapsed.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Engine, and_, func, or_, select, text

from aaaf.store import tables as t
from aaaf.store.engine import read_connection


def pending_assessments(engine: Engine, *, created_before: datetime) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """(organization id, assessment id) of every ``pending`` assessment created before
    ``created_before``, oldest first."""
    query = (
        select(t.agents.c.organization_id, t.assessments.c.id)
        .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
        .where(t.assessments.c.status == "pending", t.assessments.c.created_at < created_before)
        .order_by(t.assessments.c.created_at)
    )
    with read_connection(engine) as connection:
        return [(row[0], row[1]) for row in connection.execute(query)]


_ABANDONED = text(
    """
    SELECT agents.organization_id, assessments.id, max(jobs.attempts) AS attempts
      FROM assessments
      JOIN agents ON agents.id = assessments.agent_id
      JOIN procrastinate_jobs AS jobs
        ON jobs.task_name = 'aaaf.assess' AND jobs.args ->> 'assessment_id' = assessments.id::text
     WHERE assessments.status IN ('pending', 'in_progress')
       AND jobs.status = 'failed'
       AND NOT EXISTS (
           SELECT 1 FROM procrastinate_jobs AS waiting
            WHERE waiting.task_name = 'aaaf.assess'
              AND waiting.args ->> 'assessment_id' = assessments.id::text
              AND waiting.status IN ('todo', 'doing')
       )
     GROUP BY agents.organization_id, assessments.id, assessments.created_at
     ORDER BY assessments.created_at
    """
)


def abandoned_assessments(engine: Engine) -> list[tuple[uuid.UUID, uuid.UUID, int]]:
    """(organization id, assessment id, attempts) of every ``pending`` or ``in_progress``
    assessment whose job gave up (procrastinate's ``failed``: its retries used up) and that
    has no job waiting or running; oldest first.  None on SQLite (no queue tables: the
    in-process runner fails such an assessment itself)."""
    if engine.dialect.name != "postgresql":
        return []
    with read_connection(engine) as connection:
        return [(row[0], row[1], int(row[2])) for row in connection.execute(_ABANDONED)]


def stress_runs_to_sweep(
    engine: Engine, *, queued_before: datetime, lease_lapsed_before: datetime
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """(organization id, run id) of every stress run requested over HTTP that needs its job
    again, oldest first: ``queued`` since before ``queued_before`` (waiting for a slot, or its
    job lost), or ``running`` under a lease last renewed before ``lease_lapsed_before`` (its
    executor died).  Runs the CLI ran itself (no ``request``) are not jobs and never swept."""
    runs = t.stress_runs
    lease = func.coalesce(runs.c.heartbeat_at, runs.c.started_at)
    query = (
        select(runs.c.organization_id, runs.c.id)
        .where(
            runs.c.request.is_not(None),
            or_(
                and_(runs.c.status == "queued", runs.c.created_at < queued_before),
                and_(runs.c.status == "running", lease < lease_lapsed_before),
            ),
        )
        .order_by(runs.c.created_at, runs.c.id)
    )
    with read_connection(engine) as connection:
        return [(row[0], row[1]) for row in connection.execute(query)]


def organization_ids(engine: Engine) -> list[uuid.UUID]:
    """Every organization's id (the periodic duties visit each)."""
    with read_connection(engine) as connection:
        return list(
            connection.execute(select(t.organizations.c.id).order_by(t.organizations.c.created_at)).scalars()
        )
