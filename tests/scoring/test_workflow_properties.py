"""Invariants of SCORING.md §5, checked on generated inputs (hypothesis).

* weights sum to 1 (or are all 0); none exceeds the cap when the cap is feasible;
* the order of weights follows the order of scores;
* the iteration reaches the closed form w = min(cap, λ·s) (computed exactly with fractions);
* nothing depends on the order the inputs arrive in;
* S and its parts stay in [0, 1], and the gate is exactly ``S_success > 0.7``.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.scoring.workflow import (
    WorkflowRun,
    capped_weights,
    positive_needed,
    score_run,
    window_means,
    workflow_weights,
)

T0 = datetime(2026, 11, 1, tzinfo=UTC)

scores_strategy = st.dictionaries(
    keys=st.text(alphabet="abcdefghijklmnop", min_size=1, max_size=4),
    values=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=1.0, allow_nan=False)),
    max_size=40,
)
cap_strategy = st.one_of(
    st.sampled_from([0.15, 0.1, 0.2, 0.25, 1 / 3, 0.5, 1.0]),
    st.floats(min_value=0.01, max_value=1.0, allow_nan=False),
)


def exact_closed_form(scores: dict[str, float], cap: float) -> dict[str, Fraction]:
    """The unique w with Σw = 1 and wᵢ = min(cap, λ·sᵢ), found exactly (water-filling)."""
    positive = sorted((name for name in scores if scores[name] > 0), key=lambda n: scores[n], reverse=True)
    exact_cap = Fraction(cap)
    out = {name: Fraction(0) for name in scores}
    for capped_count in range(len(positive) + 1):
        rest = positive[capped_count:]
        remaining = 1 - exact_cap * capped_count
        total = sum(Fraction(scores[name]) for name in rest)
        if not rest or total == 0:
            continue
        lam = remaining / total
        if all(lam * Fraction(scores[name]) <= exact_cap for name in rest) and all(
            lam * Fraction(scores[name]) >= exact_cap for name in positive[:capped_count]
        ):
            for name in positive[:capped_count]:
                out[name] = exact_cap
            for name in rest:
                out[name] = lam * Fraction(scores[name])
            return out
    raise AssertionError("no closed-form solution")


@settings(max_examples=300, deadline=None)
@given(scores_strategy, cap_strategy)
def test_weights_sum_to_one_or_are_all_zero(scores: dict[str, float], cap: float) -> None:
    result = capped_weights(scores, cap)
    total = math.fsum(result.weights.values())
    if any(value > 0 for value in scores.values()):
        assert abs(total - 1.0) <= 1e-12
    else:
        assert result.method == "all_zero"
        assert all(value == 0.0 for value in result.weights.values())
    for name, value in scores.items():
        if value == 0.0:
            assert result.weights[name] == 0.0


@settings(max_examples=300, deadline=None)
@given(scores_strategy, cap_strategy)
def test_no_weight_exceeds_a_feasible_cap(scores: dict[str, float], cap: float) -> None:
    result = capped_weights(scores, cap)
    positive = sum(1 for value in scores.values() if value > 0)
    if positive >= positive_needed(cap):
        assert result.method == "iterative"
        assert max(result.weights.values()) <= cap
    elif positive > 0:
        assert result.method == "equal_share"
        assert set(value for value in result.weights.values() if value > 0) == {1.0 / positive}


@settings(max_examples=300, deadline=None)
@given(scores_strategy, cap_strategy)
def test_order_of_weights_follows_order_of_scores(scores: dict[str, float], cap: float) -> None:
    weights = capped_weights(scores, cap).weights
    names = list(scores)
    for a in names:
        for b in names:
            if scores[a] > scores[b]:
                assert weights[a] >= weights[b]


@settings(max_examples=200, deadline=None)
@given(scores_strategy, cap_strategy)
def test_iteration_reaches_the_closed_form(scores: dict[str, float], cap: float) -> None:
    positive = sum(1 for value in scores.values() if value > 0)
    if positive < positive_needed(cap):
        return
    result = capped_weights(scores, cap)
    exact = exact_closed_form(scores, cap)
    for name in scores:
        assert abs(result.weights[name] - float(exact[name])) <= 1e-12


@settings(max_examples=150, deadline=None)
@given(scores_strategy, cap_strategy, st.randoms(use_true_random=False))
def test_weights_do_not_depend_on_key_order(scores: dict[str, float], cap: float, rng: random.Random) -> None:
    items = list(scores.items())
    rng.shuffle(items)
    assert capped_weights(dict(items), cap) == capped_weights(scores, cap)


run_strategy = st.fixed_dictionaries(
    {
        "dag_steps": st.integers(min_value=1, max_value=12),
        "completed_fraction": st.floats(min_value=0.0, max_value=1.0),
        "output_quality": st.floats(min_value=0.0, max_value=1.0),
        "actual_cost": st.floats(min_value=0.0, max_value=10.0),
        "max_budget": st.floats(min_value=0.01, max_value=10.0),
        "actual_seconds": st.floats(min_value=0.0, max_value=1000.0),
        "max_latency_seconds": st.floats(min_value=0.1, max_value=1000.0),
        "declared_retry_budget": st.integers(min_value=0, max_value=6),
        "actual_retries": st.integers(min_value=0, max_value=12),
        "timeouts": st.integers(min_value=0, max_value=4),
        "hard_failures": st.integers(min_value=0, max_value=4),
    }
)


def to_run_data(drawn: dict[str, object], task_id: str = "t") -> dict[str, object]:
    data = dict(drawn)
    fraction = data.pop("completed_fraction")
    assert isinstance(fraction, float) and isinstance(data["dag_steps"], int)
    data["steps_completed"] = int(fraction * data["dag_steps"])
    data["task_id"] = task_id
    return data


@settings(max_examples=300, deadline=None)
@given(run_strategy)
def test_run_score_bounds_and_gate(drawn: dict[str, object]) -> None:
    score = score_run(to_run_data(drawn))
    for part in (score.s, score.s_success, score.s_cost, score.s_latency, score.s_reliability):
        assert 0.0 <= part <= 1.0
    assert score.gated == (not score.s_success > 0.7)
    if score.gated:
        assert score.s_cost == 0.0 and score.s_latency == 0.0
    assert (
        score.s
        == ((0.5 * score.s_success + 0.25 * score.s_cost) + 0.15 * score.s_latency)
        + 0.1 * score.s_reliability
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), run_strategy, st.integers(0, 50)), max_size=60),
    st.integers(min_value=1, max_value=20),
    st.randoms(use_true_random=False),
)
def test_window_and_weights_do_not_depend_on_run_order(
    drawn: list[tuple[str, dict[str, object], int]], window: int, rng: random.Random
) -> None:
    runs = [
        WorkflowRun.from_mapping(
            to_run_data(data, task_id=f"t{index % 17}"), agent=agent, timestamp=T0 + timedelta(minutes=minute)
        )
        for index, (agent, data, minute) in enumerate(drawn)
    ]
    shuffled = list(runs)
    rng.shuffle(shuffled)
    means = window_means(runs, window)
    assert means == window_means(shuffled, window)
    for held in means.values():
        assert held.runs == min(window, held.runs_total)
    assert (
        workflow_weights(runs, window=window).to_dict() == workflow_weights(shuffled, window=window).to_dict()
    )
