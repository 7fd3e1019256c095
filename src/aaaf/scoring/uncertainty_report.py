"""The SCORING.md §2.5 report of a bootstrap, shared by the AAAF and trust schemes: the
interval, the tier probabilities, and the words the reports use for them.

NumPy is imported inside the two functions that compute: the readers of a stored report
(badges, reports, the CLI) import this module, and importing NumPy is 0.35 s of a process's
start that they do not need.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aaaf.scoring.core import Tier, display

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]

INSUFFICIENT = "INSUFFICIENT_EVIDENCE"


def tier_indices(values: FloatArray, tiers: Sequence[Tier]) -> IntArray:
    """Index (ascending tiers) of each value's tier: the highest lower bound it reaches."""
    import numpy as np

    lowers = np.array(sorted(t.lower for t in tiers))
    return np.maximum(np.searchsorted(lowers, values, side="right") - 1, 0).astype(np.int64)


def interval_report(
    values: FloatArray, tiers: Sequence[Tier], *, tiers_of: IntArray | None = None
) -> dict[str, Any]:
    """``{ci, tier_probabilities, resamples, insufficient}`` of §2.5 from B resampled composites.

    ``tiers_of``: each resample's tier index (ascending tiers) when a rule other than the
    value decides it (the trust score's gate and coverage rule); else the value's tier.
    The interval is ``numpy.percentile(…, [2.5, 97.5], method="linear")`` of the sufficient
    values, bit for bit.
    """
    import numpy as np

    resamples = int(values.shape[0])
    # the sufficient values sorted once: both bounds and every tier's share are read off them
    # (not numpy.percentile's partition and a search per value: interval reports 0.33 -> 0.12 ms
    # per 1 000-event agent, bootstrap_floor.py --in-situ CPU, three alternating pairs)
    present = ~np.isnan(values)
    ordered_values = np.sort(values[present])
    sufficient = int(ordered_values.shape[0])
    insufficient = resamples - sufficient
    ordered = sorted(tiers, key=lambda t: t.lower)
    shares: dict[str, float] = dict.fromkeys((t.name for t in ordered), 0.0)
    if sufficient:
        if tiers_of is None:
            # a value's tier is the highest lower bound it reaches (the lowest tier: any value)
            reached = np.searchsorted(ordered_values, [t.lower for t in ordered[1:]], side="left")
            found = np.diff(np.concatenate(([0], reached, [sufficient]))).tolist()
        else:
            found = np.bincount(tiers_of[present], minlength=len(ordered)).tolist()
        for tier, count in zip(ordered, found, strict=True):
            shares[tier.name] = int(count) / resamples
        bounds = [_linear_percentile(ordered_values, q) for q in (2.5, 97.5)]
        if 0.0 in bounds:  # ±0 compare equal: which zero a sort and numpy's partition put there may differ
            bounds = [float(v) for v in np.percentile(values[present], [2.5, 97.5], method="linear")]
        ci: list[float] | None = bounds
    else:
        ci = None
    if insufficient > 0:
        shares[INSUFFICIENT] = insufficient / resamples
    return {"ci": ci, "tier_probabilities": shares, "resamples": resamples, "insufficient": insufficient}


def _linear_percentile(ordered: FloatArray, q: float) -> float:
    """``numpy.percentile(values, q, method="linear")`` of the sorted values ``ordered`` (not
    empty, no NaN), float for float: numpy's virtual index, neighbours and interpolation
    (from the upper neighbour when the fraction is ≥ 0.5), in the same float operations."""
    size = int(ordered.shape[0])
    virtual = (size - 1) * (q / 100)
    below = math.floor(virtual)
    if virtual >= size - 1:  # at or past the last value: numpy takes the last one, twice
        below = above = -1
    else:
        above = below + 1
    fraction = virtual - below
    low, high = float(ordered[below]), float(ordered[above])
    step = high - low
    return high - step * (1 - fraction) if fraction >= 0.5 else low + step * fraction


def awarded_probability(uncertainty: Mapping[str, Any] | None, tier: str | None) -> float | None:
    """The probability of the tier awarded: that tier's share, unrounded (§2.5)."""
    if not uncertainty or tier is None:
        return None
    value = uncertainty.get("tier_probabilities", {}).get(tier)
    return float(value) if value is not None else None


DEFAULT_BORDERLINE = 0.8
"""The borderline threshold when the assessment's configuration does not say (§2.5)."""


def borderline_threshold(result: Mapping[str, Any]) -> float:
    """The threshold in force when the assessment ran (its stored configuration), else 0.8."""
    config = result.get("config") or {}
    value = config.get("borderline_probability") if isinstance(config, Mapping) else None
    return float(value) if isinstance(value, int | float) else DEFAULT_BORDERLINE


def is_borderline(uncertainty: Mapping[str, Any] | None, tier: str | None, threshold: float) -> bool:
    """A tier whose probability is below the threshold (0.8 by default) is borderline (§2.5)."""
    probability = awarded_probability(uncertainty, tier)
    return probability is not None and probability < threshold


CAPABILITY_INTERVAL_NOTE = (
    "Capability counts a domain, a complexity level or an autonomy level only when enough tasks "
    "clear a bar; a resample repeats some tasks and misses others, so it clears fewer bars, "
    "and the capability interval can sit below the score itself."
)
"""The one plain sentence of SCORING.md §2.5 on why a capability interval can sit low."""


def interval_text(
    uncertainty: Mapping[str, Any] | None,
    tier: str | None,
    threshold: float,
    *,
    scale: float = 1.0,
    digits: int = 2,
) -> str:
    """ "95 % interval 0.71–0.86; P(Expert) = 0.74, borderline" for reports and tables ('' when
    there is no uncertainty).  Scores are truncated as every shown score is (§0), on
    ``scale`` with ``digits`` decimals (0 for the trust score); the probability is truncated too,
    so a shown probability never reaches the threshold its tier missed."""
    if not uncertainty:
        return ""
    ci = uncertainty.get("ci")
    parts = []
    if ci is None:
        parts.append("no interval (every resample lacked evidence)")
    else:
        lo, hi = (display(float(v) * scale if scale != 1.0 else float(v), digits) for v in ci)
        parts.append(f"95 % interval {lo}–{hi}")
    probability = awarded_probability(uncertainty, tier)
    if probability is not None and tier is not None:
        words = f"P({tier}) = {display(probability)}"
        if probability < threshold:
            words += ", borderline"
        parts.append(words)
    return "; ".join(parts)
