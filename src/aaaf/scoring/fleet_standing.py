"""An agent's standing on one axis as the fleet overview shows it (SCORING.md §2.5): the
latest composite and tier, its 95 % interval, the probability of the tier awarded and whether
that is borderline, and the move since the previous assessment; and the largest such move over
the axes (the "change" the fleet is sorted by).  Pure: both the per-agent summary's write
(:mod:`aaaf.store.agent_summaries`) and the dashboard read it from the stored results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aaaf.scoring.uncertainty_report import awarded_probability, borderline_threshold


@dataclass(frozen=True)
class AxisStanding:
    """One axis of one agent's latest whole-axis assessment."""

    score: float | None
    tier: str | None
    low: float | None
    high: float | None
    probability: float | None
    borderline: bool
    delta: float | None


def axis_standing(result: Mapping[str, Any], previous: Mapping[str, Any] | None, axis: str) -> AxisStanding:
    """``axis`` of ``result`` (an assessment's result), moved against ``previous`` (the one before)."""
    data = result.get(axis) or {}
    score, tier = data.get("composite_score"), data.get("tier")
    uncertainty = data.get("uncertainty")
    ci = (uncertainty or {}).get("ci") or None
    probability = awarded_probability(uncertainty, tier)
    before = ((previous or {}).get(axis) or {}).get("composite_score")
    return AxisStanding(
        score=score,
        tier=tier,
        low=None if not ci else float(ci[0]),
        high=None if not ci else float(ci[1]),
        probability=probability,
        borderline=probability is not None and probability < borderline_threshold(result),
        delta=None if score is None or before is None else float(score) - float(before),
    )


def largest_change(deltas: Iterable[float | None]) -> float | None:
    """The largest move in size (a fall before a rise of the same size); None without any."""
    moves = [d for d in deltas if d is not None]
    return min(moves, key=lambda d: (-abs(d), d)) if moves else None
