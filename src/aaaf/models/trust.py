"""The 0-1000 trust score (docs/scoring.md §4; docs/scoring.md §4), as ``aaaf trust --json`` prints it."""

from __future__ import annotations

from aaaf.models._base import Number, OpenModel, PublicModel


class TrustDimension(OpenModel):
    """One of the 16 dimensions: its 0-100 score (null when uncovered) and its terms."""

    score: Number | None


class SecurityGate(PublicModel):
    threshold: Number
    cap: Number
    max_tier: str
    security: Number | None


class WeightOverride(PublicModel):
    supplied: dict[str, object] | None
    applied: bool
    rejected_reason: str | None


class TrustHistory(PublicModel):
    """Whether this score was recorded in the agent's trust history, and the committed one."""

    recorded: bool
    not_recorded_reason: str | None
    entry_id: str | None
    was_anomalous: bool
    committed: bool
    canonical_score: Number | None
    canonical_tier: str | None


class TrustScore(OpenModel):
    """One agent's trust score at ``at``; open: later fields of the scheme follow."""

    scheme: str
    agent: str
    at: str
    composite: Number | None
    uncapped_composite: Number | None
    tier: str | None
    tier_reason: str | None
    covered: int
    total: int
    mandatory_missing: list[str]
    gated: bool
    security_gate: SecurityGate
    weights_in_force: dict[str, Number]
    weights_used: dict[str, Number]
    override: WeightOverride
    dimensions: dict[str, TrustDimension]
    history: TrustHistory | None = None


class ScoreHistoryEntry(PublicModel):
    """One recorded score of a scheme (docs/scoring.md §4): ``aaaf trust history --json``
    lists them, ``aaaf trust review --json`` answers one.  An anomalous score is not
    ``committed`` until a reviewer approves it."""

    id: str
    organization_id: str
    agent_id: str
    scheme: str
    score: Number | None
    tier: str | None
    details: dict[str, object]
    was_anomalous: bool
    committed: bool
    reviewed_by: str | None
    reviewed_at: str | None
    review_decision: str | None
    computed_at: str
    at: str
