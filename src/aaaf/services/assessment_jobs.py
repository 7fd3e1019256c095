"""Assessments off the request path (issue 14; document 004 §5.1 step 6, §5.2 steps 5-6).

* :func:`trigger_assessment` — the API's trigger: checks what can be checked at once, records
  the assessment ``pending`` and queues its job in the same transaction (a server killed
  mid-trigger leaves both or neither); ``ASSESSMENT_IN_PROGRESS`` when the agent already has
  one pending or running (the partial unique index ``uq_assessments_one_running``).
* :func:`run_triggered_assessment` — the job: idempotent.  It claims the assessment
  (``pending`` → ``in_progress``); one already ``completed`` or ``failed`` (a job run again
  after its worker died past the commit) is left as it is; the scores, dimension rows and
  evidence are written in one transaction whose UPDATE re-checks the status, so the result is
  stored once however many times the job runs.
* :func:`issue_badge_of` — the badge job: issuing is idempotent (``services.badges.issue``
  re-renders a current credential); a held, rejected or superseded assessment gets none.
* :func:`requeue_pending` — the sweep's half of the outbox: a ``pending`` assessment older
  than ``grace`` whose job was lost is queued again (the queue refuses a duplicate).

The clock is the caller's (``now``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from aaaf.errors import AAAFError
from aaaf.services import assess as assess_service
from aaaf.services.job_port import JobQueue
from aaaf.store.availability import database_unavailable

log = logging.getLogger(__name__)


def trigger_assessment(
    org: Any,
    agent: Any,
    queue: JobQueue,
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
) -> Any:
    """Check, record ``pending`` and queue an assessment, in one transaction (module docstring)."""
    events = org.events(agent.id)
    with org.unit_of_work() as uow:
        record = assess_service.start_assessment(
            uow,
            agent,
            events,
            now=now,
            assessment_type=assessment_type,
            dimension=dimension,
            window_end=window_end,
            status="pending",
        )
        uow.in_transaction(
            lambda connection: queue.defer_assessment(connection, org.organization_id, record.id)
        )
    return record


@dataclass(frozen=True)
class _Session:
    """The (store, org, organization) triple :mod:`aaaf.services.badges` takes."""

    store: Any
    org: Any
    organization: Any


def run_triggered_assessment(
    store: Any,
    organization_id: uuid.UUID,
    assessment_id: uuid.UUID,
    *,
    now: datetime,
    after_claim: Callable[[], None] | None = None,
) -> Any:
    """Score a triggered assessment once (module docstring); returns the assessment as stored.

    A failure of the scoring is recorded on the assessment (``failed`` with its error) and
    not raised: the job is done either way.  A database that cannot be reached is not a
    failure of the scoring: that error is raised, and the queue runs the job again with backoff
    (docs/jobs.md "When the database goes away"); the assessment stays as it was."""
    org = store.scope(organization_id)
    record = org.claim_assessment(assessment_id)
    if record.status not in ("pending", "in_progress"):
        log.info("assessment %s is already %s: nothing to do", assessment_id, record.status)
        return record
    if after_claim is not None:
        after_claim()
    try:
        agent = org.get_agent(record.agent_id)
        previous = org.latest_completed_assessment(agent.id)
        return assess_service.score_assessment(
            org, agent, record, org.events(agent.id), now=now, previous=previous
        )
    except AAAFError as error:
        current = org.get_assessment(assessment_id)
        if current.status == "completed":  # another run of this job stored it first
            return current
        log.info("assessment %s failed: %s", assessment_id, error.code)
        return current
    except Exception as error:
        if database_unavailable(error):
            log.warning(
                "assessment %s: database unavailable, the job will run again: %s", assessment_id, error
            )
            raise
        log.exception("assessment %s failed unexpectedly", assessment_id)
        current = org.get_assessment(assessment_id)
        if current.status in ("pending", "in_progress"):
            current = assess_service.fail_and_emit(  # assessment.failed (document 004 §6.3)
                org,
                assessment_id,
                error={"code": "INTERNAL_ERROR", "message": "scoring failed unexpectedly"},
                now=now,
            )
        return current


def issue_badge_of(store: Any, organization_id: uuid.UUID, assessment_id: uuid.UUID, *, now: datetime) -> Any:
    """Issue a completed assessment's badge (document 004 §5.1 step 6) unless it is held for
    review, rejected, expired or superseded; returns the issued badge or None (logged why)."""
    from aaaf.services import badges as badge_service

    org = store.scope(organization_id)
    try:
        return badge_service.issue(_Session(store, org, org.organization()), assessment_id, now=now)
    except AAAFError as error:
        log.info("no badge for assessment %s: %s %s", assessment_id, error.code, error.message)
        return None


def requeue_pending(store: Any, queue: JobQueue, *, now: datetime, grace: timedelta) -> list[uuid.UUID]:
    """Queue again every assessment still ``pending`` ``grace`` after its trigger (its job was
    lost); returns their ids.  A queue that already holds the job ignores the duplicate."""
    from aaaf.store.job_state import pending_assessments

    requeued = []
    for organization_id, assessment_id in pending_assessments(store.engine, created_before=now - grace):
        org = store.scope(organization_id)
        org.in_transaction(
            lambda connection, o=organization_id, a=assessment_id: queue.defer_assessment(connection, o, a)
        )
        requeued.append(assessment_id)
    if requeued:
        log.warning("queued %d pending assessment(s) again: %s", len(requeued), ", ".join(map(str, requeued)))
    return requeued
