"""Badges: the public routes (document 004 §6.2 "Badges"; SCORING.md §7 "Public routes").

``GET /api/v1/badges/{assessment_id}/verify`` checks the credential on record (signature
with this installation's issuer key, dates, revocation in the organization's status list)
and answers document 004 §6.2's shape; ``/.well-known/jwks.json`` publishes the issuer's
public keys; ``.svg``/``.png``/``.json``/``.jwt`` serve the badge on record, its pictures
redrawn from the signed credential and baked with it.  None of these needs a key: a badge
is shown to whoever the agent's operator shows it to.

A completed assessment gets its badge right after it is scored (:func:`issue_after_scoring`)
unless it is held for review (SCORING.md §7 "Assessments").
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Response
from pydantic import Field

from aaaf.api.deps import Admin, Auditor, NowDep, PresentedKey, Reader, StoreDep
from aaaf.api.models import Request
from aaaf.errors import AAAFError
from aaaf.models import Assessment
from aaaf.models.badge import BadgeCredential, BadgeOnRecord, BadgeRevocation, Jwks, PublicVerification
from aaaf.services.org_session import ScopedOrg
from aaaf.store import OrgStore, Store

log = logging.getLogger("aaaf.api")

router = APIRouter(tags=["badges"])

MEDIA_TYPES = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "json": "application/json",
    "jwt": "application/jwt",
}


# the dashboard (api/web) builds the badge services' session under this name
OrgSession = ScopedOrg


def issue_after_scoring(store: Store, org: OrgStore, assessment_id: uuid.UUID, now: datetime) -> None:
    """Issue the badge of a just-completed assessment; a held or refused one is only logged
    (the assessment record says why: its review state)."""
    from aaaf.services import badges as badge_service

    try:
        badge_service.issue(ScopedOrg(store, org, org.organization()), assessment_id, now=now)
    except AAAFError as error:
        log.info("no badge for assessment %s: %s %s", assessment_id, error.code, error.message)


def _shown_to(store: Store, assessment_id: str, key: str | None, now: datetime) -> bool:
    """Whether the badge's pictures and credential may be served to this request: a public
    badge to anyone, a private one only to a key (``read``) of its organization."""
    from aaaf.services.keys import authenticate
    from aaaf.store.repositories.badge_visibility import public_badge_visibility

    visibility, organization_id = public_badge_visibility(store.engine, assessment_id)
    if visibility == "public":
        return True
    if key is None:
        return False
    try:
        principal = authenticate(store, key, now=now)
    except AAAFError:
        return False
    return principal.organization_id == organization_id and principal.holds("read")


def _rendered(store: Store, assessment_id: str, fmt: str, key: str | None, now: datetime) -> Response:
    from aaaf.services import badges as badge_service

    badge = store.find_badge(assessment_id)
    if badge is None or not badge.credential_jwt or not _shown_to(store, assessment_id, key, now):
        raise AAAFError(
            "NOT_FOUND",
            f"No badge for assessment {assessment_id}.",
            {"resource": "badge", "id": assessment_id},
        )
    return Response(badge_service.stored_badge(badge).render(fmt), media_type=MEDIA_TYPES[fmt])


@router.get(
    "/api/v1/badges/{assessment_id}/verify",
    response_model=PublicVerification,
    response_model_exclude_unset=True,
    operation_id="verify_badge",
)
def verify_badge(assessment_id: str, store: StoreDep, now: NowDep) -> dict[str, Any]:
    """Verify a badge (public): docs/api.md answer, plus ``revoked``, ``reason`` and
    ``evidence_sources`` (per axis, the tasks stress-tested by the issuer and those reported)."""
    from aaaf.services import badge_revocation as revocation
    from aaaf.store.repositories.badge_visibility import public_badge_visibility

    result = revocation.verify_issued(store, assessment_id, now)
    if public_badge_visibility(store.engine, assessment_id)[0] == "private":
        # a private badge: whether it is valid, and nothing about whom it names
        return {"valid": result.valid, "assessment_id": assessment_id, "visibility": "private"}
    subject = result.subject or {}
    return {
        "valid": result.valid,
        "assessment_id": subject.get("assessment_id") or assessment_id,
        "agent_name": (subject.get("agent") or {}).get("name"),
        "organization": (subject.get("organization") or {}).get("name"),
        "performance_tier": (subject.get("performance") or {}).get("tier"),
        "capability_tier": (subject.get("capability") or {}).get("tier"),
        # how much of each axis's evidence the issuer stress-tested itself, and how much the
        # organization reported (docs/stress-tests.md "Provenance"); null: the badge does not say
        "evidence_sources": subject.get("evidence_sources"),
        "issued": subject.get("issued"),
        "valid_until": subject.get("valid_until"),
        "expired": result.expired,
        "revoked": result.revoked,
        "reason": result.reason,
    }


@router.get("/.well-known/jwks.json", response_model=Jwks, operation_id="get_jwks")
def get_jwks(store: StoreDep) -> dict[str, Any]:
    """The issuer's public keys (JWK Set, RFC 7517), to verify badges offline."""
    from aaaf.badges.keys import jwks
    from aaaf.services.issuer import issuer_public_keys

    return jwks(issuer_public_keys(store))


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

    organization = store.get_organization(org_id)
    session = ScopedOrg(store, store.scope(organization.id), organization)
    return Response(revocation.status_list_token(session, now), media_type="application/jwt")


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
) -> dict[str, Any]:
    """Revoke the assessment's badge (``admin``): its bit is set in the organization's status
    list with when and why, so every copy handed out verifies as revoked from now on."""
    from aaaf.services import badge_revocation as revocation

    session = ScopedOrg(store, org, org.organization())
    badge, _ = revocation.revoke(session, assessment_id, reason=body.reason, now=now)
    return {
        "assessment_id": str(badge.assessment_id),
        "revoked": badge.revoked,
        "revoked_at": None if badge.revoked_at is None else badge.revoked_at.isoformat(),
        "revoke_reason": badge.revoke_reason,
    }


