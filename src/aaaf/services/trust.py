"""The trust score service: store ↔ pure trust engine ↔ score history (SCORING.md §3).

* :func:`compute_trust` loads an agent's evidence and the organization's adaptive weight
  override, calls :func:`aaaf.scoring.trust.score_trust_from_events`, logs a rejected
  override as a warning (document 000 §4: the engine returns the rejection, the shell logs
  it) and, with ``record=True``, appends the score to ``score_history``.
* Recording is for scores computed for the present time only (not for an ``--at`` in the
  past, and not by read-only callers such as reports): a change of more than 200 points from
  the last committed score is stored ``was_anomalous = true`` and not committed — the
  previous score stays canonical — until :func:`review` approves it.
* A composite that does not exist (no covered dimension) is not a score and is not recorded.
* A score that says nothing new is not recorded either (issue 21): when the result shows
  exactly what the last committed entry shows — see :func:`unchanged_since` — no row is
  added and the last committed entry stays canonical.

The clock is the caller's: ``at`` and ``computed_at`` are parameters.
"""

from __future__ import annotations

import enum
import json
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from aaaf.errors import AAAFError
from aaaf.models import TrustScore
from aaaf.reports.trust_text import tier_reason_text, trust_result_dict
from aaaf.scoring.core import truncate
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.trust import (
    SCHEME,
    TRUST_WEIGHTS,
    TrustConfig,
    TrustResult,
    anomalous_change,
    merge_override,
    score_trust_from_events,
)
from aaaf.store.records import Agent, ScoreHistoryEntry, TrustOverride

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.repositories.base import AgentRef

log = logging.getLogger(__name__)


class Stored(enum.Enum):
    """The default of ``override``: the weights override stored for the organization."""

    OVERRIDE = "the organization's stored override"


@dataclass(frozen=True)
class TrustReport:
    """A computed trust score and what happened to it in the history.

    ``entry`` is the history row written for this computation (None when not recorded);
    ``canonical`` is the agent's committed score after it (the one to show as official).
    """

    result: TrustResult
    entry: ScoreHistoryEntry | None
    canonical: ScoreHistoryEntry | None
    not_recorded_reason: str | None = None

    @property
    def held_for_review(self) -> bool:
        return self.entry is not None and bool(self.entry.was_anomalous) and not self.entry.committed

    def to_model(self) -> TrustScore:
        """The public shape :class:`aaaf.models.TrustScore`."""
        return TrustScore.model_validate(self.to_dict())

    def to_dict(self) -> dict[str, object]:
        out = trust_result_dict(self.result)
        out["history"] = {
            "recorded": self.entry is not None,
            "not_recorded_reason": self.not_recorded_reason,
            "entry_id": str(self.entry.id) if self.entry is not None else None,
            "was_anomalous": bool(self.entry.was_anomalous) if self.entry is not None else False,
            "committed": bool(self.entry.committed) if self.entry is not None else False,
            "canonical_score": self.canonical.score if self.canonical is not None else None,
            "canonical_tier": self.canonical.tier if self.canonical is not None else None,
        }
        return out


def _agent(org: OrgStore, agent: Agent | AgentRef) -> Agent:
    """An ``Agent`` record from a record, a name or an id."""
    if isinstance(agent, Agent):
        return agent
    return org.get_agent(agent)


def _override_weights(org: OrgStore) -> Mapping[str, object] | None:
    stored = org.trust_override()
    return None if stored is None else stored.weights


def _warn_if_rejected(result: TrustResult) -> None:
    if result.override_rejected is not None:
        log.warning(
            "[scoring] Adaptive weights override rejected: %s; base weights used",
            result.override_rejected,
        )


def history_details(result: TrustResult) -> dict[str, object]:
    """What a history row keeps beside score and tier: enough to explain it later."""
    return {
        "uncapped_composite": result.uncapped_composite,
        "gated": result.gated,
        "tier_reason": tier_reason_text(result.tier_reason),
        "covered": result.covered,
        "total": result.total,
        "weights_in_force": dict(result.weights_in_force),
        "override": result.override.to_dict(),
        "uncertainty": None if result.uncertainty is None else dict(result.uncertainty),  # SCORING.md §2.5
        "dimensions": {
            name: {"score": dim.score, "source": dim.source, "observations": len(dim.observations)}
            for name, dim in result.dimensions.items()
        },
    }


def _shown(value: float | None, digits: int) -> float | None:
    """A score as the trust scale reports it (SCORING.md §0: truncated, never rounded)."""
    return None if value is None else truncate(value, digits)


Reported = tuple[
    float | None, str | None, bool, tuple[tuple[str, float | None], ...], tuple[tuple[str, float], ...]
]
"""What a trust score reports, at the precision it reports it (:func:`unchanged_since`)."""


