"""Appeals (document 004 §5.4, §6.2 "Appeals"; SCORING.md §2.4).

Filed by the agent's operator (``assessments:write``) within the organization's appeal window
(14 days) against dimensions the assessment scored, with a justification and counter-evidence
naming tasks of the assessment — otherwise 422 ``APPEAL_NOT_ALLOWED`` saying why.  Resolved by
an auditor (``auditor`` scope): ``accepted`` re-scores only the challenged dimensions without
the counter-evidenced tasks and supersedes the badge issued for the old scores; ``rejected``
changes nothing but the record (:mod:`aaaf.services.appeals`, as ``aaaf appeal``).
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import Field

from aaaf.api.deps import AssessmentWriter, Auditor, NowDep, Reader, StoreDep
from aaaf.api.models import Request
from aaaf.api.pagination import CursorQuery, LimitQuery, keyset_page, time_id_after, time_key
from aaaf.models.appeal import Appeal as AppealOut
from aaaf.models.appeal import AppealPage
from aaaf.services import appeals as appeal_service
from aaaf.services.assessment_jobs import issue_badge_of
from aaaf.store import Appeal

router = APIRouter(prefix="/api/v1/assessments/{assessment_id}/appeals", tags=["appeals"])


class CounterEvidence(Request):
    task_id: str = Field(min_length=1)
    claim: str = Field(min_length=1)


class AppealCreate(Request):
    """docs/api.md appeal request."""

    dimensions_challenged: list[str] = Field(min_length=1)
    justification: str = Field(min_length=1)
    counter_evidence: list[CounterEvidence] = Field(min_length=1)


class AppealResolution(Request):
    decision: Literal["accepted", "rejected"]
    notes: str | None = None


@router.post("", status_code=201, response_model=AppealOut, operation_id="file_appeal")
def file_appeal(assessment_id: str, body: AppealCreate, org: AssessmentWriter, now: NowDep) -> AppealOut:
    """File an appeal against an assessment (status ``filed``)."""
    appeal: Appeal = appeal_service.file_appeal(
        org,
        assessment_id,
        dimensions=body.dimensions_challenged,
        justification=body.justification,
        counter_evidence=[item.model_dump() for item in body.counter_evidence],
        now=now,
    )
    return AppealOut(**appeal.to_dict())


@router.get("", response_model=AppealPage, operation_id="list_appeals")
def list_appeals(
    assessment_id: str, org: Reader, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> AppealPage:
    """The assessment's appeals, oldest first (docs/api.md list; paged in SQL)."""
    rows = appeal_service.appeals_after(org, assessment_id, after=time_id_after(cursor), limit=limit + 1)
    return keyset_page(
        rows,
        limit=limit,
        key=lambda a: [time_key(a.filed_at), str(a.id)],
        render=lambda a: a.to_dict(),
        page=AppealPage,
    )


@router.get("/{appeal_id}", response_model=AppealOut, operation_id="get_appeal")
def get_appeal(assessment_id: str, appeal_id: str, org: Reader) -> AppealOut:
    return AppealOut(**appeal_service.appeal_of(org, assessment_id, appeal_id).to_dict())


@router.post("/{appeal_id}/resolve", response_model=AppealOut, operation_id="resolve_appeal")
def resolve_appeal(
    assessment_id: str, appeal_id: str, body: AppealResolution, org: Auditor, store: StoreDep, now: NowDep
) -> AppealOut:
    """Accept (re-score the challenged dimensions, supersede the old badge and issue one with
    the corrected scores) or reject an appeal."""
    appeal = appeal_service.appeal_of(org, assessment_id, appeal_id)
    resolved: Appeal = appeal_service.resolve_appeal(
        org, str(appeal.id), decision=body.decision, notes=body.notes, now=now
    )
    if resolved.status == "accepted":
        issue_badge_of(store, org.organization_id, resolved.assessment_id, now=now)
    return AppealOut(**resolved.to_dict())
