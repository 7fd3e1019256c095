"""What the store hands out: plain frozen dataclasses, never ORM objects.

Results cross process and web boundaries (CLI, API, job workers), so they carry values
only: UUIDs, timezone-aware UTC datetimes, floats stored unrounded (SCORING.md §6) and
JSON-ready mappings.  Every record has ``to_dict()`` giving JSON-ready values (UUIDs as
str, datetimes RFC 3339 with 'Z' via :func:`aaaf.scoring.results.iso`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.scoring.results import iso


def _iso_or_none(ts: datetime | None) -> str | None:
    return None if ts is None else iso(ts)


def _str_or_none(value: uuid.UUID | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class Organization:
    """A tenant (document 004 §7.2 ``organizations``); every other row hangs off one."""

    id: uuid.UUID
    name: str
    api_key_hash: str | None
    domain_taxonomy: tuple[str, ...]
    status: str
    created_at: datetime
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; the API key hash is never shown."""
        return {
            "id": str(self.id),
            "name": self.name,
            "domain_taxonomy": list(self.domain_taxonomy),
            "status": self.status,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
        }


@dataclass(frozen=True)
class Agent:
    """An enrolled agent (document 004 §7.2 ``agents``).

    Claimed domains and tools describe the agent; they never filter its evidence
    (SCORING.md §1).
    """

    id: uuid.UUID
    organization_id: uuid.UUID
    name: str
    claimed_domains: tuple[str, ...]
    tools: tuple[str, ...]
    description: str | None
    metadata: Mapping[str, Any]
    status: str
    created_at: datetime
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": str(self.organization_id),
            "name": self.name,
            "claimed_domains": list(self.claimed_domains),
            "tools": list(self.tools),
            "description": self.description,
            "metadata": dict(self.metadata),
            "status": self.status,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
        }


@dataclass(frozen=True)
class DimensionScore:
    """One stored dimension result (SCORING.md §0 'Traceability', §6).

    ``score`` is None when the dimension had no valid evidence — stored as SQL NULL,
    never 0 — and then ``reason`` says why.  Scores are doubles, stored unrounded.
    """

    id: uuid.UUID
    assessment_id: uuid.UUID
    axis: str
    dimension: str
    score: float | None
    sample_size: int
    evidence_count: int
    details: Mapping[str, Any]
    reason: str | None
    created_at: datetime

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "axis": self.axis,
            "dimension": self.dimension,
            "score": self.score,
            "sample_size": self.sample_size,
            "evidence_count": self.evidence_count,
            "details": dict(self.details),
        }
        if self.score is None or self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class Appeal:
    """An appeal against an assessment (document 004 §5.4, SCORING.md §2.4)."""

    id: uuid.UUID
    assessment_id: uuid.UUID
    dimensions_challenged: tuple[str, ...]
    justification: str
    counter_evidence: tuple[Mapping[str, Any], ...]
    status: str
    reviewer_notes: str | None
    resolution: Mapping[str, Any] | None
    filed_at: datetime
    resolved_at: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "assessment_id": str(self.assessment_id),
            "dimensions_challenged": list(self.dimensions_challenged),
            "justification": self.justification,
            "counter_evidence": [dict(item) for item in self.counter_evidence],
            "status": self.status,
            "reviewer_notes": self.reviewer_notes,
            "resolution": None if self.resolution is None else dict(self.resolution),
            "filed_at": iso(self.filed_at),
            "resolved_at": _iso_or_none(self.resolved_at),
        }


