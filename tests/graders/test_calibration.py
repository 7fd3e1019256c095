"""Judge calibration against human labels: Spearman ≥ 0.80 or refused (document 004 §3.4)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import spearmanr

from aaaf.errors import AAAFError
from aaaf.graders import calibrate

HUMAN = list(range(1, 16))  # 15 items, ranks 1..15 (no ties: ρ = 1 − 6Σd² / (n(n²−1)), n(n²−1) = 3360)

# swap positions (1,6), (7,11), (12,13): |d| = 5,5, 4,4, 1,1 → Σd² = 2·(25+16+1) = 84
# ρ = 1 − 6·84/3360 = 1 − 504/3360 = 0.85
GOOD_JUDGE = [6, 2, 3, 4, 5, 1, 11, 8, 9, 10, 7, 13, 12, 14, 15]
# swap positions (1,7), (8,13), (2,5): |d| = 6,6, 5,5, 3,3 → Σd² = 2·(36+25+9) = 140
# ρ = 1 − 6·140/3360 = 1 − 840/3360 = 0.75
POOR_JUDGE = [7, 5, 3, 4, 2, 6, 1, 13, 9, 10, 11, 12, 8, 14, 15]


def test_hand_made_labels_have_the_intended_rank_sums() -> None:
    assert sum((j - h) ** 2 for j, h in zip(GOOD_JUDGE, HUMAN, strict=True)) == 84
    assert sum((j - h) ** 2 for j, h in zip(POOR_JUDGE, HUMAN, strict=True)) == 140


def test_a_judge_at_085_is_accepted() -> None:
    result = calibrate(GOOD_JUDGE, HUMAN, dimension="communication_clarity", judge="gpt-judge")
    assert result.spearman == pytest.approx(0.85, abs=1e-12)
    assert result.n == 15
    assert result.accepted is True
    assert result.reason.startswith(
        "judge 'gpt-judge' is accepted for 'communication_clarity': Spearman ρ = 0.8500"
    )


def test_a_judge_at_075_is_refused() -> None:
    result = calibrate(POOR_JUDGE, HUMAN, dimension="communication_clarity")
    assert result.spearman == pytest.approx(0.75, abs=1e-12)
    assert result.accepted is False
    assert "refused for 'communication_clarity'" in result.reason and "< 0.8" in result.reason


def test_the_threshold_is_a_parameter() -> None:
    assert calibrate(POOR_JUDGE, HUMAN, threshold=0.75).accepted is True
    assert calibrate(GOOD_JUDGE, HUMAN, threshold=0.9).accepted is False


def test_ties_use_average_ranks_like_scipy() -> None:
    judge = [5, 4, 4, 3, 2, 5, 1, 3, 2, 4, 5, 1]
    human = [5, 5, 4, 3, 2, 4, 1, 2, 2, 4, 4, 2]
    result = calibrate(judge, human)
    assert result.spearman == pytest.approx(float(spearmanr(judge, human).statistic), abs=1e-12)


def test_failed_judgements_are_left_out_and_counted() -> None:
    judge: list[float | None] = [*GOOD_JUDGE, None, float("nan")]
    human: list[float | None] = [*HUMAN, 3, 4]
    result = calibrate(judge, human)
    assert result.n == 15 and result.dropped == 2
    assert result.spearman == pytest.approx(0.85, abs=1e-12)
    assert "2 item(s) without both scores left out" in result.reason


def test_too_few_items_or_a_constant_side_is_refused() -> None:
    few = calibrate([1, 2, 3], [1, 2, 3])
    assert few.accepted is False and few.spearman is None and "at least 10 needed" in few.reason
    assert calibrate([1, 2, 3], [1, 2, 3], min_samples=3).accepted is True
    constant = calibrate([3] * 12, list(range(12)))
    assert constant.accepted is False and "undefined" in constant.reason


def test_a_small_calibration_says_it_is_below_the_documents_baseline() -> None:
    assert "fewer than the 100-200 human labels" in calibrate(GOOD_JUDGE, HUMAN).reason
    big = calibrate(list(range(120)), list(range(120)))
    assert big.accepted and "fewer than" not in big.reason


def test_bad_input_is_refused() -> None:
    with pytest.raises(AAAFError):
        calibrate([1, 2], [1])
    with pytest.raises(AAAFError):
        calibrate(HUMAN, HUMAN, threshold=2)
    with pytest.raises(AAAFError):
        calibrate([*HUMAN[:-1], math.inf], HUMAN)


@given(
    pairs=st.lists(
        st.tuples(st.integers(min_value=1, max_value=5), st.integers(min_value=1, max_value=5)),
        min_size=10,
        max_size=60,
    )
)
def test_spearman_agrees_with_scipy_and_acceptance_follows_it(pairs: list[tuple[int, int]]) -> None:
    judge = [j for j, _ in pairs]
    human = [h for _, h in pairs]
    result = calibrate(judge, human)
    if len(set(judge)) == 1 or len(set(human)) == 1:
        assert result.spearman is None and not result.accepted
        return
    reference = float(spearmanr(judge, human).statistic)
    assert result.spearman is not None
    assert result.spearman == pytest.approx(reference, abs=1e-9)
    assert result.accepted is (result.spearman >= 0.80 - 1e-12)
