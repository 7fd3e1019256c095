"""The paired percentile bootstrap (SCORING.md §4) against its definition and scipy.stats.bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from aaaf.stats.bootstrap import bootstrap_means, paired_bootstrap, resample_indices, resampled_means


def test_index_matrix_is_the_one_scoring_md_names() -> None:
    expected = np.random.default_rng(7).integers(0, 13, size=(50, 13))
    assert np.array_equal(resample_indices(13, 50, 7), expected)


def test_hand_computed_resample_means() -> None:
    # data [10, 20, 40]; with seed 0, B = 2 the index matrix is drawn explicitly and each
    # resample's mean is the mean of the values it picks, e.g. indices [2, 0, 0] → (40+10+10)/3 = 20
    data = np.array([10.0, 20.0, 40.0])
    indices = resample_indices(3, 2, 0)
    by_hand = [sum(data[i] for i in row) / 3 for row in indices]
    means = resampled_means(data, resamples=2, seed=0)
    assert means.shape == (2, 1)
    assert means[:, 0].tolist() == pytest.approx(by_hand, abs=1e-12)


@pytest.mark.parametrize(("n", "resamples"), [(1, 5), (7, 10_001), (1000, 333), (40_000, 3)])
def test_blocked_draw_equals_the_single_index_matrix(n: int, resamples: int) -> None:
    """Blocks of the generator's stream concatenate to exactly default_rng(seed).integers(0, n, (B, n))."""
    data = np.random.default_rng(1).normal(size=(3, n))
    indices = resample_indices(n, resamples, 11)
    expected = data[:, indices].mean(axis=-1).T
    assert np.allclose(resampled_means(data, resamples=resamples, seed=11), expected, rtol=0, atol=1e-12)


def test_agrees_with_scipy_percentile_bootstrap_one_sample() -> None:
    data = np.random.default_rng(3).normal(0.2, 1.0, size=(4, 250))
    ours = bootstrap_means(data, resamples=4000, seed=5)
    low, high = ours.interval(0.95)
    reference = scipy_stats.bootstrap(
        (data,),
        np.mean,
        axis=-1,
        vectorized=True,
        n_resamples=4000,
        method="percentile",
        rng=np.random.default_rng(5),
    )
    assert np.allclose(low, reference.confidence_interval.low, rtol=0, atol=1e-12)
    assert np.allclose(high, reference.confidence_interval.high, rtol=0, atol=1e-12)


def test_agrees_with_scipy_paired_bootstrap() -> None:
    rng = np.random.default_rng(4)
    control = rng.integers(1, 6, size=80).astype(float)
    treatment = np.clip(control + rng.normal(0.3, 0.8, size=80), 1, 5)
    ours = paired_bootstrap(control, treatment, resamples=3000, seed=0)
    low, high = ours.interval(0.90)
    reference = scipy_stats.bootstrap(
        (control, treatment),
        lambda c, t, axis: np.mean(t - c, axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=3000,
        confidence_level=0.90,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    assert low[0] == pytest.approx(reference.confidence_interval.low, abs=1e-12)
    assert high[0] == pytest.approx(reference.confidence_interval.high, abs=1e-12)
    assert ours.estimate[0] == pytest.approx(np.mean(treatment - control))


def test_bonferroni_percentiles() -> None:
    # k = 3 layers at 95 %: α/(2k) = 0.05/6 → percentiles 0.8333… and 99.1666…
    result = bootstrap_means(np.random.default_rng(2).normal(size=(3, 40)), resamples=500, seed=0)
    low, high = result.interval(0.95, comparisons=3)
    expected = np.percentile(result.resampled, [100 * 0.05 / 6, 100 - 100 * 0.05 / 6], axis=0)
    assert np.allclose(low, expected[0], rtol=0, atol=1e-12)
    assert np.allclose(high, expected[1], rtol=0, atol=1e-12)
    plain_low, plain_high = result.interval(0.95)
    assert np.all(low <= plain_low) and np.all(high >= plain_high)


def test_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one observation"):
        bootstrap_means(np.empty((2, 0)), resamples=10)
    with pytest.raises(ValueError, match="finite"):
        bootstrap_means([1.0, float("nan")], resamples=10)
    with pytest.raises(ValueError, match="same shape"):
        paired_bootstrap([1.0, 2.0], [1.0], resamples=10)
    with pytest.raises(ValueError, match="at least one resample"):
        bootstrap_means([1.0], resamples=0)
    result = bootstrap_means([1.0, 2.0], resamples=10)
    with pytest.raises(ValueError, match="confidence"):
        result.interval(1.0)


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=30),
    shift=st.floats(-3, 3, allow_nan=False),
    seed=st.integers(0, 2**32 - 1),
)
def test_interval_invariants(values: list[float], shift: float, seed: int) -> None:
    data = np.array(values)
    result = bootstrap_means(data, resamples=200, seed=seed)
    low, high = result.interval(0.95)
    # every resampled mean lies within the data's range; the interval is ordered
    assert data.min() - 1e-9 <= low[0] <= high[0] <= data.max() + 1e-9
    # same seed ⇒ same resamples: shifting the data shifts the interval (translation equivariance)
    shifted_low, shifted_high = bootstrap_means(data + shift, resamples=200, seed=seed).interval(0.95)
    assert shifted_low[0] == pytest.approx(low[0] + shift, abs=1e-9)
    assert shifted_high[0] == pytest.approx(high[0] + shift, abs=1e-9)
