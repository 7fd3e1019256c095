"""Statistics written for AAAF: bootstrap, agreement, power, Hotelling T², equivalence (TOST)
and McNemar's exact test (pure, NumPy).

Each is checked in tests against a reference (SciPy, the ``krippendorff`` package,
Krippendorff's worked example).  The verdict engine that uses them is
``aaaf.scoring.verdict``.

The names below are loaded on first use (:mod:`aaaf._lazy`), so that importing one
submodule (``aaaf.stats.benchmark`` from the CLI) does not import NumPy (0.35 s of a start)
through the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aaaf._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "average_ranks": "aaaf.stats.agreement",
    "krippendorff_alpha": "aaaf.stats.agreement",
    "pearson": "aaaf.stats.agreement",
    "spearman": "aaaf.stats.agreement",
    "BootstrapResult": "aaaf.stats.bootstrap",
    "bootstrap_means": "aaaf.stats.bootstrap",
    "paired_bootstrap": "aaaf.stats.bootstrap",
    "resample_indices": "aaaf.stats.bootstrap",
    "resampled_means": "aaaf.stats.bootstrap",
    "EquivalenceResult": "aaaf.stats.equivalence",
    "bootstrap_tost": "aaaf.stats.equivalence",
    "percentile_interval": "aaaf.stats.equivalence",
    "tost_paired": "aaaf.stats.equivalence",
    "HotellingResult": "aaaf.stats.hotelling",
    "McNemarResult": "aaaf.stats.mcnemar",
    "mcnemar_exact": "aaaf.stats.mcnemar",
    "mcnemar_exact_p": "aaaf.stats.mcnemar",
    "hotelling_t2": "aaaf.stats.hotelling",
    "MDE_MULTIPLIER": "aaaf.stats.power",
    "minimum_detectable_effect": "aaaf.stats.power",
    "sample_sd": "aaaf.stats.power",
    "samples_needed": "aaaf.stats.power",
}

__all__ = [
    "MDE_MULTIPLIER",
    "BootstrapResult",
    "EquivalenceResult",
    "HotellingResult",
    "McNemarResult",
    "average_ranks",
    "bootstrap_means",
    "bootstrap_tost",
    "hotelling_t2",
    "krippendorff_alpha",
    "mcnemar_exact",
    "mcnemar_exact_p",
    "minimum_detectable_effect",
    "paired_bootstrap",
    "pearson",
    "percentile_interval",
    "resample_indices",
    "resampled_means",
    "sample_sd",
    "samples_needed",
    "spearman",
    "tost_paired",
]

if TYPE_CHECKING:
    from aaaf.stats.agreement import average_ranks, krippendorff_alpha, pearson, spearman
    from aaaf.stats.bootstrap import (
        BootstrapResult,
        bootstrap_means,
        paired_bootstrap,
        resample_indices,
        resampled_means,
    )
    from aaaf.stats.equivalence import EquivalenceResult, bootstrap_tost, percentile_interval, tost_paired
    from aaaf.stats.hotelling import HotellingResult, hotelling_t2
    from aaaf.stats.mcnemar import McNemarResult, mcnemar_exact, mcnemar_exact_p
    from aaaf.stats.power import MDE_MULTIPLIER, minimum_detectable_effect, sample_sd, samples_needed

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