@router.post(
    "/api/v1/badges/{assessment_id}/review",
    response_model=Assessment,
    response_model_exclude_unset=True,
    operation_id="review_badge",
)
def review_badge(
    assessment_id: str, body: Review, org: Auditor, store: StoreDep, now: NowDep
) -> dict[str, Any]:
    """Decide a badge held for review (an anomalous assessment, docs/scoring.md §3.7; ``auditor``):
    ``approve`` issues it, ``reject`` means it is never issued.  409 when nothing is held."""
    from aaaf.services import assess as assess_service
    from aaaf.services import badges as badge_service

    session = ScopedOrg(store, org, org.organization())
    decided = badge_service.review(
        session, assessment_id, approve=body.decision == "approve", reviewer=body.reviewer, now=now
    )
    if decided.review_state == "approved":
        issue_after_scoring(store, org, decided.id, now)
    return assess_service.assessment_json(org.get_assessment(decided.id), extended=True)


def _format_route(fmt: str) -> None:
    def get_badge_file(assessment_id: str, store: StoreDep, now: NowDep, key: PresentedKey) -> Response:
        return _rendered(store, assessment_id, fmt, key, now)

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
def get_badge(assessment_id: str, org: Reader) -> dict[str, Any]:
    """The badge record of one of the organization's assessments (``read``): its latest
    credential, status-list bit, dates, revocation and visibility."""
    return {**org.get_badge(assessment_id).to_dict(), "visibility": org.badge_visibility(assessment_id)}


class VisibilityChange(Request):
    visibility: Literal["public", "private"]


@router.patch(
    "/api/v1/badges/{assessment_id}",
    response_model=BadgeOnRecord,
    response_model_exclude_unset=True,
    operation_id="update_badge",
)
def update_badge(assessment_id: str, body: VisibilityChange, org: Admin, now: NowDep) -> dict[str, Any]:
    """Make a badge public or private (``admin``).  A private badge's public
    ``verify`` answers only ``valid``, and its ``.svg``/``.png``/``.json``/``.jwt`` are 404
    without a key of the organization.  The visibility holds for the assessment's badge
    whether or not it is issued yet (and for a re-issue after an appeal)."""
    org.set_badge_visibility(assessment_id, body.visibility, at=now)
    try:
        record = org.get_badge(assessment_id).to_dict()
    except AAAFError:  # not issued (yet): the visibility waits for it
        record = {"assessment_id": assessment_id}
    return {**record, "visibility": org.badge_visibility(assessment_id)}
