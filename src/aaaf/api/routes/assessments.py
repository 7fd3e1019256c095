"""Assessments (document 004 §6.2 "Assessments"; SCORING.md §7 "Assessments").

A trigger checks at once what can be checked — the type, the dimension, the agent, the
minimum evidence (422 ``INSUFFICIENT_EVIDENCE``), an assessment already running (409
``ASSESSMENT_IN_PROGRESS``, enforced by the database) — records the assessment ``pending``
with its job in one transaction and answers 202; a worker (``aaaf worker`` on PostgreSQL,
the server's own job thread on SQLite; issue 14) scores it, and the record turns
``in_progress``, then ``completed`` or ``failed``; the badge is issued by a job of its own.
``stress_test_only`` and ``include_stress_test`` need the stress-test harness: 501
``NOT_IMPLEMENTED`` until it is wired.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from aaaf.api.deps import AssessmentWriter, JobQueueDep, NowDep, Reader
from aaaf.api.models import AssessmentCreate, AssessmentStarted, Page
from aaaf.api.pagination import CursorQuery, LimitQuery, paginate, time_key
from aaaf.errors import AAAFError
from aaaf.scoring.results import iso
from aaaf.services import assess as assess_service
from aaaf.services import assessment_jobs

log = logging.getLogger("aaaf.api")

router = APIRouter(prefix="/api/v1/assessments", tags=["assessments"])


def _moment(value: str | None, field: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise AAAFError(
            "INVALID_REQUEST", f"{field}: {value!r} is not an RFC 3339 timestamp.", {"field": field}
        ) from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


@router.post("", status_code=202, response_model=AssessmentStarted, operation_id="create_assessment")
def create_assessment(
    body: AssessmentCreate, org: AssessmentWriter, queue: JobQueueDep, now: NowDep
) -> dict[str, Any]:
    """Trigger an assessment; poll ``GET /api/v1/assessments/{id}`` until it is completed."""
    if body.type == "stress_test_only" or body.include_stress_test:
        raise AAAFError(
            "NOT_IMPLEMENTED",
            "Stress tests are not available on this server yet; use type passive_only,"
            " full or single_dimension without include_stress_test.",
            {"field": "include_stress_test" if body.include_stress_test else "type"},
        )
    if body.window_start is not None:
        raise AAAFError(
            "INVALID_REQUEST",
            "window_start is set by the organization's assessment_window_days; give window_end only.",
            {"field": "window_start"},
        )
    agent = org.get_agent(body.agent_id)
    if agent.status == "archived":
        raise AAAFError(
            "CONFLICT", f"Agent {agent.id} is archived and cannot be assessed.", {"status": "archived"}
        )
    window_end = _moment(body.window_end, "window_end")
    record = assessment_jobs.trigger_assessment(
        org,
        agent,
        queue,
        now=now,
        assessment_type=body.type,
        dimension=body.dimension,
        window_end=window_end,
    )
    return {
        "id": str(record.id),
        "agent_id": str(record.agent_id),
        "status": record.status,
        "type": record.type,
        "created_at": iso(record.created_at),
    }


@router.post("/{assessment_id}/stress-test", operation_id="run_stress_test")
def run_stress_test(assessment_id: str, org: AssessmentWriter) -> dict[str, Any]:
    """Document 004 §6.2's stress test of an assessment: 501 ``NOT_IMPLEMENTED`` until the
    stress-test harness is wired (another organization's assessment is 404 first)."""
    assessment = org.get_assessment(assessment_id)
    raise AAAFError(
        "NOT_IMPLEMENTED",
        "Stress tests are not available on this server yet.",
        {"assessment_id": str(assessment.id)},
    )


@router.get("/{assessment_id}", operation_id="get_assessment")
def get_assessment(assessment_id: str, org: Reader) -> dict[str, Any]:
    """The assessment (document 004 §6.2's result shape once completed)."""
    return assess_service.assessment_json(org.get_assessment(assessment_id), extended=True)


@router.get("", operation_id="list_assessments")
def list_assessments(
    org: Reader,
    agent_id: Annotated[str | None, Query(description="Only this agent's assessments.")] = None,
    status: Annotated[Literal["pending", "in_progress", "completed", "failed"] | None, Query()] = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
) -> Page[dict[str, Any]]:
    """Assessments, newest first."""
    agent = None if agent_id is None else org.get_agent(agent_id)
    records = org.assessments(agent.id if agent else None, status=status)
    page = paginate(
        records,
        key=lambda r: [time_key(r.created_at), str(r.id)],
        cursor=cursor,
        limit=limit,
        descending=True,
        render=lambda r: assess_service.assessment_json(r, extended=True),
    )
    return Page[dict[str, Any]](**page)
