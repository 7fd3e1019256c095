"""What a badge says, as one plain value every format is drawn from (document 004 §4.3, §4.5).

SVG, PNG, Markdown and the Open Badges 3.0 credential are four views of one
:class:`BadgeData`, so they cannot disagree: the SVG and Markdown show the scores
truncated to 2 decimals (SCORING.md §0), the credential carries them unrounded.

The identifiers a badge needs (issuer, credential, verification URL, status list) are
derived here from the public base URL, in one place (issue 7, design notes):

* issuer (the organization's ``Profile``): ``{base}/api/v1/organizations/{org_id}``
* badge URL: ``{base}/api/v1/badges/{assessment_id}`` (document 004 §6.2), the
  credential's ``id`` unless the issuer names each credential (the store gives every
  issued credential its own ``urn:uuid:`` id, since an assessment re-scored on appeal
  gets a new one)
* verification URL: ``{base}/verify/{assessment_id}``, the public verification page
  (document 004 §4.5 links the page, not the JSON; issue 17).  Badges issued before it
  name ``{base}/api/v1/badges/{assessment_id}/verify`` (the JSON answer): both forms are
  read back, and a badge read from its credential keeps the URL it was signed with, so
  its pictures redraw byte for byte.
* status list: ``{base}/api/v1/organizations/{org_id}/status-list``
* the agent's badge: ``{base}/badges/{organization name}/{agent name}.svg``, which always
  serves the agent's current badge (what a README embeds)
* subject: the agent, ``urn:uuid:{agent_id}`` — its identity does not depend on where
  the issuer happens to be hosted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any
from urllib.parse import quote

from aaaf.scoring.defaults import AXES, BADGE_STANDARDS, CAPABILITY_TIERS, PERFORMANCE_TIERS, TIER_COLOURS
from aaaf.scoring.uncertainty_report import awarded_probability

AXIS_TIERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "performance": tuple(tier.name for tier in PERFORMANCE_TIERS),
        "capability": tuple(tier.name for tier in CAPABILITY_TIERS),
    }
)
# The assessment's audit as a badge carries it (SCORING.md §2.6: the assessment's top-level
# ``audit`` object), in this order.
AUDIT_MEMBERS: tuple[str, ...] = ("coverage", "honesty", "audited_tasks", "required_rate", "met")
# Where the evidence of each axis came from, as a badge carries it (docs/stress-tests.md
# "Provenance"; the assessment's recorded ``evidence_sources``): these members of each axis,
# then the stress runs of this installation and the imported logs.
PROVENANCE_AXIS_MEMBERS: tuple[str, ...] = (
    "stress_tested_tasks",
    "reported_tasks",
    "stress_tested_events",
    "reported_events",
)
# A box without a tier (no covered dimension) is drawn neutral, never in a tier's colour.
NO_TIER_COLOUR = "#E0E0E0"


def tier_colour(tier: str | None) -> str:
    """The §4.2 colour of a tier; the neutral grey for a missing or unknown tier."""
    if tier is None:
        return NO_TIER_COLOUR
    return TIER_COLOURS.get(tier, NO_TIER_COLOUR)


def utc(ts: datetime) -> datetime:
    """An aware UTC datetime (naive values are taken as UTC, as the store writes them)."""
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)


def xsd_datetime(ts: datetime) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ``: whole seconds, so ``validUntil`` and the JWT ``exp``
    (an integer NumericDate) name exactly the same instant."""
    return utc(ts).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_datetime(text: str) -> datetime:
    """RFC 3339 / xsd:dateTime with 'Z' or an offset, as an aware UTC datetime."""
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        raise ValueError(f"timestamp without a time zone: {text!r}")
    return parsed.astimezone(UTC)


