"""How sure a trust score is: the bootstrap of SCORING.md §2.5's trust bullet, vectorised.

The units are each dimension's observations (a jury's median with all its votes is one
observation; a lone ``eval_result`` is one), resampled within each dimension separately:
for every dimension with observations, in the order of the dimension table
(:data:`TRUST_DIMENSIONS`), ``integers(0, n_d, size=(B, n_d))`` from one generator
``default_rng(seed)``.  A resampled dimension's score is the mean of its drawn decayed
observations (decay as observed); fill-ins are kept as observed.  The composite, the
security gate (cap and highest tier) and the coverage rule are those of
:func:`aaaf.scoring.trust.trust_outcome`, applied to every resample; the interval is taken
on the composite after the cap, on the 0–1000 scale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from aaaf.scoring.composite_rows import composite_rows
from aaaf.scoring.core import Tier
from aaaf.scoring.trust_config import SCALE, TRUST_DIMENSIONS, TrustConfig
from aaaf.scoring.uncertainty import FloatArray, IntArray, interval_report, tier_indices


def resampled_dimension_scores(
    decayed: Mapping[str, Sequence[float]],
    fixed: Mapping[str, float | None],
    resamples: int,
    seed: int,
) -> dict[str, FloatArray]:
    """Every dimension's score in every resample (NaN = not covered), table order.

    ``decayed``: a dimension's decayed observation scores, in the order the engine lists
    them; ``fixed``: the score of a dimension without observations (a fill-in, or None).
    """
    rng = np.random.default_rng(seed)
    out: dict[str, FloatArray] = {}
    for name in TRUST_DIMENSIONS:
        values = decayed.get(name)
        if values:
            array = np.asarray(values, dtype=np.float64)
            draws = rng.integers(0, array.size, size=(resamples, array.size))
            out[name] = array[draws].mean(axis=1)
        else:
            score = fixed.get(name)
            out[name] = np.full(resamples, np.nan if score is None else float(score))
    return out


def resampled_composites(
    scores: Mapping[str, FloatArray], weights: Mapping[str, float], config: TrustConfig
) -> tuple[FloatArray, IntArray]:
    """(composite after the cap, tier index in ascending tiers) of every resample (§3 rules).

    A resample without a composite has NaN and the lowest tier (it is counted insufficient).
    """
    names = list(weights)
    value = SCALE * composite_rows([scores[name] for name in names], [weights[name] for name in names])
    security = scores.get("security")
    ordered: list[Tier] = sorted(config.tiers, key=lambda t: t.lower)
    gated = np.zeros(value.shape, dtype=bool)
    if security is not None:
        gated = ~np.isnan(security) & (security < config.security_gate_threshold)
        value = np.where(gated & ~np.isnan(value), np.minimum(value, config.security_gate_cap), value)
    by_value = tier_indices(np.nan_to_num(value, nan=-np.inf), ordered)  # the capped value's tier
    highest = [t.name for t in ordered].index(config.security_gate_max_tier)
    tier: IntArray = np.where(gated, np.minimum(by_value, highest), by_value).astype(np.int64)
    covered = {name for name in names if not np.isnan(scores[name]).all()}
    missing = [name for name in config.mandatory_dimensions if name not in covered]
    if missing or len(covered) < config.min_covered_dimensions:
        tier = np.zeros_like(tier)  # coverage is the same in every resample: the lowest tier
    return value, tier


def trust_uncertainty(
    decayed: Mapping[str, Sequence[float]],
    fixed: Mapping[str, float | None],
    weights: Mapping[str, float],
    config: TrustConfig,
) -> dict[str, Any] | None:
    """The trust score's ``uncertainty``: ``{ci, tier_probabilities, resamples, insufficient}``
    (ci on 0–1000 after the cap); None when B is 0."""
    resamples = config.uncertainty_resamples
    if resamples <= 0:
        return None
    scores = resampled_dimension_scores(decayed, fixed, resamples, config.uncertainty_seed)
    value, tier = resampled_composites(scores, weights, config)
    ordered = sorted(config.tiers, key=lambda t: t.lower)
    # the tier of each resample is decided by the rules above (gate, coverage), not by its
    # value alone: the report counts the tiers, the interval the capped values
    return interval_report(value, ordered, tiers_of=tier)
