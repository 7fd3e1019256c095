"""Repositories of one organization: every query is filtered by it.

A row of another organization is indistinguishable from a missing one (``NOT_FOUND``),
so a tenant can neither read nor probe another's agents, assessments or badges.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.store.records import (
    Agent,
    Appeal,
    Assessment,
    Badge,
    Organization,
    ScoreHistoryEntry,
    StressTest,
    StressTestResult,
    TrustOverride,
    Webhook,
)

AgentRef = uuid.UUID | str


class EventLike(Protocol):
    """A validated event as the evidence package produces it (its ``ValidEvent``).

    ``agent`` is not read: the store takes the agent's id beside each event.  ``key`` is
    the client's idempotency key (SCORING.md §1) or None.
    """

    @property
    def type(self) -> str: ...

    @property
    def timestamp(self) -> datetime: ...

    @property
    def data(self) -> Mapping[str, Any]: ...

    @property
    def task_id(self) -> str | None: ...

    @property
    def key(self) -> str | None: ...


class DimensionRow(NamedTuple):
    """One dimension result to store (SCORING.md §0): ``score`` None is stored as NULL."""

    axis: str
    dimension: str
    score: float | None
    sample_size: int
    evidence_count: int
    details: Mapping[str, Any]
    reason: str | None = None


class OrgStore:
    """Everything one organization owns; obtained from ``Store.scope(org_id)``."""

    organization_id: uuid.UUID

    def organization(self) -> Organization:
        """This organization."""
        raise NotImplementedError

    # configuration (document 004 §6.2 Configuration, SCORING.md *(config)* items) -------
    def config(self) -> AAAFConfig:
        """The org's scoring configuration: stored values over the defaults."""
        raise NotImplementedError

    def config_dict(self) -> dict[str, Any]:
        """``config().to_dict()`` (the API's ``GET .../config``)."""
        raise NotImplementedError

    def update_config(self, **changes: Any) -> AAAFConfig:
        """Change config values; keys are ``AAAFConfig`` field names or their ``to_dict`` names.

        Validated through ``AAAFConfig.with_overrides`` (weights: ``WEIGHT_SUM_INVALID``);
        an unknown key or an invalid value is ``INVALID_REQUEST``.
        """
        raise NotImplementedError

    def set_weights(self, axis: str, weights: Mapping[str, float]) -> AAAFConfig:
        """Replace one axis's weights (checked: ``WEIGHT_SUM_INVALID``, SCORING.md §0)."""
        raise NotImplementedError

    def set_taxonomy(self, domains: Sequence[str]) -> AAAFConfig:
        """Replace the domain taxonomy (SCORING.md §2.3 domain_breadth)."""
        raise NotImplementedError

    # agents ------------------------------------------------------------------------------
    def enroll_agent(
        self,
        name: str,
        *,
        claimed_domains: Sequence[str] = (),
        tools: Sequence[str] = (),
        description: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Agent:
        """Enroll an agent (document 004 §5.1 step 1); ``CONFLICT`` if the name is taken."""
        raise NotImplementedError

    def get_agent(self, name_or_id: AgentRef) -> Agent:
        """The agent by id or name, or ``NOT_FOUND`` naming what was asked for."""
        raise NotImplementedError

    def find_agent(self, name_or_id: AgentRef) -> Agent | None:
        """The agent by id or name, or None."""
        raise NotImplementedError

    def agents(self, *, status: str | None = None) -> list[Agent]:
        """The organization's agents ordered by name."""
        raise NotImplementedError

    def update_agent(
        self,
        name_or_id: AgentRef,
        *,
        name: str | None = None,
        claimed_domains: Sequence[str] | None = None,
        tools: Sequence[str] | None = None,
        description: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Agent:
        """Change the given fields (None leaves a field as it is); a taken name is ``CONFLICT``."""
        raise NotImplementedError

    def set_agent_status(self, name_or_id: AgentRef, status: str) -> Agent:
        """enrolled | active | suspended | archived (document 004 §7.2)."""
        raise NotImplementedError

    # events -------------------------------------------------------------------------------
    def add_events(self, items: Sequence[tuple[uuid.UUID, EventLike]]) -> list[bool]:
        """Store validated events in one transaction; idempotent by (agent, key).

        Returns, per item, True when it was newly stored, False when its key was already
        stored for that agent (or came earlier in the same batch) — SCORING.md §1.
        An agent id not of this organization is ``NOT_FOUND`` and nothing is stored.
        """
        raise NotImplementedError

    def events(
        self,
        agent_id: uuid.UUID,
        *,
        types: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[EventRecord]:
        """The agent's events ordered by timestamp; ``since``/``until`` inclusive."""
        raise NotImplementedError

    def events_for_agents(
        self,
        agent_ids: Sequence[uuid.UUID],
        *,
        types: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> dict[uuid.UUID, list[EventRecord]]:
        """Events of several agents in one streamed query (``assess --all``)."""
        raise NotImplementedError

    def count_events(self, agent_id: uuid.UUID, *, types: Sequence[str] | None = None) -> int:
        """How many events the agent has (of the given types)."""
        raise NotImplementedError

    def delete_events_before(self, cutoff: datetime) -> int:
        """Drop events older than ``cutoff`` (document 004 §7.3 retention); returns the count."""
        raise NotImplementedError

    # assessments ----------------------------------------------------------------------------
    def create_assessment(
        self,
        agent_id: uuid.UUID,
        *,
        type: str,
        window_start: datetime,
        window_end: datetime,
        dimension: str | None = None,
        created_at: datetime | None = None,
    ) -> Assessment:
        """Start an assessment (status ``in_progress``).

        ``ASSESSMENT_IN_PROGRESS`` if the agent already has one running (enforced by a
        partial unique index, so concurrent starts cannot both succeed).
        """
        raise NotImplementedError

    def complete_assessment(
        self,
        assessment_id: uuid.UUID,
        *,
        result: Mapping[str, Any],
        dimension_rows: Sequence[DimensionRow | tuple[Any, ...]],
        performance_composite: float | None,
        performance_tier: str | None,
        capability_composite: float | None,
        capability_tier: str | None,
        evidence_summary: Mapping[str, Any],
        valid_until: datetime | None,
        completed_at: datetime,
        anomalous: bool = False,
        review_state: str = "not_required",
    ) -> Assessment:
        """Record a finished assessment and its dimension rows in one transaction."""
        raise NotImplementedError

    def fail_assessment(
        self, assessment_id: uuid.UUID, error: Mapping[str, Any], completed_at: datetime
    ) -> Assessment:
        """Record why an assessment could not complete (e.g. ``INSUFFICIENT_EVIDENCE``)."""
        raise NotImplementedError

    def get_assessment(self, assessment_id: uuid.UUID | str) -> Assessment:
        """The assessment with its dimensions and appeals, or ``NOT_FOUND``."""
        raise NotImplementedError

    def assessments(self, agent_id: uuid.UUID | None = None, status: str | None = None) -> list[Assessment]:
        """Assessments newest first (without dimensions/appeals; use get_assessment)."""
        raise NotImplementedError

    def latest_completed_assessment(self, agent_id: uuid.UUID) -> Assessment | None:
        """The agent's most recently completed assessment (calibration baseline, §2.4)."""
        raise NotImplementedError

    def set_review_state(self, assessment_id: uuid.UUID, state: str) -> Assessment:
        """not_required | pending_review | approved | rejected (SCORING.md §2.4, §6)."""
        raise NotImplementedError

    def replace_dimension_scores(
        self,
        assessment_id: uuid.UUID,
        rows: Sequence[DimensionRow | tuple[Any, ...]],
        *,
        performance_composite: float | None,
        performance_tier: str | None,
        capability_composite: float | None,
        capability_tier: str | None,
        result: Mapping[str, Any],
    ) -> Assessment:
        """Rewrite the given dimensions, composites, tiers and result in one transaction.

        For an accepted appeal (SCORING.md §2.4): only the rows named in ``rows`` change;
        every other dimension row is left untouched, byte for byte.
        """
        raise NotImplementedError

    # appeals ------------------------------------------------------------------------------
    def file_appeal(
        self,
        assessment_id: uuid.UUID,
        *,
        dimensions: Sequence[str],
        justification: str,
        counter_evidence: Sequence[Mapping[str, Any]],
        filed_at: datetime,
    ) -> Appeal:
        """Record an appeal (status ``filed``); the rules of §2.4 are the service's job."""
        raise NotImplementedError

    def get_appeal(self, appeal_id: uuid.UUID | str) -> Appeal:
        raise NotImplementedError

    def appeals(self, assessment_id: uuid.UUID) -> list[Appeal]:
        """Appeals of one assessment, oldest first."""
        raise NotImplementedError

    def resolve_appeal(
        self,
        appeal_id: uuid.UUID,
        *,
        status: str,
        reviewer_notes: str | None,
        resolution: Mapping[str, Any] | None,
        resolved_at: datetime | None,
    ) -> Appeal:
        """Move an appeal to under_review, accepted or rejected; a decided appeal is ``CONFLICT``."""
        raise NotImplementedError

    # badges -------------------------------------------------------------------------------
    def upsert_badge(
        self,
        assessment_id: uuid.UUID,
        agent_id: uuid.UUID,
        *,
        json_data: Mapping[str, Any],
        valid_until: datetime,
        issued_at: datetime,
        svg_url: str | None = None,
        png_url: str | None = None,
        credential_jwt: str | None = None,
    ) -> Badge:
        """Issue or re-issue the assessment's badge; the first issue allocates a status index."""
        raise NotImplementedError

    def get_badge(self, assessment_id: uuid.UUID | str) -> Badge:
        raise NotImplementedError

    def badges(self, *, agent_id: uuid.UUID | None = None) -> list[Badge]:
        """Badges ordered by status index."""
        raise NotImplementedError

    def revoke_badge(self, assessment_id: uuid.UUID, *, reason: str, at: datetime) -> Badge:
        """Mark a badge revoked (kept, never deleted); revoking twice keeps the first record."""
        raise NotImplementedError

    # score history and trust override (SCORING.md §3) --------------------------------------
    def append_score_history(
        self,
        agent_id: uuid.UUID,
        *,
        scheme: str,
        score: float | None,
        tier: str | None,
        details: Mapping[str, Any],
        was_anomalous: bool,
        committed: bool,
        computed_at: datetime,
        at: datetime,
    ) -> ScoreHistoryEntry:
        raise NotImplementedError

    def score_history(self, agent_id: uuid.UUID, scheme: str) -> list[ScoreHistoryEntry]:
        """Oldest first."""
        raise NotImplementedError

    def last_committed_score(self, agent_id: uuid.UUID, scheme: str) -> ScoreHistoryEntry | None:
        raise NotImplementedError

    def review_score(
        self, history_id: uuid.UUID, *, approve: bool, reviewer: str, at: datetime
    ) -> ScoreHistoryEntry:
        """Approve (commit) or reject an anomalous score; anything else is ``CONFLICT``."""
        raise NotImplementedError

    def set_trust_override(
        self, weights: Mapping[str, Any], *, set_by: str | None, set_at: datetime
    ) -> TrustOverride:
        """Store the override as given (not validated, SCORING.md §3); replaces the active one."""
        raise NotImplementedError

    def trust_override(self) -> TrustOverride | None:
        raise NotImplementedError

    def clear_trust_override(self) -> None:
        raise NotImplementedError

    # webhooks (document 004 §6.3) ----------------------------------------------------------
    def create_webhook(self, url: str, event_types: Sequence[str], *, secret: str) -> Webhook:
        raise NotImplementedError

    def webhooks(self, *, event_type: str | None = None, active_only: bool = False) -> list[Webhook]:
        raise NotImplementedError

    def get_webhook(self, webhook_id: uuid.UUID | str) -> Webhook:
        raise NotImplementedError

    def delete_webhook(self, webhook_id: uuid.UUID | str) -> None:
        raise NotImplementedError

    # stress tests (document 004 §5.3) ------------------------------------------------------
    def create_stress_test(
        self,
        dimension: str,
        *,
        task_definition: Mapping[str, Any],
        complexity_level: int | None = None,
        domain: str | None = None,
        expected_outcome: Mapping[str, Any] | None = None,
    ) -> StressTest:
        raise NotImplementedError

    def stress_tests(self, *, dimension: str | None = None) -> list[StressTest]:
        """The org's own definitions and the system defaults."""
        raise NotImplementedError

    def get_stress_test(self, stress_test_id: uuid.UUID | str) -> StressTest:
        raise NotImplementedError

    def delete_stress_test(self, stress_test_id: uuid.UUID | str) -> None:
        raise NotImplementedError

    def record_stress_test_result(
        self,
        assessment_id: uuid.UUID,
        stress_test_id: uuid.UUID,
        *,
        outcome: str,
        score: float | None,
        details: Mapping[str, Any],
        executed_at: datetime,
    ) -> StressTestResult:
        raise NotImplementedError

    def stress_test_results(self, assessment_id: uuid.UUID) -> list[StressTestResult]:
        raise NotImplementedError
