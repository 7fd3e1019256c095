"""An organization's configuration and the review queues, as ``--json`` prints them.

``aaaf config set|show`` (docs/scoring.md §7: every setting with its change history),
``aaaf review approve|reject|pending`` (docs/scoring.md §3.7: anomalous assessments held for
review) and ``aaaf trust weights|review`` (docs/scoring.md §4: the trust weights override and the
trust scores held as anomalous).
"""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel
from aaaf.models.trust import ScoreHistoryEntry


class ConfigChange(PublicModel):
    """One recorded change: each changed setting's ``before`` and ``after``."""

    id: str
    changed_at: str
    changed_by: str | None = None
    changes: dict[str, dict[str, object]]


class ConfigSetResult(PublicModel):
    """``aaaf config set --json``: whether the value changed, and the change recorded."""

    changed: bool
    change: ConfigChange | None


class ConfigShow(PublicModel):
    """``aaaf config show --json``: every setting and the change history, oldest first."""

    organization: str
    config: dict[str, object]
    history: list[ConfigChange]


class ReviewDecision(PublicModel):
    """``aaaf review approve|reject --json``: the decision recorded on the assessment."""

    assessment_id: str
    review_state: str | None
    reviewed_by: str | None
    reviewed_at: str | None


class PendingReview(PublicModel):
    """An assessment held for review (``aaaf review pending --json`` lists them)."""

    assessment_id: str
    agent: str | None
    performance_composite: Number | None
    capability_composite: Number | None
    completed_at: str | None


class TrustWeightsStatus(PublicModel):
    """``aaaf trust weights --json``: the base weights, the stored override (who set it, when),
    whether it applies (and why not) and the weights in force."""

    base: dict[str, Number]
    override: dict[str, object] | None
    applied: bool
    rejected_reason: str | None
    weights_in_force: dict[str, Number]


class _NamedAgent(PublicModel):
    agent: str


class PendingTrustReview(ScoreHistoryEntry, _NamedAgent):
    """A trust score held as anomalous, with its agent's name first (``aaaf trust review --json``)."""
