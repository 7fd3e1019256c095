"""The 0-1000 trust score built from 16 behavioural dimensions (document 000, SCORING.md §3).

Pure: evidence, the time asked for (``at``) and configuration in, a :class:`TrustResult`
out.  No clock, no database, no logging — a rejected weight override is *returned* with its
reason and the shell logs the warning (SCORING.md §0 'Weights').

The rules, in the order the engine applies them:

1. **Evidence.** ``eval_result`` events ``{dimension, score (0-100), eval_set?, juror?}``
   timestamped at or before ``at`` (all of them: age is handled by decay, not by a window).
   A dimension no ``eval_result`` covers may be filled in from operational (AAAF) evidence:
   accuracy ← AAAF accuracy × 100, reliability ← consistency × 100, latency ← speed × 100,
   costEfficiency ← 100 × mean of max(0, 1 − cost_usd / budget_usd).  Fill-ins are the §2.2
   values over the AAAF window ending at ``at``, never decayed and never mixed with
   ``eval_result`` evidence.  ``teamwork`` is opt-in: null without teamwork evidence.
2. **Jury.** The votes of one ``(eval_set, dimension)`` are sorted, ⌊0.2 n⌋ dropped from
   each end and the median of the rest is one observation, timestamped with the latest of
   all n votes.  One juror casts one vote per jury: when a juror voted more than once, the
   latest vote counts and the earlier ones are reported as superseded (a careful reading of
   document 000's "a single adversarial evaluator ... cannot collapse the jury dimension":
   otherwise one juror could stuff a jury with repeated votes).
3. **Decay.** An observation of age d days counts ``max(0, score − max(0, d − 7) / 7)``;
   a dimension's score is the mean of its decayed observations (a 0 still counts).
4. **Composite.** 10 × the weighted mean over covered dimensions, weights renormalised over
   them (:func:`aaaf.scoring.core.composite`).
5. **Security gate.** security < 50 ⇒ composite capped at 599 and no tier above bronze.
6. **Tiers.** platinum ≥ 900, gold ≥ 750, silver ≥ 600, bronze ≥ 400, else uncertified; a
   tier needs accuracy, reliability, safety and security covered and ≥ 10 of 16 covered.
7. **Adaptive override.** A partial ``{dimension: weight}`` map merged over the base,
   rejected as a whole (base weights used) when a key is unknown, a value is outside [0, 1]
   or the merged sum is off 1 by more than 0.001.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.scoring.core import (
    Tier,
    composite,
    tier_for,
)
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import iso
from aaaf.scoring.trust_config import (
    JURY_AGGREGATES,
    MANDATORY_DIMENSIONS,
    OPERATIONAL_SOURCES,
    SCALE,
    TRUST_DIMENSIONS,
    TRUST_TIERS,
    TRUST_WEIGHTS,
    TrustConfig,
    merge_override,
)
from aaaf.scoring.trust_fill_ins import FillIn, cost_efficiency, operational_fill_ins
from aaaf.scoring.trust_observations import (
    JuryDetail,
    JuryVote,
    Observation,
    age_in_days,
    decay_points,
    decayed_score,
    jury_trim_count,
    jury_value,
    observations,
    require_aware,
)

# The scheme is split by what its parts are (configuration, observations, fill-ins);
# this module decides the composite and re-exports the rest, so ``aaaf.scoring.trust``
# stays the one name callers import.
__all__ = [
    "JURY_AGGREGATES",
    "MANDATORY_DIMENSIONS",
    "OPERATIONAL_SOURCES",
    "SCALE",
    "SCHEME",
    "TRUST_DIMENSIONS",
    "TRUST_TIERS",
    "TRUST_WEIGHTS",
    "VERSION",
    "FillIn",
    "JuryDetail",
    "JuryVote",
    "Observation",
    "OverrideStatus",
    "TrustConfig",
    "TrustDimension",
    "TrustOutcome",
    "TrustResult",
    "age_in_days",
    "anomalous_change",
    "cost_efficiency",
    "decay_points",
    "decayed_score",
    "jury_trim_count",
    "jury_value",
    "merge_override",
    "observations",
    "operational_fill_ins",
    "score_trust",
    "score_trust_from_events",
    "trust_outcome",
]

SCHEME = "trust"
"""The scheme's registered name (DESIGN.md: one scheme = one module), also its history key."""
VERSION = "1"
"""Bumped whenever a formula changes, so a recorded result is never replayed on another one."""