@dataclass(frozen=True)
class AssessmentEvidence:
    """What an assessment was computed with and from (SCORING.md §0 'Traceability', §6).

    ``scheme`` / ``scheme_version`` / ``config``: the recorded scheme spec (the exact
    config, field by field, see :mod:`aaaf.scoring.spec`); ``event_ids``: every event any
    dimension used; ``dimension_events``: per dimension, its ids as positions in
    ``event_ids`` (:mod:`aaaf.scoring.trace`).
    """

    assessment_id: uuid.UUID
    scheme: str
    scheme_version: str
    config: Mapping[str, Any]
    event_ids: tuple[str, ...]
    dimension_events: Mapping[str, tuple[int, ...]]

    def ids_of(self, dimension: str) -> tuple[str, ...]:
        """The ids ``dimension`` used (empty when it used none or was not assessed)."""
        return tuple(self.event_ids[index] for index in self.dimension_events.get(dimension, ()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "assessment_id": str(self.assessment_id),
            "spec": {"name": self.scheme, "version": self.scheme_version, "config": dict(self.config)},
            "event_ids": list(self.event_ids),
            "dimensions": {name: list(self.ids_of(name)) for name in self.dimension_events},
        }


@dataclass(frozen=True)
class Assessment:
    """An assessment record (document 004 §7.2 ``assessments`` + SCORING.md §6 bends).

    ``result`` is the full serialised scheme result (``AAAFResult.to_dict()``) kept for
    reports; ``dimensions`` are the rows of ``dimension_scores`` (performance first, in
    the order they were written) and ``appeals`` the appeals filed against it, oldest
    first.  ``review_state`` is the calibration hold of SCORING.md §2.4.
    """

    id: uuid.UUID
    agent_id: uuid.UUID
    agent_name: str
    organization_id: uuid.UUID
    type: str
    status: str
    dimension: str | None
    window_start: datetime
    window_end: datetime
    performance_composite: float | None
    performance_tier: str | None
    capability_composite: float | None
    capability_tier: str | None
    evidence_summary: Mapping[str, Any] | None
    result: Mapping[str, Any] | None
    error: Mapping[str, Any] | None
    anomalous: bool
    review_state: str
    valid_until: datetime | None
    created_at: datetime
    completed_at: datetime | None
    dimensions: tuple[DimensionScore, ...] = ()
    appeals: tuple[Appeal, ...] = ()
    reviewed_by: str | None = None
    reviewed_at: datetime | None = None
    # when retention (SCORING.md §6) deleted the events it was computed from; None while kept
    evidence_pruned_at: datetime | None = None

    @property
    def completion_order(self) -> tuple[datetime | None, datetime, uuid.UUID]:
        """Its place among the agent's completed assessments, the greatest the current one:
        completed, then created, then the id (:data:`aaaf.store.tables.LATEST_COMPLETED_FIRST`)."""
        return (self.completed_at, self.created_at, self.id)

    def dimension_score(self, axis: str, dimension: str) -> DimensionScore | None:
        """The stored row of one dimension, or None when it was not assessed."""
        for row in self.dimensions:
            if row.axis == axis and row.dimension == dimension:
                return row
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "agent_id": str(self.agent_id),
            "agent_name": self.agent_name,
            "organization_id": str(self.organization_id),
            "type": self.type,
            "status": self.status,
            "dimension": self.dimension,
            "window_start": iso(self.window_start),
            "window_end": iso(self.window_end),
            "performance_composite": self.performance_composite,
            "performance_tier": self.performance_tier,
            "capability_composite": self.capability_composite,
            "capability_tier": self.capability_tier,
            "evidence_summary": None if self.evidence_summary is None else dict(self.evidence_summary),
            "result": None if self.result is None else dict(self.result),
            "error": None if self.error is None else dict(self.error),
            "anomalous": self.anomalous,
            "review_state": self.review_state,
            "reviewed_by": self.reviewed_by,
            "reviewed_at": _iso_or_none(self.reviewed_at),
            "valid_until": _iso_or_none(self.valid_until),
            "created_at": iso(self.created_at),
            "completed_at": _iso_or_none(self.completed_at),
            "dimensions": [row.to_dict() for row in self.dimensions],
            "appeals": [appeal.to_dict() for appeal in self.appeals],
        }


@dataclass(frozen=True)
class BadgeSlot:
    """What a credential must name before it is signed: its id and its status-list bit.

    ``OrgStore.issue_badge`` reserves both inside the transaction that then inserts the
    signed row, so no row ever exists without its credential (migration 0003).
    """

    badge_id: uuid.UUID
    status_index: int

    @property
    def credential_id(self) -> str:
        return f"urn:uuid:{self.badge_id}"


