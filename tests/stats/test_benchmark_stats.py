"""Deciles and percentiles of the benchmark (issue 20 §2), from hand-worked numbers."""

from __future__ import annotations

import pytest

from aaaf.stats.benchmark import deciles, percentile_against


def test_deciles_interpolate_between_order_statistics() -> None:
    # 0.0, 0.1, … 1.0 (11 values): h = 10p lands on an order statistic each time
    assert deciles([i / 10 for i in range(11)]) == pytest.approx([k / 10 for k in range(1, 10)])
    # 1, 2, 3, 4: h = 3p; the 10th percentile at h = 0.3 is 1 + 0.3 * (2 - 1) = 1.3
    assert deciles([4.0, 1.0, 3.0, 2.0])[0] == pytest.approx(1.3)
    assert deciles([4.0, 1.0, 3.0, 2.0])[4] == pytest.approx(2.5)
    assert deciles([0.7]) == [0.7] * 9
    with pytest.raises(ValueError):
        deciles([])


def test_percentile_is_linear_between_deciles_and_the_ends() -> None:
    even = [k / 10 for k in range(1, 10)]
    assert percentile_against(even, 0.55) == pytest.approx(55.0)
    assert percentile_against(even, 0.0) == 0.0 and percentile_against(even, 1.0) == 100.0
    assert percentile_against(even, 0.05) == pytest.approx(5.0)
    # 0.145 … 0.905: a score of 0.60 lies between d50 = 0.525 and d60 = 0.62
    hand = [(1 + 19 * k / 10) / 20 for k in range(1, 10)]
    assert percentile_against(hand, 0.60) == pytest.approx(50 + 10 * 0.075 / 0.095)
    # a score equal to tied deciles takes the middle of their levels
    assert percentile_against([0.2, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95], 0.5) == pytest.approx(30.0)
    with pytest.raises(ValueError):
        percentile_against([0.5], 0.5)
