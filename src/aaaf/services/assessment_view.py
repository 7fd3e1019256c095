"""An assessment as its public shape (document 004 §6.2; docs/api.md "Assessments"): what
``GET /api/v1/assessments/{id}`` answers and ``--json`` prints."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from aaaf.models import Assessment, AuditSummary, AxisScore, BadgeUrls, DimensionScore, EvidenceSources, dump
from aaaf.models.assessment import Uncertainty
from aaaf.services.context import ServiceContext, context_or_default

if TYPE_CHECKING:
    from aaaf.store import OrgStore
    from aaaf.store.records import Assessment as AssessmentRecord


class _Optional(TypedDict, total=False):
    """The assessment object's conditional fields: absent, not null, when not given."""

    audit: AuditSummary
    evidence_sources: EvidenceSources
    type: str
    dimension: str
    window_start: str | None
    window_end: str | None
    anomalous: bool
    review_state: str | None
    error: dict[str, object]
    appeals: list[dict[str, object]]
    status_detail: str


def assessment_model(
    assessment: AssessmentRecord,
    *,
    extended: bool = False,
    appeals: list[dict[str, object]] | None = None,
    context: ServiceContext | None = None,
) -> Assessment:
    """The assessment object of document 004 §6.2 (GET /api/v1/assessments/{id}) as its public
    shape :class:`aaaf.models.Assessment`.

    Exactly its fields, plus ``covered``/``total`` per composite and the SCORING.md §0
    traceability fields of each dimension; a dimension without evidence is an object whose
    ``score`` is null.  ``extended`` adds the record's type, window, calibration hold and error
    (for listings such as ``aaaf assessments``); ``appeals`` the appeals on record.  The
    badge URLs start with the context's ``public_base_url``.
    """
    result = assessment.result or {}
    axes: dict[str, AxisScore | None] = {}
    for axis in ("performance", "capability"):
        data = result.get(axis)
        axes[axis] = (
            None
            if data is None
            else AxisScore(
                composite_score=data.get("composite_score"),
                tier=data.get("tier"),
                covered=data.get("covered"),
                total=data.get("total"),
                # SCORING.md §2.5: {ci, tier_probabilities, resamples, insufficient}; null when
                # the assessment was made without it (--no-uncertainty, a single dimension)
                uncertainty=Uncertainty.model_validate(data["uncertainty"])
                if data.get("uncertainty") is not None
                else None,
                dimensions={
                    name: DimensionScore.model_validate(value)
                    for name, value in data.get("dimensions", {}).items()
                },
            )
        )
    fields: _Optional = {}
    if result.get("audit") is not None:
        fields["audit"] = AuditSummary.model_validate(result["audit"])  # SCORING.md §2.6
    if result.get("evidence_sources") is not None:  # stress-tested here or reported, per axis
        fields["evidence_sources"] = EvidenceSources.model_validate(result["evidence_sources"])
    settings = context_or_default(context).settings
    base = f"{settings.public_base_url.rstrip('/')}/api/v1/badges/{assessment.id}"
    if extended:
        fields["type"] = assessment.type
        if assessment.dimension:
            fields["dimension"] = assessment.dimension
        fields["window_start"] = _iso(assessment.window_start)
        fields["window_end"] = _iso(assessment.window_end)
        fields["anomalous"] = bool(assessment.anomalous)
        fields["review_state"] = assessment.review_state
        if assessment.error:
            fields["error"] = dict(assessment.error)
    if appeals is not None:
        fields["appeals"] = appeals
    if assessment.status == "pending":  # nothing scores it until a worker takes its job (docs/jobs.md)
        from aaaf.services.queue_health import WAITING_FOR_A_WORKER

        fields["status_detail"] = WAITING_FOR_A_WORKER
    return Assessment(
        id=str(assessment.id),
        agent_id=str(assessment.agent_id),
        status=assessment.status,
        performance=axes["performance"],
        capability=axes["capability"],
        badge_urls=BadgeUrls.model_validate(
            {"svg": f"{base}.svg", "png": f"{base}.png", "json": f"{base}.json"}
        ),
        valid_until=_iso(assessment.valid_until),
        created_at=_iso(assessment.created_at),
        completed_at=_iso(assessment.completed_at),
        **fields,
    )


def assessment_of(org: OrgStore, assessment_id: uuid.UUID | str) -> Assessment:
    """One of the organization's assessments by id, extended (``NOT_FOUND`` for another's)."""
    return assessment_model(org.get_assessment(assessment_id), extended=True)


def assessments_page(
    org: OrgStore,
    *,
    agent_ref: str | None,
    status: str | None,
    before: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> list[AssessmentRecord]:
    """Assessments newest first before ``before``, of one agent (by name or id) or of all."""
    agent_id = None if agent_ref is None else org.get_agent(agent_ref).id
    return org.assessments_page(agent_id=agent_id, status=status, before=before, limit=limit)


def assessment_json(
    assessment: AssessmentRecord, *, extended: bool = False, context: ServiceContext | None = None
) -> dict[str, Any]:
    """:func:`assessment_model` as JSON-ready data (what ``--json`` prints and the API answers)."""
    return dump(assessment_model(assessment, extended=extended, context=context))


def _iso(ts: datetime | None) -> str | None:
    from aaaf.scoring.results import iso

    return iso(ts) if ts is not None else None