@dataclass(frozen=True)
class SignedCredential:
    """A credential signed for a :class:`BadgeSlot`: what its badge row stores."""

    json_data: Mapping[str, Any]
    credential_jwt: str
    svg_url: str | None = None
    png_url: str | None = None


@dataclass(frozen=True)
class Badge:
    """One issued badge credential (document 004 §7.2 ``badges``, one row per credential).

    ``status_index`` is the credential's bit in the organization's Bitstring status list
    (allocated once, never reused); ``credential_jwt`` the signed OB 3.0 VC-JWT, whose
    ``id``/``jti`` is ``urn:uuid:<id>``.  An assessment has at most one *current*
    credential; one replaced after its scores changed (an accepted appeal) is
    ``superseded_at`` and revoked, its reason saying why.  Expired badges are kept
    (document 004 §7.3); revocation is recorded, not deleted.
    """

    id: uuid.UUID
    assessment_id: uuid.UUID
    agent_id: uuid.UUID
    organization_id: uuid.UUID
    status_index: int
    svg_url: str | None
    png_url: str | None
    json_data: Mapping[str, Any]
    credential_jwt: str | None
    issued_at: datetime
    valid_until: datetime
    revoked: bool
    revoked_at: datetime | None
    revoke_reason: str | None
    superseded_at: datetime | None = None

    @property
    def current(self) -> bool:
        """Not replaced by a newer credential of the same assessment."""
        return self.superseded_at is None

    @property
    def credential_id(self) -> str:
        """The credential's ``id`` and JWT ``jti``."""
        return f"urn:uuid:{self.id}"

    def expired(self, at: datetime) -> bool:
        """Whether the badge's validity has run out at ``at`` (SCORING.md §2.4)."""
        return at > self.valid_until

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "assessment_id": str(self.assessment_id),
            "agent_id": str(self.agent_id),
            "organization_id": str(self.organization_id),
            "status_index": self.status_index,
            "svg_url": self.svg_url,
            "png_url": self.png_url,
            "json_data": dict(self.json_data),
            "credential_jwt": self.credential_jwt,
            "issued_at": iso(self.issued_at),
            "valid_until": iso(self.valid_until),
            "revoked": self.revoked,
            "revoked_at": _iso_or_none(self.revoked_at),
            "revoke_reason": self.revoke_reason,
            "superseded_at": _iso_or_none(self.superseded_at),
            "current": self.current,
        }


@dataclass(frozen=True)
class ScoreHistoryEntry:
    """One computed score of a scheme (SCORING.md §3 'History').

    ``committed`` is False for an anomalous score until a reviewer approves it; the
    previous committed score stays canonical meanwhile.
    """

    id: uuid.UUID
    organization_id: uuid.UUID
    agent_id: uuid.UUID
    scheme: str
    score: float | None
    tier: str | None
    details: Mapping[str, Any]
    was_anomalous: bool
    committed: bool
    reviewed_by: str | None
    reviewed_at: datetime | None
    review_decision: str | None
    computed_at: datetime
    at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": str(self.organization_id),
            "agent_id": str(self.agent_id),
            "scheme": self.scheme,
            "score": self.score,
            "tier": self.tier,
            "details": dict(self.details),
            "was_anomalous": self.was_anomalous,
            "committed": self.committed,
            "reviewed_by": self.reviewed_by,
            "reviewed_at": _iso_or_none(self.reviewed_at),
            "review_decision": self.review_decision,
            "computed_at": iso(self.computed_at),
            "at": iso(self.at),
        }


@dataclass(frozen=True)
class TrustOverride:
    """The trust scheme's adaptive weight override, stored exactly as given (SCORING.md §3).

    It is validated when applied, by the pure engine, not when stored.
    """

    id: uuid.UUID
    organization_id: uuid.UUID
    weights: Mapping[str, Any]
    set_by: str | None
    set_at: datetime
    active: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": str(self.organization_id),
            "weights": dict(self.weights),
            "set_by": self.set_by,
            "set_at": iso(self.set_at),
            "active": self.active,
        }


