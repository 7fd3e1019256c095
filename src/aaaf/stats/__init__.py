"""Statistics written for AAAF: bootstrap, agreement, power, Hotelling T² (pure, NumPy).

Each is checked in tests against a reference (SciPy, the ``krippendorff`` package,
Krippendorff's worked example).  The verdict engine that uses them is
``aaaf.scoring.verdict``.
"""

from aaaf.stats.agreement import average_ranks, krippendorff_alpha, pearson, spearman
from aaaf.stats.bootstrap import (
    BootstrapResult,
    bootstrap_means,
    paired_bootstrap,
    resample_indices,
    resampled_means,
)
from aaaf.stats.hotelling import HotellingResult, hotelling_t2
from aaaf.stats.power import MDE_MULTIPLIER, minimum_detectable_effect, sample_sd, samples_needed

__all__ = [
    "MDE_MULTIPLIER",
    "BootstrapResult",
    "HotellingResult",
    "average_ranks",
    "bootstrap_means",
    "hotelling_t2",
    "krippendorff_alpha",
    "minimum_detectable_effect",
    "paired_bootstrap",
    "pearson",
    "resample_indices",
    "resampled_means",
    "sample_sd",
    "samples_needed",
    "spearman",
]
