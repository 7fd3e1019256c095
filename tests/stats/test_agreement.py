"""Pearson, Spearman and Krippendorff's α against scipy and the krippendorff package."""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from aaaf.stats.agreement import average_ranks, krippendorff_alpha, pearson, spearman

NAN = math.nan
# Krippendorff (2011), 'Computing Krippendorff's Alpha-Reliability', §E: 4 coders × 12 units
KRIPPENDORFF_EXAMPLE = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]


def test_pearson_hand_computation() -> None:
    # x = [1, 2, 3], y = [1, 3, 2]: deviations (-1, 0, 1) and (-1, 1, 0);
    # Σ dx·dy = 1, Σ dx² = Σ dy² = 2 → r = 1 / √(2·2) = 0.5
    assert pearson([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)


def test_pearson_and_spearman_match_scipy() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = rng.integers(1, 6, size=25).astype(float)
        y = np.clip(x + rng.integers(-2, 3, size=25), 1, 5)
        if np.ptp(x) == 0 or np.ptp(y) == 0:
            continue
        assert pearson(x, y) == pytest.approx(scipy_stats.pearsonr(x, y).statistic, abs=1e-12)
        assert spearman(x, y) == pytest.approx(scipy_stats.spearmanr(x, y).statistic, abs=1e-12)


def test_average_ranks_match_scipy_rankdata() -> None:
    values = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0]
    assert average_ranks(values).tolist() == scipy_stats.rankdata(values).tolist()


def test_undefined_correlations_are_none() -> None:
    assert pearson([1.0], [2.0]) is None
    assert pearson([1, 1, 1], [1, 2, 3]) is None
    assert spearman([2, 2], [1, 5]) is None
    with pytest.raises(ValueError, match="same length"):
        pearson([1, 2], [1, 2, 3])


@pytest.mark.parametrize(
    ("level", "published"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)]
)
def test_krippendorff_worked_example(level: str, published: float) -> None:
    alpha = krippendorff_alpha(KRIPPENDORFF_EXAMPLE, level)  # type: ignore[arg-type]
    assert alpha is not None
    assert round(alpha, 3) == published
    reference = krippendorff.alpha(reliability_data=KRIPPENDORFF_EXAMPLE, level_of_measurement=level)
    assert alpha == pytest.approx(reference, abs=1e-12)


def test_krippendorff_interval_hand_computation() -> None:
    # coders [1,2,3] and [1,2,4]: coincidences o(1,1) = 2, o(2,2) = 2, o(3,4) = o(4,3) = 1;
    # n_1 = n_2 = 2, n_3 = n_4 = 1, n = 6.
    # D_o = (1·1² + 1·1²)/6 = 1/3.  D_e = Σ_{c≠k} n_c n_k (c−k)² / (n(n−1)) = 2·41/30 = 82/30
    # (unordered: 2·2·1 + 2·1·4 + 2·1·9 + 2·1·1 + 2·1·4 + 1·1·1 = 41).  α = 1 − (1/3)/(82/30) = 1 − 10/82
    assert krippendorff_alpha([[1, 2, 3], [1, 2, 4]], "interval") == pytest.approx(1 - 10 / 82)


def test_krippendorff_undefined_cases() -> None:
    assert krippendorff_alpha([[3, 3, 3], [3, 3, 3]]) is None  # no expected disagreement
    assert krippendorff_alpha([[1, NAN], [NAN, 2]]) is None  # nothing pairable
    assert krippendorff_alpha([[NAN, NAN]]) is None
    with pytest.raises(ValueError, match="level"):
        krippendorff_alpha([[1, 2]], "cardinal")  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(
        st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=6, max_size=6), min_size=2, max_size=4
    ),
    level=st.sampled_from(["nominal", "ordinal", "interval", "ratio"]),
)
def test_krippendorff_matches_the_package(data: list[list[int | None]], level: str) -> None:
    matrix = np.array([[NAN if v is None else float(v) for v in row] for row in data])
    ours = krippendorff_alpha(matrix, level)  # type: ignore[arg-type]
    try:
        with np.errstate(all="ignore"):  # the package divides 0 by 0 where α is undefined
            reference = krippendorff.alpha(reliability_data=matrix, level_of_measurement=level)
    except (ValueError, ZeroDivisionError):
        reference = None
    if ours is None:
        assert reference is None or not math.isfinite(reference)
    else:
        assert reference is not None
        assert ours == pytest.approx(reference, abs=1e-9)