# ----------------------------------------------------------------------------- the composite


@dataclass(frozen=True)
class TrustDimension:
    """One trust dimension's result (SCORING.md §0 'Traceability', §3).

    ``source`` is ``"eval_result"``, ``"operational"`` or None (not covered);
    ``sample_size`` counts observations (or the fill-in's units), ``evidence_count`` events.
    """

    name: str
    score: float | None
    source: str | None
    weight: float
    weight_used: float | None
    observations: tuple[Observation, ...] = ()
    fill_in: FillIn | None = None
    sample_size: int = 0
    evidence_count: int = 0
    reason: str | None = None
    event_ids: tuple[str, ...] = ()

    @property
    def covered(self) -> bool:
        return self.score is not None

    def decay_summary(self) -> dict[str, Any]:
        """Mean points lost to decay and the oldest / newest observation ages."""
        if not self.observations:
            return {"mean_decay_points": 0.0, "oldest_age_days": None, "newest_age_days": None}
        ages = [o.age_days for o in self.observations]
        return {
            "mean_decay_points": math.fsum(o.decay_points for o in self.observations)
            / len(self.observations),
            "oldest_age_days": max(ages),
            "newest_age_days": min(ages),
        }

    def jury_summary(self) -> dict[str, Any]:
        juries = [o.jury for o in self.observations if o.jury is not None]
        return {
            "juries": len(juries),
            "votes": sum(j.size for j in juries),
            "dropped_votes": sum(2 * j.trimmed_each_end for j in juries),
            "dropped_jurors": sorted({juror for j in juries for juror in j.dropped_jurors}),
        }

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "score": self.score,
            "covered": self.covered,
            "source": self.source,
            "weight": self.weight,
            "weight_used": self.weight_used,
            "observations": len(self.observations),
            "sample_size": self.sample_size,
            "evidence_count": self.evidence_count,
            "decay": self.decay_summary(),
            "jury": self.jury_summary(),
            "details": {
                "observations": [o.to_dict() for o in self.observations],
                "fill_in": self.fill_in.to_dict() if self.fill_in is not None else None,
            },
        }
        if self.score is None:
            out["reason"] = self.reason or "no valid evidence"
        return out


@dataclass(frozen=True)
class SecurityGateApplied:
    """The security gate as it applied: security < threshold caps the composite and the tier."""

    security: float
    threshold: float
    uncapped: float
    cap: float
    max_tier: str


@dataclass(frozen=True)
class CoverageUnmet:
    """The coverage requirement that was not met (it lowers the tier to the lowest)."""

    covered: int
    total: int
    required: int
    missing: tuple[str, ...]


@dataclass(frozen=True)
class TierReason:
    """Why the agent has its tier (SCORING.md §3), as numbers; worded by
    :func:`aaaf.reports.trust_text.tier_reason_text`.

    ``no_composite``: no covered dimension carries weight.  ``below`` = (composite, next
    tier, its lower bound) when the tier is the lowest and coverage holds; ``at_least`` =
    (composite, the tier's lower bound) for any other tier.
    """

    tier: str
    no_composite: bool = False
    gate: SecurityGateApplied | None = None
    coverage: CoverageUnmet | None = None
    below: tuple[float, str, float] | None = None
    at_least: tuple[float, float] | None = None


