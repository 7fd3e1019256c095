"""McNemar's exact test against SciPy's exact binomial test and a textbook table."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from aaaf.stats.mcnemar import mcnemar_exact, mcnemar_exact_p


@pytest.mark.parametrize(
    ("lost", "gained"), [(0, 0), (1, 0), (0, 5), (3, 3), (7, 2), (18, 0), (2, 11), (40, 31)]
)
def test_matches_scipys_exact_binomial_test(lost: int, gained: int) -> None:
    result = mcnemar_exact(lost, gained)
    if lost + gained == 0:
        assert result.p_value == 1.0 and result.p_value_lost == 1.0
        return
    two_sided = scipy_stats.binomtest(lost, lost + gained, 0.5, alternative="two-sided").pvalue
    greater = scipy_stats.binomtest(lost, lost + gained, 0.5, alternative="greater").pvalue
    assert result.p_value == pytest.approx(two_sided, rel=1e-12, abs=1e-300)
    assert result.p_value_lost == pytest.approx(greater, rel=1e-12, abs=1e-300)
    assert result.discordant == lost + gained


def test_a_textbook_table() -> None:
    # b = 1, c = 8 (discordant pairs): exact two-sided p = 2 · P(X ≤ 1 | n = 9) = 2 · 10 / 512
    assert mcnemar_exact(1, 8).p_value == pytest.approx(20 / 512)
    # a broken domain: 18 tasks lost, none gained
    assert mcnemar_exact(18, 0).p_value == pytest.approx(2 * 0.5**18)
    assert mcnemar_exact(18, 0).p_value_lost == pytest.approx(0.5**18)


def test_vectorised_and_checked() -> None:
    lost = np.array([0, 4, 9, 1])
    gained = np.array([0, 4, 1, 9])
    two, one = mcnemar_exact_p(lost, gained)
    for i in range(4):
        single = mcnemar_exact(int(lost[i]), int(gained[i]))
        assert two[i] == single.p_value and one[i] == single.p_value_lost
    assert two[1] == 1.0  # equal flips both ways: no evidence
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_size_under_no_change_is_at_most_alpha() -> None:
    # each of 30 tasks flips either way with probability 0.1: the test rejects ≤ 5 % of the time
    rng = np.random.default_rng(0)
    flips = rng.choice([-1, 0, 1], p=[0.1, 0.8, 0.1], size=(4000, 30))
    two, _ = mcnemar_exact_p((flips == -1).sum(axis=1), (flips == 1).sum(axis=1))
    assert (two < 0.05).mean() <= 0.05
