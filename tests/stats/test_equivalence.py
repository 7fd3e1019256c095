"""TOST (t and percentile-bootstrap forms) against SciPy's one-sided t-tests and NumPy's
percentiles, and the percentile form's size and power."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from aaaf.stats.equivalence import bootstrap_tost, percentile_interval, tost_paired


def test_tost_paired_is_two_one_sided_t_tests() -> None:
    rng = np.random.default_rng(0)
    rows = rng.normal([[0.0], [0.05], [0.3]], 0.4, size=(3, 60))
    result = tost_paired(rows, margin=0.2)
    for i, row in enumerate(rows):
        lower = scipy_stats.ttest_1samp(row, -0.2, alternative="greater").pvalue
        upper = scipy_stats.ttest_1samp(row, 0.2, alternative="less").pvalue
        assert result.p_lower[i] == pytest.approx(lower, rel=1e-10)
        assert result.p_upper[i] == pytest.approx(upper, rel=1e-10)
        assert result.p_value[i] == pytest.approx(max(lower, upper), rel=1e-10)
        # the 90 % t interval inside ±δ ⇔ both one-sided tests reject at 5 %
        ci = scipy_stats.t.interval(0.90, len(row) - 1, loc=row.mean(), scale=scipy_stats.sem(row))
        assert (result.low[i], result.high[i]) == pytest.approx(ci, rel=1e-10)
        assert bool(result.equivalent[i]) == (ci[0] > -0.2 and ci[1] < 0.2)
    assert list(result.equivalent) == [True, True, False]
    assert list(result.non_inferior) == [True, True, True]


def test_tost_paired_edge_cases() -> None:
    flat = tost_paired(np.zeros(10), margin=0.1)
    assert flat.equivalent[0] and flat.p_value[0] == 0.0
    shifted = tost_paired(np.full(10, -0.3), margin=0.1)
    assert not shifted.non_inferior[0]
    one = tost_paired([0.0], margin=0.1)
    assert not one.equivalent[0]
    with pytest.raises(ValueError):
        tost_paired([0.0, 1.0], margin=0.0)
    with pytest.raises(ValueError):
        tost_paired([0.0, np.nan], margin=0.1)


def test_bootstrap_tost_reads_the_percentiles() -> None:
    rng = np.random.default_rng(1)
    resampled = rng.normal([0.0, -0.08, 0.02], [0.02, 0.02, 0.2], size=(2000, 3))
    resampled[:50, 2] = np.nan  # insufficient resamples are left out
    result = bootstrap_tost(resampled, margin=0.05)
    for column in range(3):
        values = resampled[:, column]
        values = values[~np.isnan(values)]
        low, high = np.percentile(values, [5.0, 95.0], method="linear")
        assert (result.low[column], result.high[column]) == pytest.approx((low, high), rel=1e-12)
        assert result.p_lower[column] == pytest.approx((values <= -0.05).mean())
        assert result.p_upper[column] == pytest.approx((values >= 0.05).mean())
    assert list(result.equivalent) == [True, False, False]
    assert list(result.non_inferior) == [True, False, False]
    empty = bootstrap_tost(np.full((10, 1), np.nan), margin=0.05)
    assert np.isnan(empty.low[0]) and empty.p_value[0] == 1.0 and not empty.equivalent[0]


def test_bootstrap_tost_agrees_with_the_t_form_on_normal_means() -> None:
    # the bootstrap distribution of a mean of 400 normal differences is close to the t's
    rng = np.random.default_rng(2)
    data = rng.normal(0.02, 0.3, size=400)
    means = data[rng.integers(0, 400, size=(20_000, 400))].mean(axis=1)
    boot = bootstrap_tost(means, margin=0.05)
    exact = tost_paired(data, margin=0.05)
    assert boot.p_value[0] == pytest.approx(exact.p_value[0], abs=0.01)
    assert boot.low[0] == pytest.approx(exact.low[0], abs=0.005)


def test_percentile_interval_matches_numpy() -> None:
    data = np.random.default_rng(3).normal(size=(999, 2))
    low, high = percentile_interval(data, 0.95)
    assert low == pytest.approx(np.percentile(data, 2.5, axis=0), rel=1e-12)
    assert high == pytest.approx(np.percentile(data, 97.5, axis=0), rel=1e-12)


def test_size_and_power_of_the_t_form() -> None:
    # at a true difference of exactly δ the test passes ≤ α of the time; at 0 it passes
    # nearly always when the interval is much narrower than the margin
    rng = np.random.default_rng(4)
    at_margin = tost_paired(rng.normal(0.1, 0.3, size=(4000, 80)), margin=0.1)
    assert at_margin.equivalent.mean() <= 0.05 + 0.01
    at_zero = tost_paired(rng.normal(0.0, 0.3, size=(4000, 200)), margin=0.1)
    assert at_zero.equivalent.mean() > 0.9
