"""Power: the minimum detectable effect of a paired comparison (SCORING.md §4, rule 3b).

MDE = 2.8 × sd(diff) / √n, sd with the n − 1 denominator.  2.8 is z₀.₉₇₅ + z₀.₈₀
(1.960 + 0.842): the smallest true mean difference a two-sided 5 % test detects with
80 % power.  A comparison whose CI contains 0 while its MDE exceeds the effect the
organisation cares about (0.25 points by default) cannot tell "no change" from "too few
samples", so its verdict is UNDERPOWERED rather than NOISE.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

MDE_MULTIPLIER = 2.8


def sample_sd(values: ArrayLike) -> float | None:
    """Standard deviation with the n − 1 denominator; None below 2 values."""
    data = np.asarray(values, dtype=np.float64).ravel()
    if data.size < 2:
        return None
    return float(np.std(data, ddof=1))


def minimum_detectable_effect(differences: ArrayLike, multiplier: float = MDE_MULTIPLIER) -> float | None:
    """2.8 × sd(diff) / √n; None below 2 paired differences (no sd)."""
    data = np.asarray(differences, dtype=np.float64).ravel()
    sd = sample_sd(data)
    if sd is None:
        return None
    return multiplier * sd / math.sqrt(data.size)


def samples_needed(sd: float, effect: float, multiplier: float = MDE_MULTIPLIER) -> int:
    """Paired samples needed for an MDE of at most ``effect`` given sd(diff): ⌈(2.8·sd/effect)²⌉."""
    if effect <= 0.0:
        raise ValueError("effect must be positive")
    if sd < 0.0:
        raise ValueError("sd must be non-negative")
    # the 1e-9 keeps 100.00000000000001 (float noise) from becoming 101
    return max(2, math.ceil((multiplier * sd / effect) ** 2 - 1e-9))
