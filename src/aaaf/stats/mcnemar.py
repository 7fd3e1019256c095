"""McNemar's exact test on paired binary outcomes (the release gate's task flips).

A baseline and a candidate ran the same tasks; a task is *accepted* or not on each side.
Tasks that kept their status carry no information about a change; the discordant ones do:
``lost`` tasks were accepted in the baseline and not in the candidate, ``gained`` the other
way round.  Under "no change" each discordant task is equally likely to fall either way,
so ``lost`` ~ Binomial(lost + gained, ½).  The exact test uses that distribution itself
(no χ² approximation, which is poor for the handful of flips a gate usually sees):

* two-sided p = min(1, 2 · P(X ≤ min(lost, gained))), the conditional exact McNemar test
  (what ``statsmodels``' ``mcnemar(exact=True)`` and ``scipy.stats.binomtest(lost,
  lost + gained, 0.5)`` give: the binomial is symmetric at ½);
* one-sided p (more lost than gained) = P(X ≥ lost).

No discordant task at all is no evidence either way: p = 1.  Vectorised: ``lost`` and
``gained`` may be arrays of counts (one test per element).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class McNemarResult:
    """One exact McNemar test: the discordant counts and both p-values."""

    lost: int
    gained: int
    p_value: float
    """Two-sided."""
    p_value_lost: float
    """One-sided: more tasks lost than gained."""

    @property
    def discordant(self) -> int:
        return self.lost + self.gained


def mcnemar_exact_p(lost: ArrayLike, gained: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(two-sided p, one-sided p for "more lost") of each pair of discordant counts."""
    from scipy.stats import binom  # lazily: `aaaf --help` does not pay for SciPy

    b = np.asarray(lost, dtype=np.int64)
    c = np.asarray(gained, dtype=np.int64)
    if np.any(b < 0) or np.any(c < 0):
        raise ValueError("flip counts must be non-negative")
    n = b + c
    two_sided = np.minimum(1.0, 2.0 * binom.cdf(np.minimum(b, c), n, 0.5))
    one_sided = binom.sf(b - 1, n, 0.5)  # P(X ≥ b)
    none = n == 0
    return (
        np.where(none, 1.0, two_sided).astype(np.float64),
        np.where(none, 1.0, one_sided).astype(np.float64),
    )


def mcnemar_exact(lost: int, gained: int) -> McNemarResult:
    """The exact McNemar test of one table's discordant counts."""
    two_sided, one_sided = mcnemar_exact_p(lost, gained)
    return McNemarResult(int(lost), int(gained), float(two_sided), float(one_sided))