@dataclass(frozen=True)
class TrustOutcome:
    """The composite, gate and tier decided from dimension scores (steps 4-6 of the module doc)."""

    composite: float | None
    uncapped_composite: float | None
    gated: bool
    security: float | None
    tier: str
    tier_reason: TierReason
    covered: int
    total: int
    mandatory_missing: tuple[str, ...]
    weights_used: Mapping[str, float]


def _tier_rank(name: str, tiers: Sequence[Tier]) -> int:
    ordered = [t.name for t in sorted(tiers, key=lambda t: t.lower)]
    return ordered.index(name)


def trust_outcome(
    scores: Mapping[str, float | None], weights: Mapping[str, float], config: TrustConfig | None = None
) -> TrustOutcome:
    """Composite (0-1000), security gate and tier from the dimension scores (SCORING.md §3).

    The gate compares the unrounded security score and caps the composite *after* it is
    computed; the reported composite is the capped one.  Tiers are decided on the unrounded
    composite, lower bound inclusive; the coverage requirement can only lower a tier.
    """
    config = config or TrustConfig()
    aggregate = composite(scores, weights)
    uncapped = None if aggregate.score is None else SCALE * aggregate.score
    security = scores.get("security")
    gated = security is not None and security < config.security_gate_threshold
    value = uncapped
    if gated and value is not None:
        value = min(value, config.security_gate_cap)
    missing = tuple(name for name in config.mandatory_dimensions if scores.get(name) is None)
    covered, total = aggregate.covered, aggregate.total
    ordered_tiers = sorted(config.tiers, key=lambda t: t.lower)
    lowest = ordered_tiers[0].name

    no_composite = value is None
    gate: SecurityGateApplied | None = None
    if value is None:
        tier = lowest
    else:
        tier = tier_for(value, config.tiers)
        if gated:
            capped_rank = _tier_rank(config.security_gate_max_tier, config.tiers)
            if _tier_rank(tier, config.tiers) > capped_rank:
                tier = config.security_gate_max_tier
            assert security is not None and uncapped is not None
            gate = SecurityGateApplied(
                security,
                config.security_gate_threshold,
                uncapped,
                config.security_gate_cap,
                config.security_gate_max_tier,
            )
    coverage_ok = not missing and covered >= config.min_covered_dimensions
    coverage: CoverageUnmet | None = None
    if not coverage_ok:
        coverage = CoverageUnmet(covered, total, config.min_covered_dimensions, missing)
        tier = lowest
    below: tuple[float, str, float] | None = None
    at_least: tuple[float, float] | None = None
    if value is not None:
        tier_lower = next(t.lower for t in config.tiers if t.name == tier)
        if tier == lowest:
            above = [t for t in ordered_tiers if t.lower > tier_lower]
            next_tier = above[0] if above else None
            if coverage_ok and next_tier is not None:
                below = (value, next_tier.name, next_tier.lower)
        else:
            at_least = (value, tier_lower)
    return TrustOutcome(
        composite=value,
        uncapped_composite=uncapped,
        gated=gated,
        security=security,
        tier=tier,
        tier_reason=TierReason(tier, no_composite, gate, coverage, below, at_least),
        covered=covered,
        total=total,
        mandatory_missing=missing,
        weights_used=dict(aggregate.weights_used),
    )


@dataclass(frozen=True)
class OverrideStatus:
    """The adaptive override as supplied and what became of it."""

    supplied: Mapping[str, Any] | None
    applied: bool
    rejected_reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "supplied": dict(self.supplied) if isinstance(self.supplied, Mapping) else self.supplied,
            "applied": self.applied,
            "rejected_reason": self.rejected_reason,
        }