def _reported(
    composite: float | None,
    tier: str | None,
    gated: bool,
    dimension_scores: Mapping[str, float | None],
    weights_in_force: Mapping[str, float],
) -> Reported:
    return (
        _shown(composite, 0),
        tier,
        bool(gated),
        tuple(sorted((name, _shown(score, 1)) for name, score in dimension_scores.items())),
        tuple(sorted((name, float(weight)) for name, weight in weights_in_force.items())),
    )


def unchanged_since(result: TrustResult, previous: ScoreHistoryEntry | None) -> bool:
    """Whether ``result`` says nothing that the committed entry ``previous`` does not already say.

    "Nothing changed" means, all at once:

    * the same composite on the 0-1000 scale as reported — an integer, truncated (SCORING.md §0);
    * the same tier and the same security-gate state;
    * the same dimensions covered, each with the same score as reported — 0-100 truncated to
      one decimal, as ``aaaf trust NAME`` shows it (a null dimension only equals a null one);
    * exactly the same weights in force (base or override, before renormalisation).

    The comparison is at the reported precision because time decay (SCORING.md §3) moves an
    unrounded score by a few millionths of a point every second once an observation is past
    its grace week: an exact comparison would record a "new" score on every call.  The
    unrounded values are still what is stored, and a drift that reaches the reported
    precision is recorded (it is compared with the last *committed* entry, so small drifts
    cannot add up unseen).
    """
    if previous is None or previous.score is None:
        return False
    details = previous.details or {}
    stored_dimensions = details.get("dimensions")
    stored_weights = details.get("weights_in_force")
    if not isinstance(stored_dimensions, Mapping) or not isinstance(stored_weights, Mapping):
        return False
    before = _reported(
        previous.score,
        previous.tier,
        bool(details.get("gated", False)),
        {name: (entry or {}).get("score") for name, entry in stored_dimensions.items()},
        stored_weights,
    )
    now = _reported(
        result.composite,
        result.tier,
        result.gated,
        {name: dim.score for name, dim in result.dimensions.items()},
        result.weights_in_force,
    )
    return before == now


def score_agent(
    org: OrgStore,
    agent: Agent | AgentRef,
    *,
    at: datetime,
    events: Sequence[EventRecord] | None = None,
    override: Mapping[str, object] | Literal[Stored.OVERRIDE] | None = Stored.OVERRIDE,
    config: TrustConfig | None = None,
    aaaf_config: AAAFConfig | None = None,
) -> TrustResult:
    """The agent's trust score at ``at``, read-only (nothing is recorded).

    ``events`` and ``override`` default to what the store holds for the agent and the
    organization; ``override=None`` means explicitly no override.
    """
    record = _agent(org, agent)
    if events is None:
        events = org.events(record.id)
    if override is Stored.OVERRIDE:
        override = _override_weights(org)
    result = score_trust_from_events(
        events,
        at=at,
        aaaf_config=aaaf_config if aaaf_config is not None else org.config(),
        weights_override=override,
        config=config,
        agent=record.name,
    )
    _warn_if_rejected(result)
    return result


def record_score(
    org: OrgStore,
    agent: Agent | AgentRef,
    result: TrustResult,
    *,
    computed_at: datetime,
    config: TrustConfig | None = None,
) -> TrustReport:
    """Append a present-time score to ``score_history`` with the anomaly rule (SCORING.md §3)."""
    config = config or TrustConfig()
    record = _agent(org, agent)
    previous = org.last_committed_score(record.id, SCHEME)
    if result.composite is None:
        return TrustReport(result, None, previous, "no composite: no covered dimension")
    if previous is not None and unchanged_since(result, previous):
        return TrustReport(
            result,
            None,
            previous,
            f"unchanged since history entry {previous.id}: same composite, tier, dimension scores "
            "and weights in force",
        )
    was_anomalous = anomalous_change(
        result.composite, previous.score if previous is not None else None, config.anomaly_threshold
    )
    entry = org.append_score_history(
        record.id,
        scheme=SCHEME,
        score=result.composite,
        tier=result.tier,
        details=history_details(result),
        was_anomalous=was_anomalous,
        committed=not was_anomalous,
        computed_at=computed_at,
        at=result.at,
    )
    if was_anomalous:
        log.warning(
            "trust score of %s moved by more than %s points (%s → %s): held for review (history %s)",
            record.name,
            config.anomaly_threshold,
            previous.score if previous is not None else None,
            result.composite,
            entry.id,
        )
    canonical = org.last_committed_score(record.id, SCHEME)
    return TrustReport(result, entry, canonical)


def trust_report(
    org: OrgStore,
    agent: Agent | AgentRef,
    *,
    at: datetime,
    record: bool,
    computed_at: datetime | None = None,
    events: Sequence[EventRecord] | None = None,
    override: Mapping[str, object] | Literal[Stored.OVERRIDE] | None = Stored.OVERRIDE,
    config: TrustConfig | None = None,
    aaaf_config: AAAFConfig | None = None,
) -> TrustReport:
    """Compute, and with ``record`` append to the history; ``computed_at`` defaults to ``at``."""
    subject = _agent(org, agent)
    result = score_agent(
        org, subject, at=at, events=events, override=override, config=config, aaaf_config=aaaf_config
    )
    if not record:
        return TrustReport(result, None, org.last_committed_score(subject.id, SCHEME), "read-only query")
    return record_score(org, subject, result, computed_at=computed_at or at, config=config)


