"""The badge on record as the API shows it (document 004 §6.2 "Badges"; SCORING.md §7
"Public routes"): the public verification, the organization's record of a badge and its
visibility, and who may see a badge's pictures and credential.

A private badge's public verification answers only whether it is valid; its pictures and
credential are served only to a key (``read``) of its organization.  The routes are thin
over these.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.models.badge import BadgeOnRecord, PublicVerification

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.store import Store


def public_verification(store: Store, assessment_id: str, now: datetime) -> PublicVerification:
    """The badge on record verified (:func:`aaaf.services.badge_revocation.verify_issued`) and
    what it says: the tiers, the issuer's and the organization's share of the evidence
    (``evidence_sources``), its dates; a private badge says only whether it is valid."""
    from aaaf.services.badge_revocation import verify_issued
    from aaaf.store.repositories.badge_visibility import public_badge_visibility

    result = verify_issued(store, assessment_id, now)
    if public_badge_visibility(store.engine, assessment_id)[0] == "private":
        # a private badge: whether it is valid, and nothing about whom it names
        return PublicVerification(valid=result.valid, assessment_id=assessment_id, visibility="private")
    subject = result.subject or {}
    return PublicVerification(
        valid=result.valid,
        assessment_id=subject.get("assessment_id") or assessment_id,
        agent_name=(subject.get("agent") or {}).get("name"),
        organization=(subject.get("organization") or {}).get("name"),
        performance_tier=(subject.get("performance") or {}).get("tier"),
        capability_tier=(subject.get("capability") or {}).get("tier"),
        # how much of each axis's evidence the issuer stress-tested itself, and how much the
        # organization reported (docs/stress-tests.md "Provenance"); null: the badge does not say
        evidence_sources=subject.get("evidence_sources"),
        issued=subject.get("issued"),
        valid_until=subject.get("valid_until"),
        expired=result.expired,
        revoked=result.revoked,
        reason=result.reason,
    )


def badge_on_record(org: OrgStore, assessment_id: str) -> BadgeOnRecord:
    """The organization's badge of the assessment: its latest credential and its visibility."""
    return BadgeOnRecord(
        **org.get_badge(assessment_id).to_dict(), visibility=org.badge_visibility(assessment_id)
    )


def set_visibility(org: OrgStore, assessment_id: str, visibility: str, *, now: datetime) -> BadgeOnRecord:
    """Make the assessment's badge public or private; it holds whether or not the badge is
    issued yet (and for a re-issue after an appeal).  A badge not issued yet answers only
    ``assessment_id`` and ``visibility``."""
    org.set_badge_visibility(assessment_id, visibility, at=now)
    try:
        return badge_on_record(org, assessment_id)
    except AAAFError:  # not issued (yet): the visibility waits for it
        return BadgeOnRecord(assessment_id=assessment_id, visibility=org.badge_visibility(assessment_id))


def shown_badge(store: Store, assessment_id: str, fmt: str, key: str | None, now: datetime) -> bytes:
    """The badge on record rendered as ``fmt``, its pictures redrawn from the signed
    credential: a public badge to anyone, a private one only to a key (``read``) of its
    organization; ``NOT_FOUND`` otherwise (the same answer whatever the reason)."""
    from aaaf.services.badges import stored_badge

    badge = store.find_badge(assessment_id)
    if badge is None or not badge.credential_jwt or not _shown_to(store, assessment_id, key, now):
        raise AAAFError(
            "NOT_FOUND",
            f"No badge for assessment {assessment_id}.",
            {"resource": "badge", "id": assessment_id},
        )
    return stored_badge(badge).render(fmt)


def _shown_to(store: Store, assessment_id: str, key: str | None, now: datetime) -> bool:
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
