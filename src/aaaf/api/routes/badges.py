"""Badges: the public routes (document 004 §6.2 "Badges"; SCORING.md §7 "Public routes").

``GET /api/v1/badges/{assessment_id}/verify`` checks the credential on record (signature
with this installation's issuer key, dates, revocation in the organization's status list)
and answers document 004 §6.2's shape; ``/.well-known/jwks.json`` publishes the issuer's
public keys; ``.svg``/``.png``/``.json``/``.jwt`` serve the badge on record, its pictures
redrawn from the signed credential and baked with it.  None of these needs a key: a badge
is shown to whoever the agent's operator shows it to.

A completed assessment gets its badge right after it is scored
(:func:`aaaf.services.assessment_jobs.issue_badge_of`) unless it is held for review
(SCORING.md §7 "Assessments").
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Response
from pydantic import Field

from aaaf.api.deps import Admin, Auditor, NowDep, PresentedKey, Reader, StoreDep
from aaaf.api.models import Request
from aaaf.models import Assessment
from aaaf.models.badge import BadgeCredential, BadgeOnRecord, BadgeRevocation, Jwks, PublicVerification
from aaaf.services.assessment_jobs import issue_badge_of
from aaaf.services.org_session import org_session, org_session_by_id

router = APIRouter(tags=["badges"])

MEDIA_TYPES = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "json": "application/json",
    "jwt": "application/jwt",
}


@router.get(
    "/api/v1/badges/{assessment_id}/verify",
    response_model=PublicVerification,
    response_model_exclude_unset=True,
    operation_id="verify_badge",
)
def verify_badge(assessment_id: str, store: StoreDep, now: NowDep) -> PublicVerification:
    """Verify a badge (public): docs/api.md answer, plus ``revoked``, ``reason`` and
    ``evidence_sources`` (per axis, the tasks stress-tested by the issuer and those reported)."""
    from aaaf.services.badge_records import public_verification

    return public_verification(store, assessment_id, now)


@router.get("/.well-known/jwks.json", response_model=Jwks, operation_id="get_jwks")
def get_jwks(store: StoreDep) -> Jwks:
    """The issuer's public keys (JWK Set, RFC 7517), to verify badges offline."""
    from aaaf.badges.keys import jwks
    from aaaf.services.issuer import issuer_public_keys

    return Jwks.model_validate(jwks(issuer_public_keys(store)))


@router.get(
    "/api/v1/organizations/{org_id}/status-list",
    operation_id="get_status_list",
    response_class=Response,
    responses={
        200: {
            "content": {
                "application/jwt": {
                    "schema": {
                        "type": "string",
                        "description": "A signed Bitstring Status List credential (VC-JWT).",
                    }
                }
            }
        }
    },
)
def get_status_list(org_id: str, store: StoreDep, now: NowDep) -> Response:
    """The organization's revocation list (a signed Bitstring Status List credential, VC-JWT),
    which badge verifiers fetch from the URL each credential names (public)."""
    from aaaf.services import badge_revocation as revocation

    return Response(
        revocation.status_list_token(org_session_by_id(store, org_id), now), media_type="application/jwt"
    )


class Revocation(Request):
    reason: str = Field(min_length=1, max_length=500)


class Review(Request):
    decision: Literal["approve", "reject"]
    reviewer: str | None = Field(default=None, max_length=200)


@router.post(
    "/api/v1/badges/{assessment_id}/revoke", response_model=BadgeRevocation, operation_id="revoke_badge"
)
def revoke_badge(
    assessment_id: str, body: Revocation, org: Admin, store: StoreDep, now: NowDep
) -> BadgeRevocation:
    """Revoke the assessment's badge (``admin``): its bit is set in the organization's status
    list with when and why, so every copy handed out verifies as revoked from now on."""
    from aaaf.services import badge_revocation as revocation

    session = org_session(store, org)
    badge, _ = revocation.revoke(session, assessment_id, reason=body.reason, now=now)
    return BadgeRevocation(
        assessment_id=str(badge.assessment_id),
        revoked=badge.revoked,
        revoked_at=None if badge.revoked_at is None else badge.revoked_at.isoformat(),
        revoke_reason=badge.revoke_reason,
    )


@router.post(
    "/api/v1/badges/{assessment_id}/review",
    response_model=Assessment,
    response_model_exclude_unset=True,
    operation_id="review_badge",
)
def review_badge(assessment_id: str, body: Review, org: Auditor, store: StoreDep, now: NowDep) -> Assessment:
    """Decide a badge held for review (an anomalous assessment, docs/scoring.md §3.7; ``auditor``):
    ``approve`` issues it, ``reject`` means it is never issued.  409 when nothing is held."""
    from aaaf.services import badges as badge_service
    from aaaf.services.assessment_view import assessment_of

    session = org_session(store, org)
    decided = badge_service.review(
        session, assessment_id, approve=body.decision == "approve", reviewer=body.reviewer, now=now
    )
    if decided.review_state == "approved":
        issue_badge_of(store, org.organization_id, decided.id, now=now)
    return assessment_of(org, decided.id)


def _format_route(fmt: str) -> None:
    def get_badge_file(assessment_id: str, store: StoreDep, now: NowDep, key: PresentedKey) -> Response:
        from aaaf.services.badge_records import shown_badge

        return Response(shown_badge(store, assessment_id, fmt, key, now), media_type=MEDIA_TYPES[fmt])

    get_badge_file.__doc__ = (
        f"The badge on record as {fmt.upper()} (public; a private badge only to a key of its organization)."
    )
    router.add_api_route(
        f"/api/v1/badges/{{assessment_id}}.{fmt}",
        get_badge_file,
        methods=["GET"],
        operation_id=f"get_badge_{fmt}",
        response_class=Response,
        responses={200: {"model": BadgeCredential} if fmt == "json" else {"content": {MEDIA_TYPES[fmt]: {}}}},
    )


for _fmt in MEDIA_TYPES:
    _format_route(_fmt)


# after the .svg/.png/.json/.jwt routes: `{assessment_id}` alone would also match "<id>.svg"
@router.get(
    "/api/v1/badges/{assessment_id}",
    response_model=BadgeOnRecord,
    response_model_exclude_unset=True,
    operation_id="get_badge",
)
def get_badge(assessment_id: str, org: Reader) -> BadgeOnRecord:
    """The badge record of one of the organization's assessments (``read``): its latest
    credential, status-list bit, dates, revocation and visibility."""
    from aaaf.services.badge_records import badge_on_record

    return badge_on_record(org, assessment_id)


class VisibilityChange(Request):
    visibility: Literal["public", "private"]


@router.patch(
    "/api/v1/badges/{assessment_id}",
    response_model=BadgeOnRecord,
    response_model_exclude_unset=True,
    operation_id="update_badge",
)
def update_badge(assessment_id: str, body: VisibilityChange, org: Admin, now: NowDep) -> BadgeOnRecord:
    """Make a badge public or private (``admin``).  A private badge's public
    ``verify`` answers only ``valid``, and its ``.svg``/``.png``/``.json``/``.jwt`` are 404
    without a key of the organization.  The visibility holds for the assessment's badge
    whether or not it is issued yet (and for a re-issue after an appeal)."""
    from aaaf.services.badge_records import set_visibility

    return set_visibility(org, assessment_id, body.visibility, now=now)
