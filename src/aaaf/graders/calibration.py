"""Calibration of a model judge against human labels (document 004 §3.4).

"Model-based graders must achieve >= 0.80 Spearman correlation with human graders
before deployment for any dimension."  :func:`calibrate` computes Spearman's ρ
(average ranks for ties, ``aaaf.stats.agreement.spearman``) between a judge's scores and
human scores of the same items, and accepts the judge for the calibrated dimension
only when ρ ≥ the threshold (0.80).  A judge that was refused for a dimension cannot
be used for it (:class:`aaaf.graders.judge.Judge` checks at construction).

Choices the document leaves open, made here:

* pairs where either side is missing (None, NaN — a failed judgement) are left out and
  counted; ρ is computed on the rest;
* fewer than ``min_samples`` pairs (default 10) is a refusal: ρ on a handful of items
  can reach 0.80 by chance.  Document 004 asks for a human baseline of 100-200 samples;
  a calibration on fewer says so in its reason;
* ρ undefined (one side constant) is a refusal;
* ρ is compared with a tolerance of 1e-12 so that a correlation of exactly 0.80 computed
  in floating point (0.7999999999999999) is not refused by rounding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aaaf.errors import AAAFError
from aaaf.stats.agreement import spearman

SPEARMAN_THRESHOLD = 0.80
DEFAULT_MIN_SAMPLES = 10
BASELINE_SAMPLES = 100  # document 004 §3.4: "Calibration baseline (100-200 samples)"
_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Calibration:
    """Spearman ρ of judge vs human on ``n`` paired items, and whether the judge may be used.

    ``dimension`` is what the judge was calibrated on (a rubric name); None means the
    calibration applies to whatever rubric the judge uses.
    """

    spearman: float | None
    n: int
    accepted: bool
    reason: str
    threshold: float = SPEARMAN_THRESHOLD
    dimension: str | None = None
    judge: str | None = None
    dropped: int = 0

    def applies_to(self, dimension: str) -> bool:
        return self.dimension is None or self.dimension == dimension

    def to_dict(self) -> dict[str, Any]:
        """What reports and answers show of a calibration."""
        return {
            "spearman": self.spearman,
            "n": self.n,
            "dropped": self.dropped,
            "accepted": self.accepted,
            "dimension": self.dimension,
            "reason": self.reason,
        }


def _present(value: float | None) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def calibrate(
    judge_scores: Sequence[float | None],
    human_scores: Sequence[float | None],
    threshold: float = SPEARMAN_THRESHOLD,
    *,
    dimension: str | None = None,
    judge: str | None = None,
    min_samples: int = DEFAULT_MIN_SAMPLES,
) -> Calibration:
    """Accept or refuse a judge for a dimension by its Spearman ρ against human labels."""
    if len(judge_scores) != len(human_scores):
        raise AAAFError(
            "INVALID_REQUEST",
            f"Calibration needs one human score per judge score: got {len(judge_scores)} judge "
            f"and {len(human_scores)} human scores.",
        )
    if not -1.0 <= threshold <= 1.0:
        raise AAAFError("INVALID_REQUEST", f"A Spearman threshold must be in [-1, 1], got {threshold!r}.")
    pairs = [
        (float(j), float(h))
        for j, h in zip(judge_scores, human_scores, strict=True)
        if j is not None and h is not None and _present(j) and _present(h)
    ]
    for j, h in pairs:
        if not (math.isfinite(j) and math.isfinite(h)):
            raise AAAFError("INVALID_REQUEST", "Calibration scores must be finite numbers.")
    n = len(pairs)
    dropped = len(judge_scores) - n
    subject = f"judge {judge!r}" if judge else "the judge"
    where = f" for {dimension!r}" if dimension else ""
    note = f"; {dropped} item(s) without both scores left out" if dropped else ""
    if n < BASELINE_SAMPLES:
        note += f"; fewer than the {BASELINE_SAMPLES}-200 human labels a calibration asks for (docs/scoring.md §5.6)"

    def result(rho: float | None, accepted: bool, reason: str) -> Calibration:
        return Calibration(rho, n, accepted, reason + note, threshold, dimension, judge, dropped)

    if n < max(2, min_samples):
        return result(
            None,
            False,
            f"{subject} is refused{where}: {n} paired item(s), at least {max(2, min_samples)} needed",
        )
    rho = spearman([j for j, _ in pairs], [h for _, h in pairs])
    if rho is None:
        return result(
            None, False, f"{subject} is refused{where}: Spearman ρ is undefined (one side is constant)"
        )
    if rho >= threshold - _TOLERANCE:
        return result(
            rho, True, f"{subject} is accepted{where}: Spearman ρ = {rho:.4f} ≥ {threshold} on {n} items"
        )
    return result(
        rho,
        False,
        f"{subject} is refused{where}: Spearman ρ = {rho:.4f} < {threshold} on {n} items (docs/scoring.md §5.6)",
    )