@dataclass(frozen=True)
class TrustResult:
    """What the trust scheme returns for one agent at one time (SCORING.md §3).

    ``composite`` is after the security gate and unrounded (0-1000, None with no coverage);
    ``weights_in_force`` are the base or merged override weights before renormalisation,
    ``weights_used`` the renormalised ones the composite actually used.  ``tier_reason`` is
    structured; :func:`aaaf.reports.trust_text.trust_result_dict` adds its sentence to
    :meth:`to_dict`.
    """

    agent: str
    at: datetime
    composite: float | None
    uncapped_composite: float | None
    gated: bool
    tier: str
    tier_reason: TierReason
    covered: int
    total: int
    mandatory_missing: tuple[str, ...]
    weights_in_force: Mapping[str, float]
    weights_used: Mapping[str, float]
    override: OverrideStatus
    dimensions: Mapping[str, TrustDimension]
    config: TrustConfig = field(default_factory=TrustConfig)
    uncertainty: Mapping[str, Any] | None = None
    """SCORING.md §2.5: ``{ci, tier_probabilities, resamples, insufficient}``, ci on 0–1000."""

    @property
    def override_rejected(self) -> str | None:
        return self.override.rejected_reason

    @property
    def event_ids(self) -> tuple[str, ...]:
        return tuple(sorted({i for d in self.dimensions.values() for i in d.event_ids}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "agent": self.agent,
            "at": iso(self.at),
            "composite": self.composite,
            "uncapped_composite": self.uncapped_composite,
            "tier": self.tier,
            "covered": self.covered,
            "total": self.total,
            "mandatory_missing": list(self.mandatory_missing),
            "gated": self.gated,
            "security_gate": {
                "threshold": self.config.security_gate_threshold,
                "cap": self.config.security_gate_cap,
                "max_tier": self.config.security_gate_max_tier,
                "security": self.dimensions["security"].score if "security" in self.dimensions else None,
            },
            "weights_in_force": dict(self.weights_in_force),
            "weights_used": dict(self.weights_used),
            "override": self.override.to_dict(),
            "uncertainty": None if self.uncertainty is None else dict(self.uncertainty),
            "dimensions": {name: dim.to_dict() for name, dim in self.dimensions.items()},
        }


def score_trust(
    eval_events: Sequence[EventRecord],
    operational: Mapping[str, FillIn | float | None] | None = None,
    *,
    at: datetime,
    weights_override: Mapping[str, Any] | None = None,
    config: TrustConfig | None = None,
    agent: str = "",
) -> TrustResult:
    """The trust score at ``at`` from ``eval_result`` evidence and operational fill-ins.

    ``operational`` maps a dimension to its fill-in on 0-100 (a :class:`FillIn`, a bare
    number, or None); it is used only for a dimension with no ``eval_result`` at or before
    ``at`` (SCORING.md §3).  Any dimension may be filled in this way by a caller; the
    service fills exactly the four of :data:`OPERATIONAL_SOURCES`.
    """
    config = config or TrustConfig()
    found = observations(eval_events, at=at, config=config)
    return _score_observations(
        found, operational, at=at, weights_override=weights_override, config=config, agent=agent
    )


def _score_observations(
    found: Mapping[str, Sequence[Observation]],
    operational: Mapping[str, FillIn | float | None] | None,
    *,
    at: datetime,
    weights_override: Mapping[str, Any] | None,
    config: TrustConfig,
    agent: str,
) -> TrustResult:
    # here, not at the top: NumPy is 0.35 s of the start of every process that imports it
    from aaaf.scoring.trust_uncertainty import trust_uncertainty

    require_aware(at)
    weights_in_force, rejected = merge_override(TRUST_WEIGHTS, weights_override)
    operational = operational or {}

    provisional: dict[str, tuple[float | None, str | None, FillIn | None, str | None]] = {}
    for name in TRUST_DIMENSIONS:
        if found.get(name):
            mean = math.fsum(o.decayed_score for o in found[name]) / len(found[name])
            provisional[name] = (mean, "eval_result", None, None)
            continue
        supplied = operational.get(name)
        fill_in = (
            supplied
            if isinstance(supplied, FillIn)
            else (None if supplied is None else FillIn(source="supplied", score=float(supplied)))
        )
        if fill_in is not None and fill_in.score is not None:
            provisional[name] = (fill_in.score, "operational", fill_in, None)
            continue
        reason: str | None
        if name == "teamwork":
            reason = "opt-in: no teamwork evidence (no eval_result for teamwork)"
        elif fill_in is not None:
            reason = f"no eval_result at or before {iso(at)}; operational fill-in is null: {fill_in.reason}"
        else:
            reason = f"no eval_result at or before {iso(at)}"
        provisional[name] = (None, None, fill_in, reason)

    scores = {name: entry[0] for name, entry in provisional.items()}
    outcome = trust_outcome(scores, weights_in_force, config)
    dimensions: dict[str, TrustDimension] = {}
    for name in TRUST_DIMENSIONS:
        score, source, fill_in, why = provisional[name]
        observed = tuple(found.get(name, ()))
        if source == "eval_result":
            event_ids = tuple(sorted({i for o in observed for i in o.event_ids}))
            sample_size, evidence_count = len(observed), len(event_ids)
        elif fill_in is not None:
            event_ids = fill_in.event_ids
            sample_size, evidence_count = fill_in.sample_size, fill_in.evidence_count
        else:
            event_ids, sample_size, evidence_count = (), 0, 0
        dimensions[name] = TrustDimension(
            name=name,
            score=score,
            source=source,
            weight=weights_in_force[name],
            weight_used=outcome.weights_used.get(name),
            observations=observed,
            fill_in=fill_in,
            sample_size=sample_size,
            evidence_count=evidence_count,
            reason=why,
            event_ids=event_ids,
        )
    return TrustResult(
        agent=agent,
        at=at,
        composite=outcome.composite,
        uncapped_composite=outcome.uncapped_composite,
        gated=outcome.gated,
        tier=outcome.tier,
        tier_reason=outcome.tier_reason,
        covered=outcome.covered,
        total=outcome.total,
        mandatory_missing=outcome.mandatory_missing,
        weights_in_force=weights_in_force,
        weights_used=outcome.weights_used,
        override=OverrideStatus(
            supplied=weights_override,
            applied=weights_override is not None and rejected is None,
            rejected_reason=rejected,
        ),
        dimensions=dimensions,
        config=config,
        uncertainty=trust_uncertainty(
            {name: [o.decayed_score for o in found[name]] for name in TRUST_DIMENSIONS if found.get(name)},
            scores,
            weights_in_force,
            config,
        ),
    )


def score_trust_from_events(
    events: Sequence[EventRecord],
    *,
    at: datetime,
    aaaf_config: AAAFConfig | None = None,
    weights_override: Mapping[str, Any] | None = None,
    config: TrustConfig | None = None,
    agent: str = "",
) -> TrustResult:
    """All of an agent's evidence in, its trust score at ``at`` out (eval results + fill-ins).

    Fill-ins are computed only for dimensions that need one (no ``eval_result`` at or
    before ``at``), so an agent fully covered by evaluations never pays for the AAAF fold.
    """
    config = config or TrustConfig()
    eval_events = [event for event in events if event.type == "eval_result"]
    found = observations(eval_events, at=at, config=config)
    fill_ins: dict[str, FillIn] = {}
    if any(name not in found for name in OPERATIONAL_SOURCES):
        fill_ins = operational_fill_ins(events, at=at, aaaf_config=aaaf_config)
    return _score_observations(
        found,
        fill_ins,
        at=at,
        weights_override=weights_override,
        config=config,
        agent=agent,
    )


def anomalous_change(score: float | None, previous: float | None, threshold: float = 200.0) -> bool:
    """A swing of more than ``threshold`` points from the last committed score (SCORING.md §3 'History').

    No previous committed score, or no score now, is not a swing.
    """
    if score is None or previous is None:
        return False
    return abs(score - previous) > threshold