@dataclass(frozen=True)
class AxisSummary:
    """One axis as a badge shows it: composite, tier and every dimension (null stays null)."""

    axis: str
    composite_score: float | None
    tier: str | None
    dimensions: Mapping[str, float | None] = field(default_factory=dict)
    # SCORING.md §2.5: {ci, tier_probabilities, resamples, insufficient}; None for an
    # assessment made without it (--no-uncertainty, a single dimension, or before §2.5)
    uncertainty: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The §4.5 ``performance`` / ``capability`` object, scores unrounded, with the axis's
        §2.5 ``uncertainty`` and the probability of the tier awarded when it has one."""
        out: dict[str, Any] = {
            "composite_score": self.composite_score,
            "tier": self.tier,
            "dimensions": dict(self.dimensions),
        }
        if self.uncertainty is not None:
            out["uncertainty"] = dict(self.uncertainty)
            out["tier_probability"] = awarded_probability(self.uncertainty, self.tier)
        return out


@dataclass(frozen=True)
class BadgeData:
    """Everything a badge conveys (document 004 §4.3) plus the base URL its links hang off."""

    assessment_id: str
    assessment_type: str
    agent_id: str
    agent_name: str
    organization_id: str
    organization_name: str
    completed_at: datetime
    valid_until: datetime
    window_start: datetime
    window_end: datetime
    performance: AxisSummary
    capability: AxisSummary
    base_url: str
    # SCORING.md §2.6: coverage, honesty, audited_tasks, required_rate, met (None: an
    # assessment scored before audits existed carries none)
    audit: Mapping[str, Any] | None = None
    # where each axis's evidence came from (:func:`provenance_of`); None for an assessment
    # recorded before provenance, and in credentials issued before it
    evidence_sources: Mapping[str, Any] | None = None
    # the verification URL a signed credential names (either form, module docstring); None
    # for a badge about to be issued, which names the verification page
    signed_verification_url: str | None = field(default=None, compare=False)

    # -- identifiers (module docstring) ------------------------------------------------
    @property
    def api_base(self) -> str:
        return self.base_url.rstrip("/") + "/api/v1"

    @property
    def issuer_id(self) -> str:
        return f"{self.api_base}/organizations/{self.organization_id}"

    @property
    def credential_id(self) -> str:
        return f"{self.api_base}/badges/{self.assessment_id}"

    @property
    def verification_url(self) -> str:
        if self.signed_verification_url is not None:
            return self.signed_verification_url
        return verification_page_url(self.base_url, self.assessment_id)

    @property
    def agent_badge_url(self) -> str:
        return agent_badge_url(self.base_url, self.organization_name, self.agent_name)

    @property
    def status_list_url(self) -> str:
        return status_list_url(self.base_url, self.organization_id)

    @property
    def evidence_url(self) -> str:
        return f"{self.api_base}/assessments/{self.assessment_id}"

    @property
    def subject_id(self) -> str:
        return f"urn:uuid:{self.agent_id}"

    @property
    def achievement_id(self) -> str:
        return f"{self.issuer_id}/achievements/aaaf-agent-assessment"

    def axis(self, name: str) -> AxisSummary:
        return self.performance if name == "performance" else self.capability

    def to_section_4_5(self) -> dict[str, Any]:
        """The document 004 §4.5 badge object with its own names, scores unrounded, plus the
        assessment's ``audit`` (SCORING.md §2.6) when it has one."""
        section: dict[str, Any] = {
            "type": "AgentAssessmentBadge",
            "version": "1.0.0",
            "agent": {
                "id": self.agent_id,
                "name": self.agent_name,
                "organization_id": self.organization_id,
            },
            "assessment": {
                "id": self.assessment_id,
                "type": self.assessment_type,
                "timestamp": xsd_datetime(self.completed_at),
                "valid_until": xsd_datetime(self.valid_until),
                "window_start": xsd_datetime(self.window_start),
                "window_end": xsd_datetime(self.window_end),
            },
            "performance": self.performance.to_dict(),
            "capability": self.capability.to_dict(),
            "standards_alignment": list(standards_alignment()),
            "verification_url": self.verification_url,
        }
        if self.audit is not None:
            section["audit"] = dict(self.audit)
        if self.evidence_sources is not None:
            section["evidence_sources"] = provenance_of(self.evidence_sources)
        return section


def verification_page_url(base_url: str, assessment_id: str) -> str:
    """The public verification page of a badge (issue 17): what badges issued now link to."""
    return f"{base_url.rstrip('/')}/verify/{assessment_id}"


def verification_suffixes(assessment_id: str) -> tuple[str, ...]:
    """How a verification URL may end: the page (now), the JSON answer (badges issued before)."""
    return (f"/verify/{assessment_id}", f"/api/v1/badges/{assessment_id}/verify")


def base_url_of_verification_url(verification_url: str, assessment_id: str) -> str:
    """The public base URL a badge's verification URL hangs off (either form); ``ValueError``
    when it names no verification of this assessment."""
    for suffix in verification_suffixes(assessment_id):
        if verification_url.endswith(suffix):
            return verification_url[: -len(suffix)]
    raise ValueError("verification_url does not name the assessment")


def agent_badge_url(base_url: str, organization_name: str, agent_name: str) -> str:
    """The agent's stable badge URL: it always serves the agent's current badge (a README
    embeds it once; aaaf.services.agent_badges)."""
    return (
        f"{base_url.rstrip('/')}/badges/{quote(organization_name, safe='')}/{quote(agent_name, safe='')}.svg"
    )


def status_list_url(base_url: str, organization_id: str) -> str:
    return f"{base_url.rstrip('/')}/api/v1/organizations/{organization_id}/status-list"


def issuer_id_for(base_url: str, organization_id: str) -> str:
    return f"{base_url.rstrip('/')}/api/v1/organizations/{organization_id}"


def standards_alignment() -> tuple[str, ...]:
    """The four standards document 004 §4.5 lists on every badge."""
    return BADGE_STANDARDS


def _axis_from_assessment(assessment: Any, axis: str) -> AxisSummary:
    scores: dict[str, float | None] = {}
    for name in AXES[axis]:
        row = assessment.dimension_score(axis, name)
        scores[name] = None if row is None else row.score
    stored = ((assessment.result or {}).get(axis) or {}).get("uncertainty")
    return AxisSummary(
        axis=axis,
        composite_score=getattr(assessment, f"{axis}_composite"),
        tier=getattr(assessment, f"{axis}_tier"),
        dimensions=scores,
        uncertainty=dict(stored) if isinstance(stored, Mapping) else None,
    )


