"""The SCORING.md §2.5 report of a bootstrap, shared by the AAAF and trust schemes: the
interval, the tier probabilities, and the words the reports use for them.

NumPy is imported inside the two functions that compute: the readers of a stored report
(badges, reports, the CLI) import this module, and importing NumPy is 0.35 s of a process's
start that they do not need.
"""

from __future__ import annotations

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
    """
    import numpy as np

    resamples = int(values.shape[0])
    present = ~np.isnan(values)
    sufficient = values[present]
    insufficient = resamples - int(sufficient.shape[0])
    ordered = sorted(tiers, key=lambda t: t.lower)
    shares: dict[str, float] = dict.fromkeys((t.name for t in ordered), 0.0)
    if sufficient.size:
        indices = tier_indices(sufficient, ordered) if tiers_of is None else tiers_of[present]
        found = np.bincount(indices, minlength=len(ordered))
        for tier, count in zip(ordered, found, strict=True):
            shares[tier.name] = int(count) / resamples
        lo, hi = np.percentile(sufficient, [2.5, 97.5], method="linear")
        ci: list[float] | None = [float(lo), float(hi)]
    else:
        ci = None
    if insufficient > 0:
        shares[INSUFFICIENT] = insufficient / resamples
    return {"ci": ci, "tier_probabilities": shares, "resamples": resamples, "insufficient": insufficient}


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