@dataclass(frozen=True)
class Webhook:
    """A webhook subscription (document 004 §6.3, §7.2 ``webhooks``) with its retry policy.

    ``secret_sealed`` is the Standard Webhooks signing secret sealed with ``AAAF_SECRET_KEY``
    (SCORING.md §7 "Webhook secrets"): HMAC signing needs the secret itself, so it is kept,
    encrypted; ``to_dict`` never includes it.  A delivery is retried ``max_retries`` times,
    ``retry_backoff_seconds`` doubling each time (with jitter); ``disabled_reason`` says why
    an inactive webhook was turned off (a 410 answer, say).
    """

    id: uuid.UUID
    organization_id: uuid.UUID
    url: str
    event_types: tuple[str, ...]
    secret_sealed: str = field(repr=False)
    active: bool
    max_retries: int
    retry_backoff_seconds: float
    disabled_reason: str | None
    created_at: datetime
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": str(self.organization_id),
            "url": self.url,
            "event_types": list(self.event_types),
            "active": self.active,
            "max_retries": self.max_retries,
            "retry_backoff_seconds": self.retry_backoff_seconds,
            "disabled_reason": self.disabled_reason,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
        }


@dataclass(frozen=True)
class WebhookDelivery:
    """One event sent (or to be sent) to one webhook (issue 14 §5): its Standard Webhooks
    message id (``webhook-id``, the same on every attempt), its status, and every attempt
    (time, status code or error, duration)."""

    id: uuid.UUID
    organization_id: uuid.UUID
    webhook_id: uuid.UUID
    event_id: uuid.UUID
    event_type: str
    payload: str
    status: str
    attempt_count: int
    next_attempt_at: datetime | None
    last_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    attempts: tuple[Mapping[str, Any], ...]
    created_at: datetime

    @property
    def message_id(self) -> str:
        """The ``webhook-id`` header: one per event, the same on every retry and redelivery."""
        return f"msg_{self.event_id.hex}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "webhook_id": str(self.webhook_id),
            "message_id": self.message_id,
            "event": self.event_type,
            "status": self.status,
            "attempt_count": self.attempt_count,
            "next_attempt_at": iso(self.next_attempt_at) if self.next_attempt_at else None,
            "last_attempt_at": iso(self.last_attempt_at) if self.last_attempt_at else None,
            "last_status_code": self.last_status_code,
            "last_error": self.last_error,
            "attempts": [dict(attempt) for attempt in self.attempts],
            "created_at": iso(self.created_at),
        }


@dataclass(frozen=True)
class StressTest:
    """A stress test definition (document 004 §5.3); ``organization_id`` None = system default."""

    id: uuid.UUID
    organization_id: uuid.UUID | None
    dimension: str
    complexity_level: int | None
    domain: str | None
    task_definition: Mapping[str, Any]
    expected_outcome: Mapping[str, Any] | None
    created_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": _str_or_none(self.organization_id),
            "dimension": self.dimension,
            "complexity_level": self.complexity_level,
            "domain": self.domain,
            "task_definition": dict(self.task_definition),
            "expected_outcome": None if self.expected_outcome is None else dict(self.expected_outcome),
            "created_at": iso(self.created_at),
        }


@dataclass(frozen=True)
class StressTestResult:
    """One executed stress test of an assessment (document 004 §7.2 ``stress_test_results``)."""

    id: uuid.UUID
    assessment_id: uuid.UUID | None
    stress_test_id: uuid.UUID
    agent_id: uuid.UUID
    outcome: str
    score: float | None
    details: Mapping[str, Any]
    executed_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "assessment_id": None if self.assessment_id is None else str(self.assessment_id),
            "stress_test_id": str(self.stress_test_id),
            "agent_id": str(self.agent_id),
            "outcome": self.outcome,
            "score": self.score,
            "details": dict(self.details),
            "executed_at": iso(self.executed_at),
        }
