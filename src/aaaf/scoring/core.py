"""The one weighted-aggregation primitive every scheme uses (SCORING.md §0).

* a weight set must sum to 1.0 ± 0.001 with every weight in [0, 1];
* a dimension without valid evidence is ``None`` (null), never 0;
* a composite is the weighted mean over the covered dimensions with the weights
  renormalised to sum to 1 over them, and reports ``covered`` / ``total``;
* tiers are decided on the unrounded value, lower bound inclusive;
* human-readable output truncates (never rounds up into a higher tier).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aaaf.errors import AAAFError

WEIGHT_SUM_TOLERANCE = 0.001


def weight_problem(weights: Mapping[str, float], expected: Sequence[str] | None = None) -> str | None:
    """Why a weight set is invalid, or None when it is valid (SCORING.md §0 'Weights')."""
    if expected is not None:
        unknown = sorted(set(weights) - set(expected))
        if unknown:
            return f"unknown dimension(s) {', '.join(unknown)}; expected {', '.join(expected)}"
        missing = sorted(set(expected) - set(weights))
        if missing:
            return f"missing weight(s) for {', '.join(missing)}"
    for name, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return f"weight of {name} is not a finite number: {value!r}"
        if not 0.0 <= value <= 1.0:
            return f"weight of {name} is {value}, outside [0, 1]"
    total = math.fsum(weights.values())
    if abs(total - 1.0) > WEIGHT_SUM_TOLERANCE:
        return f"weights sum to {total:.6f}, not 1.0 ± {WEIGHT_SUM_TOLERANCE}"
    return None


def check_weights(weights: Mapping[str, float], expected: Sequence[str] | None = None) -> dict[str, float]:
    """Validate user-supplied weights; raise ``WEIGHT_SUM_INVALID`` naming the actual sum."""
    problem = weight_problem(weights, expected)
    if problem is not None:
        raise AAAFError(
            "WEIGHT_SUM_INVALID",
            f"Invalid dimension weights: {problem}.",
            {
                "sum": math.fsum(float(v) for v in weights.values() if isinstance(v, int | float)),
                "weights": dict(weights),
            },
        )
    return {k: float(v) for k, v in weights.items()}


def guard_builtin_weights(weights: Mapping[str, float], name: str) -> Mapping[str, float]:
    """Load-time guard for built-in tables: a wrong table is a crash, not a warning."""
    problem = weight_problem(weights)
    if problem is not None:
        raise RuntimeError(f"built-in weight table {name} is invalid: {problem}")
    return weights


@dataclass(frozen=True)
class DimensionResult:
    """One dimension's result (SCORING.md §0 'Traceability')."""

    name: str
    score: float | None
    sample_size: int
    evidence_count: int
    details: Mapping[str, Any] = field(default_factory=dict)
    reason: str | None = None
    event_ids: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, name: str, data: Mapping[str, Any]) -> DimensionResult:
        """Rebuild a result from its ``to_dict`` form (floats round-trip exactly through JSON)."""
        return cls(
            name=name,
            score=data.get("score"),
            sample_size=int(data.get("sample_size", 0)),
            evidence_count=int(data.get("evidence_count", 0)),
            details=dict(data.get("details", {})),
            reason=data.get("reason"),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "score": self.score,
            "sample_size": self.sample_size,
            "evidence_count": self.evidence_count,
        }
        out.update(self.details)
        out["details"] = dict(self.details)
        if self.score is None:
            out["reason"] = self.reason or "no valid evidence"
        return out


@dataclass(frozen=True)
class Tier:
    name: str
    lower: float


def tier_for(value: float, tiers: Sequence[Tier]) -> str:
    """The highest tier whose lower bound (inclusive) the unrounded value reaches."""
    ordered = sorted(tiers, key=lambda t: t.lower)
    chosen = ordered[0].name
    for tier in ordered:
        if value >= tier.lower:
            chosen = tier.name
    return chosen


@dataclass(frozen=True)
class CompositeResult:
    score: float | None
    tier: str | None
    covered: int
    total: int
    weights_used: Mapping[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {
            "composite_score": self.score,
            "tier": self.tier,
            "covered": self.covered,
            "total": self.total,
            "weights_used": dict(self.weights_used),
        }


def renormalised_weights(
    scores: Mapping[str, float | None], weights: Mapping[str, float]
) -> dict[str, float]:
    """Weights renormalised to sum to 1 over the covered (non-null) dimensions.

    A covered dimension whose weight is 0 stays in with weight 0.  When every covered
    dimension has weight 0 there is nothing to renormalise and the result is empty.
    """
    covered = [name for name in weights if scores.get(name) is not None]
    total = math.fsum(weights[name] for name in covered)
    if total <= 0.0:
        return {}
    return {name: weights[name] / total for name in covered}


def composite(
    scores: Mapping[str, float | None],
    weights: Mapping[str, float],
    tiers: Sequence[Tier] | None = None,
) -> CompositeResult:
    """Weighted mean over covered dimensions, weights renormalised (SCORING.md §0)."""
    used = renormalised_weights(scores, weights)
    covered = sum(1 for name in weights if scores.get(name) is not None)
    if not used:
        return CompositeResult(None, None, covered, len(weights), {})
    value = math.fsum(used[name] * float(scores[name]) for name in used)  # type: ignore[arg-type]
    tier = tier_for(value, tiers) if tiers else None
    return CompositeResult(value, tier, covered, len(weights), used)


def truncate(value: float, digits: int = 2) -> float:
    """Truncate toward zero for display, so a shown score never sits in a higher tier."""
    factor = float(10**digits)
    # the small epsilon guards against 0.29 being stored as 0.28999999999999998
    return math.floor(value * factor + 1e-9) / factor


def display(value: float | None, digits: int = 2) -> str:
    """Human-readable score: truncated to ``digits`` decimals, '—' for null."""
    if value is None:
        return "—"
    return f"{truncate(value, digits):.{digits}f}"
