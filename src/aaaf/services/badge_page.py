"""What the public verification page ``GET /verify/{assessment_id}`` shows (issue 17;
SCORING.md §7 "Public routes"; document 004 §4.5, which links the page from every badge).

The verdict is exactly the public verification's (:func:`aaaf.services.badge_revocation.verify_issued`,
what ``GET /api/v1/badges/{id}/verify`` answers): signature with this installation's issuer
key, dates, and the organization's status list.  This module only puts it in words a person
reads — valid, expired, revoked, or cannot be confirmed — together with what the signed
credential certifies, where each axis's evidence came from (stress-tested by this installation
or reported by the organization), how sure the tiers are (SCORING.md §2.5: a tier whose probability is
below the threshold configured when the assessment ran, 0.8 by default, is "borderline") and
how to check it again offline.

A private badge (issue 13 §1) has no page: it is :data:`NOT_FOUND` like an unknown one, so
the page says nothing about whom a private badge names.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aaaf.badges.data import BadgeData, badge_data_from_credential, parse_datetime, tier_colour
from aaaf.badges.svg import ink_for
from aaaf.badges.verify import Check, VerificationResult
from aaaf.errors import AAAFError
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES
from aaaf.scoring.evidence_sources import provenance_lines
from aaaf.scoring.uncertainty_report import borderline_threshold

if TYPE_CHECKING:
    from aaaf.store.records import Assessment
    from aaaf.store.store import Store

STATUSES = ("valid", "expired", "revoked", "unknown")
# (headline, sentence) of each status; the page shows both beside its colour and symbol
STATUS_WORDS: Mapping[str, tuple[str, str]] = {
    "valid": ("Valid", "This badge is genuine, unaltered and in force."),
    "expired": ("Expired", "This badge is genuine but its validity period has ended."),
    "revoked": ("Revoked", "The issuer has withdrawn this badge; it no longer certifies anything."),
    "unknown": ("Cannot be confirmed", "This badge did not pass every check, so it cannot be relied on."),
}
AXIS_TITLES = {"performance": "Performance", "capability": "Capability"}


@dataclass(frozen=True)
class AxisView:
    """One axis as the page shows it: its tier in its §4.2 colour (as a fill, with the ink
    that reads on it), the composite, the interval, the tier's probability and every dimension."""

    axis: str
    title: str
    tier: str | None
    fill: str
    ink: str
    score: str
    interval: str | None
    probability: str | None
    borderline: bool
    dimensions: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Links:
    """Where the badge and what verifies it are served (absolute, under the public base URL)."""

    svg: str
    png: str
    json: str
    jwt: str
    jwks: str
    api_verify: str
    status_list: str
    page: str


@dataclass(frozen=True)
class EvidenceBehind:
    """What the badge rests on, from the assessment this installation recorded: the window,
    the tasks scored, the assessment type and the audit of self-reported facts (docs/scoring.md
    §2.6: coverage is the share of completed tasks audited, honesty the share of checked facts
    not refuted)."""

    window: str | None
    tasks: int | None
    kind: str | None
    audit: str


ASSESSMENT_KINDS: Mapping[str, str] = {
    "full": "the organization's own records and this installation's stress tests together",
    "passive_only": "the organization's own records of the agent's work (no stress test)",
    "stress_test_only": "stress tests alone",
    "single_dimension": "one dimension only",
}


def _audit_words(audit: object) -> str:
    if not isinstance(audit, Mapping) or not audit.get("audited_tasks"):
        return "The agent's self-reported facts were not audited."
    coverage, honesty = audit.get("coverage"), audit.get("honesty")
    text = f"{audit['audited_tasks']} of the window's tasks were audited"
    if isinstance(coverage, int | float):
        text += f" (coverage {display(float(coverage))})"
    if isinstance(honesty, int | float):
        text += f"; honesty {display(float(honesty))}"
        if audit.get("facts_checked"):
            text += f" ({audit.get('facts_refuted', 0)} of {audit['facts_checked']} checked facts refuted)"
    if audit.get("self_report_unreliable"):
        text += "; the self-reports were found unreliable"
    return text + "."


def evidence_behind(assessment: Assessment | None) -> EvidenceBehind:
    """The :class:`EvidenceBehind` of a stored assessment (None fields when not recorded; an
    assessment no longer stored says only that nothing was audited)."""
    if assessment is None:
        return EvidenceBehind(None, None, None, _audit_words(None))
    result = assessment.result or {}
    summary = result.get("evidence_summary") or assessment.evidence_summary or {}
    start, end = assessment.window_start, assessment.window_end
    return EvidenceBehind(
        window=f"{start.strftime('%Y-%m-%d')} to {end.strftime('%Y-%m-%d')}",
        tasks=summary.get("window_tasks") if isinstance(summary.get("window_tasks"), int) else None,
        kind=ASSESSMENT_KINDS.get(assessment.type),
        audit=_audit_words(result.get("audit")),
    )


@dataclass(frozen=True)
class VerificationPage:
    """Everything ``/verify/{assessment_id}`` renders."""

    assessment_id: str
    status: str
    headline: str
    sentence: str
    reason: str
    agent_name: str | None
    agent_id: str | None
    organization_name: str | None
    issuer_id: str | None
    issued: str | None
    valid_until: str | None
    revoked_at: str | None
    revoke_reason: str | None
    axes: tuple[AxisView, ...]
    domains: tuple[str, ...]
    threshold: float
    links: Links
    checks: tuple[Check, ...]
    verification_url: str | None
    # where each axis's evidence came from, in words (docs/stress-tests.md "Provenance"), and
    # the figures the signed credential carries (None: it does not say)
    provenance: tuple[str, ...] = ()
    evidence_sources: Mapping[str, object] | None = None
    evidence: EvidenceBehind | None = None


