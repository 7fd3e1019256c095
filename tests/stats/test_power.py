"""Minimum detectable effect (SCORING.md §4 rule 3b)."""

from __future__ import annotations

import math

import pytest
from scipy import stats as scipy_stats

from aaaf.stats.power import MDE_MULTIPLIER, minimum_detectable_effect, sample_sd, samples_needed


def test_mde_hand_computation() -> None:
    # diffs [0, 1, 2, 3]: mean 1.5, sd = √((2.25 + 0.25 + 0.25 + 2.25)/3) = √(5/3) = 1.29099…
    # MDE = 2.8 × 1.29099 / √4 = 1.80739…
    assert sample_sd([0, 1, 2, 3]) == pytest.approx(math.sqrt(5 / 3))
    assert minimum_detectable_effect([0, 1, 2, 3]) == pytest.approx(2.8 * math.sqrt(5 / 3) / 2)


def test_multiplier_is_two_sided_five_percent_at_eighty_percent_power() -> None:
    z = scipy_stats.norm.ppf(0.975) + scipy_stats.norm.ppf(0.80)
    assert abs(MDE_MULTIPLIER - z) < 0.002


def test_undefined_below_two_differences() -> None:
    assert minimum_detectable_effect([0.4]) is None
    assert sample_sd([]) is None


def test_samples_needed() -> None:
    # (2.8 × 1.0 / 0.28)² = 10² = 100 exactly (the float noise of 100.00000000000001 is not a 101st sample)
    assert samples_needed(1.0, 0.28) == 100
    # (2.8 × 0.7 / 0.25)² = 7.84² = 61.47 → 62
    assert samples_needed(0.7, 0.25) == 62
    with pytest.raises(ValueError):
        samples_needed(1.0, 0.0)