def audit_of(audit: Any) -> dict[str, Any] | None:
    """The badge's ``audit`` member from an assessment's (or a credential's) ``audit`` object:
    its §2.6 members only, in order; None when there is none.  Raises ``TypeError`` /
    ``KeyError`` on one that does not carry them."""
    if audit is None:
        return None
    if not isinstance(audit, Mapping):
        raise TypeError(f"audit is not an object: {audit!r}")
    return {name: audit[name] for name in AUDIT_MEMBERS}


def provenance_of(sources: Any) -> dict[str, Any] | None:
    """The badge's ``evidence_sources`` member from an assessment's (or a credential's): per axis
    the :data:`PROVENANCE_AXIS_MEMBERS` (null for an axis not assessed), then ``stress_runs``
    and ``reported_stress_runs``; None when it carries no per-axis figures (recorded before
    provenance).  Raises ``TypeError`` / ``KeyError`` / ``ValueError`` on one that is malformed."""
    if sources is None:
        return None
    if not isinstance(sources, Mapping):
        raise TypeError(f"evidence_sources is not an object: {sources!r}")
    if not any(isinstance(sources.get(axis), Mapping) for axis in AXES):
        return None
    out: dict[str, Any] = {}
    for axis in AXES:
        part = sources.get(axis)
        out[axis] = None if part is None else {name: _count(part[name]) for name in PROVENANCE_AXIS_MEMBERS}
    for name in ("stress_runs", "reported_stress_runs"):
        runs = sources.get(name) or []
        if not isinstance(runs, list):
            raise TypeError(f"{name} is not a list: {runs!r}")
        out[name] = [str(run) for run in runs]
    return out


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value


def badge_data_from_assessment(
    assessment: Any, *, agent_name: str, organization_name: str, base_url: str
) -> BadgeData:
    """The badge of a completed assessment record (:class:`aaaf.store.Assessment`).

    Dimensions an assessment did not look at (a ``single_dimension`` run) are null, as
    are dimensions without valid evidence (SCORING.md §0).
    """
    if assessment.completed_at is None or assessment.valid_until is None:
        raise ValueError(f"assessment {assessment.id} has not completed")
    return BadgeData(
        assessment_id=str(assessment.id),
        assessment_type=str(assessment.type),
        agent_id=str(assessment.agent_id),
        agent_name=agent_name,
        organization_id=str(assessment.organization_id),
        organization_name=organization_name,
        completed_at=utc(assessment.completed_at),
        valid_until=utc(assessment.valid_until),
        window_start=utc(assessment.window_start),
        window_end=utc(assessment.window_end),
        performance=_axis_from_assessment(assessment, "performance"),
        capability=_axis_from_assessment(assessment, "capability"),
        base_url=base_url,
        audit=audit_of((assessment.result or {}).get("audit")),
        evidence_sources=provenance_of((assessment.result or {}).get("evidence_sources")),
    )


def badge_data_from_credential(credential: Mapping[str, Any]) -> BadgeData:
    """Read the badge back out of a credential's §4.5 members (what ``verify`` re-draws).

    Raises ``KeyError`` / ``ValueError`` / ``TypeError`` on a credential that does not
    carry them; the caller turns that into a failed check.
    """
    subject = credential["credentialSubject"]
    agent = subject["agent"]
    assessment = subject["assessment"]
    verification_url = str(subject["verification_url"])
    base_url = base_url_of_verification_url(verification_url, str(assessment["id"]))

    def axis(name: str) -> AxisSummary:
        body = subject[name]
        dims = body["dimensions"]
        if not isinstance(dims, Mapping):
            raise TypeError(f"{name}.dimensions is not an object")
        return AxisSummary(
            axis=name,
            composite_score=_optional_float(body["composite_score"]),
            tier=None if body["tier"] is None else str(body["tier"]),
            dimensions={str(k): _optional_float(v) for k, v in dims.items()},
            uncertainty=_optional_uncertainty(body.get("uncertainty")),
        )

    issuer = credential["issuer"]
    return BadgeData(
        assessment_id=str(assessment["id"]),
        assessment_type=str(assessment.get("type", "full")),
        agent_id=str(agent["id"]),
        agent_name=str(agent["name"]),
        organization_id=str(agent["organization_id"]),
        organization_name=str(issuer.get("name", "")) if isinstance(issuer, Mapping) else "",
        completed_at=parse_datetime(assessment["timestamp"]),
        valid_until=parse_datetime(assessment["valid_until"]),
        window_start=parse_datetime(assessment["window_start"]),
        window_end=parse_datetime(assessment["window_end"]),
        performance=axis("performance"),
        capability=axis("capability"),
        base_url=base_url,
        audit=audit_of(subject.get("audit")),
        evidence_sources=provenance_of(subject.get("evidence_sources")),
        signed_verification_url=verification_url,
    )


def _optional_uncertainty(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"uncertainty is not an object: {value!r}")
    return dict(value)


def _optional_float(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"score is not a number: {value!r}")
    return float(value)