def status_of(result: VerificationResult) -> str:
    """The one word for the verdict: revoked before expired (both may hold), then valid."""
    if result.revoked:
        return "revoked"
    if result.expired:
        return "expired"
    return "valid" if result.valid else "unknown"


def when(text: str | None) -> str | None:
    """A credential's xsd:dateTime as ``YYYY-MM-DD HH:MM UTC`` (unreadable text kept as is)."""
    if not text:
        return None
    try:
        return parse_datetime(text).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return text


def _axis(name: str, summary: Mapping[str, Any], data: BadgeData | None, threshold: float) -> AxisView:
    tier = summary.get("tier")
    fill = tier_colour(tier)
    interval = summary.get("interval")
    probability = summary.get("tier_probability")
    dimensions: tuple[tuple[str, str], ...] = ()
    if data is not None:
        scores = data.axis(name).dimensions
        dimensions = tuple((dim, display(scores.get(dim))) for dim in AXES[name] if dim in scores)
    return AxisView(
        axis=name,
        title=AXIS_TITLES[name],
        tier=tier,
        fill=fill,
        ink=ink_for(fill),
        score=display(summary.get("score")),
        interval=(
            f"{display(interval[0])} – {display(interval[1])}"
            if isinstance(interval, list) and None not in interval
            else None
        ),
        probability=None if probability is None else display(probability),
        borderline=probability is not None and probability < threshold,
        dimensions=dimensions,
    )


def _threshold_and_domains(
    store: Store, organization_id: uuid.UUID, assessment_id: str
) -> tuple[float, tuple[str, ...], Assessment | None]:
    """The §2.5 borderline threshold in force when the assessment ran, its agent's claimed
    domains and the assessment itself (from the store; defaults and None when gone)."""
    try:
        org = store.scope(organization_id)
        assessment = org.get_assessment(assessment_id)
    except AAAFError:
        return borderline_threshold({}), (), None
    try:
        domains = tuple(org.get_agent(assessment.agent_id).claimed_domains)
    except AAAFError:
        domains = ()
    return borderline_threshold(assessment.result or {}), domains, assessment


def _not_found(assessment_id: str) -> AAAFError:
    return AAAFError(
        "NOT_FOUND",
        f"No public badge for assessment {assessment_id}.",
        {"resource": "badge", "id": assessment_id},
    )


def verification_page(store: Store, assessment_id: str, now: datetime, *, base_url: str) -> VerificationPage:
    """The page of the badge of ``assessment_id`` as of ``now``; ``NOT_FOUND`` when there is no
    issued badge or it is private (module docstring)."""
    from aaaf.services.badge_revocation import verify_issued
    from aaaf.store.repositories.badge_visibility import public_badge_visibility

    badge = store.find_badge(assessment_id)
    if badge is None or not badge.credential_jwt:
        raise _not_found(assessment_id)
    if public_badge_visibility(store.engine, assessment_id)[0] != "public":
        raise _not_found(assessment_id)
    result = verify_issued(store, assessment_id, now)
    subject = result.subject or {}
    credential = result.credential or {}
    try:
        data: BadgeData | None = badge_data_from_credential(credential)
    except (KeyError, TypeError, ValueError):
        data = None
    threshold, domains, assessment = _threshold_and_domains(
        store, badge.organization_id, str(badge.assessment_id)
    )
    status = status_of(result)
    headline, sentence = STATUS_WORDS[status]
    base = base_url.rstrip("/")
    api = f"{base}/api/v1/badges/{badge.assessment_id}"
    issuer = credential.get("issuer")
    return VerificationPage(
        assessment_id=str(badge.assessment_id),
        status=status,
        headline=headline,
        sentence=sentence,
        reason=result.reason,
        agent_name=(subject.get("agent") or {}).get("name"),
        agent_id=(subject.get("agent") or {}).get("id"),
        organization_name=(subject.get("organization") or {}).get("name"),
        issuer_id=issuer.get("id") if isinstance(issuer, Mapping) else None,
        issued=when(subject.get("issued")),
        valid_until=when(subject.get("valid_until")),
        revoked_at=when(result.revoked_at),
        revoke_reason=result.revoke_reason,
        axes=tuple(_axis(name, subject.get(name) or {}, data, threshold) for name in AXES),
        domains=domains,
        threshold=threshold,
        links=Links(
            svg=f"{api}.svg",
            png=f"{api}.png",
            json=f"{api}.json",
            jwt=f"{api}.jwt",
            jwks=f"{base}/.well-known/jwks.json",
            api_verify=f"{api}/verify",
            # where this installation serves the list the credential names (its id may carry
            # the base URL the badge was signed under, not the one the page is read at)
            status_list=f"{base}/api/v1/organizations/{badge.organization_id}/status-list",
            page=f"{base}/verify/{badge.assessment_id}",
        ),
        checks=result.checks,
        verification_url=None if data is None else data.verification_url,
        provenance=tuple(provenance_lines(subject.get("evidence_sources"))),
        evidence_sources=subject.get("evidence_sources"),
        evidence=evidence_behind(assessment),
    )
