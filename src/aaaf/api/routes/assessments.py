"""Assessments (document 004 §6.2 "Assessments"; SCORING.md §7 "Assessments").

A trigger checks at once what can be checked — the type, the dimension, the agent, the
minimum evidence (422 ``INSUFFICIENT_EVIDENCE``), an assessment already running (409
``ASSESSMENT_IN_PROGRESS``, enforced by the database) — records the assessment ``pending``
with its job in one transaction and answers 202; a worker (``aaaf worker`` on PostgreSQL,
the server's own job thread on SQLite; issue 14) scores it, and the record turns
``in_progress``, then ``completed`` or ``failed``; the badge is issued by a job of its own.
``stress_test_only`` scores the agent's stored stress-test evidence alone, as ``aaaf assess NAME
--type stress_test_only`` does (the same service; 422 ``INSUFFICIENT_EVIDENCE`` at once when the
agent has none); ``POST /{id}/stress-test`` queues a run of the library against an agent's
endpoint (a job, like a trigger: :mod:`aaaf.services.stress_jobs`) and the next ``full`` /
``stress_test_only`` assessment merges the run.  ``include_stress_test`` stays
501 ``NOT_IMPLEMENTED``: the trigger names no endpoint to run the library against.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from aaaf.api.deps import AssessmentWriter, ContextDep, JobQueueDep, NowDep, Reader, StoreDep
from aaaf.api.models import AssessmentCreate, AssessmentStarted, Page
from aaaf.api.pagination import CursorQuery, LimitQuery, keyset_page, time_id_after, time_key
from aaaf.api.usage import MeterDep
from aaaf.errors import AAAFError
from aaaf.models import Assessment
from aaaf.models.changes import AssessmentChanges
from aaaf.models.stress_run import StressRunQueued
from aaaf.scoring.results import iso
from aaaf.services import assessment_jobs
from aaaf.services.agents import assessable_agent
from aaaf.services.assessment_view import assessment_model, assessment_of, assessments_page

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
    body: AssessmentCreate, org: AssessmentWriter, queue: JobQueueDep, now: NowDep, meter: MeterDep
) -> AssessmentStarted:
    """Trigger an assessment; poll ``GET /api/v1/assessments/{id}`` until it is completed."""
    if body.include_stress_test:
        raise AAAFError(
            "NOT_IMPLEMENTED",
            "include_stress_test cannot run stress tests from a trigger (it names no agent endpoint):"
            " run them with POST /api/v1/assessments/{assessment_id}/stress-test, then trigger a"
            " full or stress_test_only assessment, which merges the run.",
            {"field": "include_stress_test"},
        )
    if body.window_start is not None:
        raise AAAFError(
            "INVALID_REQUEST",
            "window_start is set by the organization's assessment_window_days; give window_end only.",
            {"field": "window_start"},
        )
    agent = assessable_agent(org, body.agent_id)
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
    meter.add(org.organization_id, now, "assessments_run")
    return AssessmentStarted(
        id=str(record.id),
        agent_id=str(record.agent_id),
        status=record.status,
        type=record.type,
        created_at=iso(record.created_at),
    )


class StressTestRequest(BaseModel):
    """An agent reached over HTTP (never a command on the server): an OpenAI-compatible
    chat-completions endpoint with tool calling, and the run's own key for it."""

    model_config = ConfigDict(extra="forbid")
    agent_url: str = Field(min_length=1, max_length=2000)
    model: str = Field(min_length=1, max_length=200)
    dimension: str | None = Field(default=None, max_length=100)
    task_ids: list[Annotated[str, Field(max_length=120)]] | None = Field(default=None, max_length=1000)
    parallel: int = Field(default=4, ge=1, le=16)
    agent_api_key: SecretStr | None = Field(
        default=None,
        min_length=1,
        max_length=4096,
        description=(
            "Sent as `Authorization: Bearer …` to `agent_url` and nowhere else; sealed at rest with "
            "the installation's secret until the run ends, never returned or logged."
        ),
    )


@router.post(
    "/{assessment_id}/stress-test",
    response_model=StressRunQueued,
    operation_id="run_stress_test",
    status_code=202,
)
def run_stress_test(
    assessment_id: str,
    body: StressTestRequest,
    org: AssessmentWriter,
    store: StoreDep,
    queue: JobQueueDep,
    context: ContextDep,
    now: NowDep,
) -> StressRunQueued:
    """docs/api.md stress test of an assessment: the library against the assessment's agent at
    ``agent_url`` (checked like a webhook target), queued as a job (a worker runs it, never this
    process); 202 with the run ``queued`` — poll ``GET /api/v1/stress-runs/{id}`` — whose
    evidence the agent's next ``full`` or ``stress_test_only`` assessment merges.  Refused at
    once: another organization's assessment (404), a URL, a selection without tasks (400), tasks
    that execute code without a sandbox (503 ``SANDBOX_UNAVAILABLE``; docs/stress-tests.md)."""
    from aaaf.services import stress_jobs
    from aaaf.services.stress import stress_run_model

    request = stress_jobs.StressRequest(
        agent_url=body.agent_url,
        model=body.model,
        dimension=body.dimension,
        task_ids=None if body.task_ids is None else tuple(body.task_ids),
        parallel=body.parallel,
    )
    api_key = None if body.agent_api_key is None else body.agent_api_key.get_secret_value()
    assessment, run = stress_jobs.queue_assessment_stress_run(
        org,
        store,
        assessment_id,
        queue,
        request,
        api_key=api_key,
        settings=context.settings,
        now=now,
    )
    return StressRunQueued(stress_run=stress_run_model(run), assessment_id=str(assessment.id))


@router.get(
    "/{assessment_id}",
    response_model=Assessment,
    response_model_exclude_unset=True,
    operation_id="get_assessment",
)
def get_assessment(assessment_id: str, org: Reader) -> Assessment:
    """The assessment (docs/api.md result shape once completed)."""
    return assessment_of(org, assessment_id)


@router.get(
    "/{assessment_id}/changes",
    response_model=AssessmentChanges,
    response_model_exclude_unset=True,
    operation_id="get_assessment_changes",
)
def get_assessment_changes(assessment_id: str, org: Reader) -> AssessmentChanges:
    """What changed since the agent's previous assessment, per dimension, and why: new
    evidence, coverage gained or lost and the weights renormalised, configuration changes."""
    from aaaf.services.changes import assessment_changes

    return assessment_changes(org, assessment_id)


@router.get(
    "", response_model=Page[Assessment], response_model_exclude_unset=True, operation_id="list_assessments"
)
def list_assessments(
    org: Reader,
    agent_id: Annotated[str | None, Query(description="Only this agent's assessments.")] = None,
    status: Annotated[Literal["pending", "in_progress", "completed", "failed"] | None, Query()] = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
) -> Page[Assessment]:
    """Assessments, newest first."""
    records = assessments_page(
        org, agent_ref=agent_id, status=status, before=time_id_after(cursor), limit=limit + 1
    )
    return keyset_page(
        records,
        limit=limit,
        key=lambda r: [time_key(r.created_at), str(r.id)],
        render=lambda r: assessment_model(r, extended=True),
        page=Page[Assessment],
    )