def compute_trust(org: OrgStore, agent: Agent | AgentRef, *, at: datetime, record: bool) -> TrustResult:
    """The agent's trust score at ``at``; ``record=True`` only for a present-time score.

    Read-only callers (reports, ``--at`` in the past) pass ``record=False``.
    """
    return trust_report(org, agent, at=at, record=record).result


def trust_reports_for_all(
    org: OrgStore, *, at: datetime, record: bool, computed_at: datetime | None = None
) -> list[TrustReport]:
    """Every agent of the organization, evidence loaded in one query (``aaaf trust --all``)."""
    agents = org.agents()
    if not agents:
        return []
    by_agent = org.events_for_agents([a.id for a in agents])
    override = _override_weights(org)
    aaaf_config = org.config()
    reports = []
    for agent in agents:
        reports.append(
            trust_report(
                org,
                agent,
                at=at,
                record=record,
                computed_at=computed_at,
                events=by_agent.get(agent.id, []),
                override=override,
                aaaf_config=aaaf_config,
            )
        )
    return reports


# ----------------------------------------------------------------------------- history and review


def history(org: OrgStore, agent: Agent | AgentRef) -> list[ScoreHistoryEntry]:
    """The agent's trust score history, oldest first."""
    return list(org.score_history(_agent(org, agent).id, SCHEME))


def _history_id(value: uuid.UUID | str) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError as error:
        raise AAAFError(
            "INVALID_REQUEST", f"{value!r} is not a score history id (a UUID)", {"field": "history_id"}
        ) from error


def review(
    org: OrgStore, history_id: uuid.UUID | str, *, approve: bool, reviewer: str, at: datetime
) -> ScoreHistoryEntry:
    """Approve (commit as canonical) or reject a held anomalous score.

    Anything but a held anomalous, unreviewed score is ``CONFLICT`` (the store enforces it).
    """
    if not reviewer.strip():
        raise AAAFError("INVALID_REQUEST", "a review names its reviewer", {"field": "reviewer"})
    return org.review_score(_history_id(history_id), approve=approve, reviewer=reviewer, at=at)


def pending_reviews(org: OrgStore) -> list[tuple[Agent, ScoreHistoryEntry]]:
    """(agent, entry) for every held anomalous trust score not reviewed yet."""
    pending = []
    for agent in org.agents():
        for entry in org.score_history(agent.id, SCHEME):
            if entry.was_anomalous and not entry.committed and entry.review_decision is None:
                pending.append((agent, entry))
    return pending


# ----------------------------------------------------------------------------- weight override


def load_override_file(path: Path | str) -> dict[str, object]:
    """A JSON object ``{dimension: weight}``; anything else is bad input.

    Its *values* are not validated here: the override is stored as given and validated when
    applied (SCORING.md §0, §3).
    """
    file = Path(path)
    try:
        value = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise AAAFError(
            "INVALID_REQUEST", f"{file}: not JSON ({error.msg} at line {error.lineno})", {"field": "override"}
        ) from error
    if not isinstance(value, dict):
        raise AAAFError(
            "INVALID_REQUEST",
            f"{file}: a trust weight override is a JSON object {{dimension: weight}}",
            {"field": "override"},
        )
    return value


def set_override(
    org: OrgStore, weights: Mapping[str, object], *, set_by: str | None, at: datetime
) -> tuple[TrustOverride, str | None]:
    """Store the override as given; return it and, if it would be rejected when applied, why."""
    stored = org.set_trust_override(dict(weights), set_by=set_by, set_at=at)
    _, rejected = merge_override(TRUST_WEIGHTS, stored.weights)
    if rejected is not None:
        log.warning("[scoring] Adaptive weights override stored but will be rejected: %s", rejected)
    return stored, rejected


def clear_override(org: OrgStore) -> None:
    org.clear_trust_override()


class WeightsStatus(TypedDict):
    """The trust weights as ``aaaf trust weights`` shows them (:class:`aaaf.models.admin.TrustWeightsStatus`)."""

    base: dict[str, float]
    override: dict[str, Any] | None  # the stored override as given (TrustOverride.to_dict)
    applied: bool
    rejected_reason: str | None
    weights_in_force: dict[str, float]


def weights_status(org: OrgStore) -> WeightsStatus:
    """Base weights, the stored override (who set it, when) and the weights in force."""
    stored = org.trust_override()
    in_force, rejected = merge_override(TRUST_WEIGHTS, None if stored is None else stored.weights)
    return {
        "base": dict(TRUST_WEIGHTS),
        "override": None if stored is None else stored.to_dict(),
        "applied": stored is not None and rejected is None,
        "rejected_reason": rejected,
        "weights_in_force": in_force,
    }
