"""One composite for the engine and its bootstrap (SCORING.md §0, §2.5).

An assessment and its own resamples must never land on two sides of a tier boundary by a
rounding difference: :func:`composite_rows` is, row by row, bit for bit
:func:`aaaf.scoring.core.composite`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aaaf.scoring import aaaf as engine
from aaaf.scoring import uncertainty as unc
from aaaf.scoring.composite_rows import composite_at_least, composite_rows
from aaaf.scoring.core import check_weights, composite, renormalised_weights
from aaaf.scoring.defaults import AXES, AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events
from tests.scoring.test_uncertainty import fleet_events, task_spec

# scores that sit on or next to tier boundaries, and arbitrary ones
_SCORE = st.one_of(
    st.none(),
    st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 1.0]),
    st.floats(min_value=0.0, max_value=1.0),
)
# weights as a table would write them: hundredths that sum to 1, or arbitrary shares
_HUNDREDTHS = st.lists(st.integers(0, 100), min_size=1, max_size=7).filter(lambda parts: sum(parts) > 0)


def _table(parts: list[int], exact: bool) -> list[float]:
    """A valid weight table: hundredths summing to 100 (written as 0.15, 0.25, …) or shares."""
    if exact:
        total = sum(parts)
        cents = [p * 100 // total for p in parts]
        cents[0] += 100 - sum(cents)
        return [c / 100 for c in cents]
    total = math.fsum(parts)
    return [p / total for p in parts]


@settings(max_examples=200, deadline=None)
@given(_HUNDREDTHS, st.booleans(), st.data())
def test_every_row_is_the_scalar_composite_bit_for_bit(parts: list[int], exact: bool, data: Any) -> None:
    weights = _table(parts, exact)
    names = [f"d{j}" for j in range(len(weights))]
    table = check_weights(dict(zip(names, weights, strict=True)))
    rows = data.draw(
        st.lists(st.lists(_SCORE, min_size=len(names), max_size=len(names)), min_size=1, max_size=20)
    )
    matrix = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=np.float64)
    got = composite_rows(matrix, weights).tolist()
    for row, value in zip(rows, got, strict=True):
        want = composite(dict(zip(names, row, strict=True)), table).score
        if want is None:
            assert math.isnan(value)
        else:
            assert value == want, (row, weights, value, want)


@settings(max_examples=200, deadline=None)
@given(_HUNDREDTHS, st.booleans(), st.data())
def test_at_least_is_the_scalar_composites_decision(parts: list[int], exact: bool, data: Any) -> None:
    # thresholds on the rows' own composites and their neighbours: the plain sum's bound
    # must hand every such row to the correctly rounded sum
    weights = _table(parts, exact)
    names = [f"d{j}" for j in range(len(weights))]
    table = check_weights(dict(zip(names, weights, strict=True)))
    rows = data.draw(
        st.lists(st.lists(_SCORE, min_size=len(names), max_size=len(names)), min_size=1, max_size=20)
    )
    matrix = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=np.float64)
    wanted = [composite(dict(zip(names, row, strict=True)), table).score for row in rows]
    thresholds = [0.4, 0.6, data.draw(st.floats(0.0, 1.0))]
    for value in wanted:
        if value is not None:
            thresholds += [value, math.nextafter(value, 2.0), math.nextafter(value, -1.0)]
    for threshold in thresholds:
        got = composite_at_least(matrix, weights, threshold).tolist()
        assert got == [want is not None and want >= threshold for want in wanted], threshold


def test_at_least_takes_coverage_patterns_only_for_rows_near_the_threshold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows whose weighted mean is clearly on one side are decided without the engine's
    renormalised products; the rows on the threshold are still decided by them, exactly."""
    from aaaf.scoring import composite_rows as module

    seen: list[int] = []
    original = module._weighted_products

    def spy(scores: Any, weights: Any) -> Any:
        seen.append(len(scores))
        return original(scores, weights)

    monkeypatch.setattr(module, "_weighted_products", spy)
    weights = [0.25, 0.25, 0.15, 0.20, 0.15]
    names = [f"d{j}" for j in range(5)]
    table = dict(zip(names, weights, strict=True))
    rng = np.random.default_rng(7)
    matrix = rng.uniform(0.0, 1.0, size=(1000, 5))
    matrix[rng.uniform(size=(1000, 5)) < 0.2] = np.nan
    on_it = np.array([[0.4, 0.4, 0.4, 0.4, 0.4], [0.4, np.nan, 0.4, 0.4, np.nan]])
    matrix = np.vstack((matrix, on_it))
    got = composite_at_least(matrix, weights, 0.4)
    want = []
    for row in matrix.tolist():
        value = composite(
            {n: None if math.isnan(v) else v for n, v in zip(names, row, strict=True)}, table
        ).score
        want.append(value is not None and value >= 0.4)
    assert got.tolist() == want
    assert sum(seen) < 20  # the two rows on it, and the few within a few ulps


def test_the_issue_weights_give_the_same_075_in_both() -> None:
    weights = [0.15, 0.25, 0.15, 0.25, 0.2]
    names = list(AXES["performance"])
    scores = [1.0, 0.8, 0.0, 1.0, None]
    want = composite(dict(zip(names, scores, strict=True)), dict(zip(names, weights, strict=True)))
    got = composite_rows(np.array([[1.0, 0.8, 0.0, 1.0, np.nan]] * 3), weights)
    assert want.score == 0.75 and want.tier is None
    assert got.tolist() == [0.75, 0.75, 0.75]


def test_sums_with_rounding_errors_of_exactly_half_an_ulp_are_correctly_rounded() -> None:
    """Weights that are powers of two make the products exact: 0.5 + 2**-54 is a tie between
    0.5 and its successor (to even: 0.5), a hair above it rounds up, two such errors add up to
    a whole ulp, and below 0.5 the same error is representable (the ulp halves there)."""
    weights = [0.5, 0.25, 0.25]
    names = ["a", "b", "c"]
    tiny = 2.0**-52  # × 0.25: 2**-54, half the ulp of 0.5
    rows = [
        [1.0, tiny, 0.0],
        [1.0, tiny, tiny],
        [1.0, tiny, 2.0**-59],
        [1.0, -tiny, 0.0],
        [1.0, tiny, -(2.0**-59)],
    ]
    got = composite_rows(np.array(rows), weights).tolist()
    want = [math.fsum(w * v for w, v in zip(weights, row, strict=True)) for row in rows]
    assert want == [0.5, 0.5 + 2.0**-53, 0.5 + 2.0**-53, 0.5 - 2.0**-54, 0.5]
    assert got == want
    table = dict(zip(names, weights, strict=True))
    assert got == [composite(dict(zip(names, row, strict=True)), table).score for row in rows]


def test_hundredths_rows_are_the_scalar_composite() -> None:
    """Scores and weights in hundredths, as a resample's are (their products often leave
    errors of exactly half an ulp): 2 000 rows, each bit for bit the engine's."""
    weights = [0.15, 0.25, 0.15, 0.25, 0.2]
    names = [f"d{j}" for j in range(5)]
    table = dict(zip(names, weights, strict=True))
    rows = np.random.default_rng(7).integers(0, 101, size=(2000, 5)) / 100.0
    got = composite_rows(rows, weights).tolist()
    for row, value in zip(rows.tolist(), got, strict=True):
        assert value == composite(dict(zip(names, row, strict=True)), table).score


def test_rows_of_one_or_many_coverage_patterns_are_the_scalar_composite() -> None:
    """One to seven dimensions in hundredths, in every way rows can be covered: every row
    everything, every row all but the first (one pattern, one null), and nulls at random
    (many patterns, rows with none): each row bit for bit the engine's."""
    rng = np.random.default_rng(11)
    for k in range(1, 8):
        weights = _table(list(range(1, k + 1)), True)
        names = [f"d{j}" for j in range(k)]
        table = dict(zip(names, weights, strict=True))
        full = rng.integers(0, 101, size=(600, k)) / 100.0
        one_null = full.copy()
        one_null[:, 0] = np.nan
        some_null = full.copy()
        some_null[rng.uniform(size=(600, k)) < 0.3] = np.nan
        for matrix in (full, one_null, some_null):
            got = composite_rows(matrix, weights).tolist()
            for row, value in zip(matrix.tolist(), got, strict=True):
                want = composite(
                    {n: None if math.isnan(v) else v for n, v in zip(names, row, strict=True)}, table
                )
                assert (math.isnan(value) and want.score is None) or value == want.score, (k, row)


# --------------------------------------------------------------------------- whole assessments

_ISSUE_WEIGHTS = {
    "task_completion_rate": 0.15,
    "accuracy": 0.25,
    "speed": 0.15,
    "consistency": 0.25,
    "review_compliance": 0.2,
}


def _uncertainty(events: list[EventRecord], config: AAAFConfig) -> tuple[Any, dict[str, dict[str, Any]]]:
    result = engine.assess(events, config, WINDOW_END, enforce_minimums=False)
    window = engine.window_evidence(fold_evidence(events), config, WINDOW_END)
    assessed = {
        axis: {name: d.score for name, d in result.axis(axis).dimensions.items()}  # type: ignore[union-attr]
        for axis in ("performance", "capability")
    }
    return result, unc.assessment_uncertainty(window, config, assessed)


def test_the_issue_reproduction_32_alike_tasks_is_expert_with_probability_one() -> None:
    """32 alike tasks (accepted, one minor error, twice the L2 baseline time) under the
    issue's weights: composite 0.75 exactly, Expert — and the bootstrap agrees (it said
    {Proficient: 1.0} when it summed with NumPy and the engine with math.fsum)."""
    config = dataclasses.replace(AAAFConfig(), performance_weights=_ISSUE_WEIGHTS)
    ev = Events()
    events: list[EventRecord] = []
    for i in range(32):
        events += ev.task(
            f"t{i:03d}", domain="code", complexity=2, seconds=7200.0, errors=[{"severity": "minor"}]
        )
    result, report = _uncertainty(events, config)
    performance = result.axis("performance")
    assert performance is not None
    assert performance.composite.score == 0.75 and performance.composite.tier == "Expert"
    assert report["performance"]["ci"] == [0.75, 0.75]
    assert report["performance"]["tier_probabilities"] == {
        "Novice": 0.0,
        "Competent": 0.0,
        "Proficient": 0.0,
        "Expert": 1.0,
        "Elite": 0.0,
    }


def _random_performance_weights(parts: list[int]) -> dict[str, float]:
    names = AXES["performance"]
    return dict(zip(names, _table((parts * 5)[:5], True), strict=True))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 100), min_size=5, max_size=5), task_spec, st.integers(1, 40))
def test_alike_tasks_give_a_degenerate_interval_equal_to_the_composite(
    parts: list[int], spec: dict[str, Any], n: int
) -> None:
    """Every resample of alike tasks is the window's multiset: the interval is one point,
    that point is the composite, and the awarded tier has probability 1 — under any weights."""
    config = dataclasses.replace(
        AAAFConfig(), performance_weights=_random_performance_weights(parts), uncertainty_resamples=200
    )
    ev = Events()
    events: list[EventRecord] = []
    for i in range(n):
        events += ev.task(
            f"t{i:03d}",
            spec["status"] or "accepted",
            domain=spec["domain"],
            complexity=spec["complexity"],
            seconds=spec["seconds"],
            milestone_fraction=spec["fraction"],
            errors=[{} if s is None else {"severity": s} for s in spec["errors"]],
        )
    result, report = _uncertainty(events, config)
    observed = result.axis("performance")
    assert observed is not None
    got = report["performance"]
    if observed.composite.score is None:
        assert got["ci"] is None
        return
    assert got["ci"] == [observed.composite.score, observed.composite.score]
    assert got["tier_probabilities"][observed.composite.tier] == 1.0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 100), min_size=5, max_size=5), st.lists(task_spec, min_size=1, max_size=8))
def test_the_row_of_ones_resample_is_the_assessment(parts: list[int], specs: list[dict[str, Any]]) -> None:
    """The resample that draws each task once is the window itself: its dimension scores and
    composites are the assessment's, bit for bit."""
    config = dataclasses.replace(AAAFConfig(), performance_weights=_random_performance_weights(parts))
    events = fleet_events(specs, 1)
    result = engine.assess(events, config, WINDOW_END, enforce_minimums=False)
    window = engine.window_evidence(fold_evidence(events), config, WINDOW_END)
    assessed = {
        axis: {name: d.score for name, d in result.axis(axis).dimensions.items()}  # type: ignore[union-attr]
        for axis in ("performance", "capability")
    }
    ones = np.ones((1, len(window.scored)))
    for axis, (values, dimensions) in unc.resampled_scores(
        window, config, assessed, ones, assessed_window=True
    ).items():
        observed = result.axis(axis)
        assert observed is not None
        if observed.composite.score is None:
            assert math.isnan(float(values[0]))
            continue
        assert float(values[0]) == observed.composite.score, axis
        for name, d in observed.dimensions.items():
            got = float(dimensions[name][0])
            assert math.isnan(got) if d.score is None else got == d.score, (axis, name)


def test_a_resample_is_the_window_only_when_it_draws_each_kind_as_often() -> None:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(3):  # t000 and t001 alike, t002 another kind
        events += ev.task(f"t{i:03d}", domain="code", complexity=2, seconds=600.0 if i < 2 else 5000.0)
    window = engine.window_evidence(fold_evidence(events), AAAFConfig(), WINDOW_END)
    counts = np.array([[1, 1, 1], [2, 0, 1], [0, 2, 1], [1, 2, 0], [3, 0, 0]], dtype=np.float64)
    assert unc.window_rows(counts, unc.task_arrays(window)).tolist() == [True, True, True, False, False]


def _scalar_composites(matrix: np.ndarray, weights: list[float]) -> list[float | None]:
    names = [f"d{j}" for j in range(len(weights))]
    table = dict(zip(names, weights, strict=True))
    return [
        composite({n: None if math.isnan(v) else v for n, v in zip(names, row, strict=True)}, table).score
        for row in matrix.tolist()
    ]


def test_at_least_with_negative_scores_is_the_scalar_composites_decision() -> None:
    """A negative score is weighed by its size in the estimate's bound (the columns before it
    too): every decision is still the scalar composite's, on and next to the threshold."""
    rng = np.random.default_rng(11)
    weights = [0.25, 0.25, 0.15, 0.20, 0.15]
    matrix = rng.uniform(-1.0, 1.0, size=(400, 5))
    matrix[:, :2] = np.abs(matrix[:, :2])  # the first columns none negative: the switch mid-way
    matrix[rng.uniform(size=(400, 5)) < 0.3] = np.nan
    wanted = _scalar_composites(matrix, weights)
    values = [v for v in wanted if v is not None]
    for threshold in [-0.2, 0.0, 0.3, *values[:20], *(math.nextafter(v, 2.0) for v in values[:20])]:
        for scores in (matrix, list(matrix.T.copy())):  # a matrix, or a sequence of columns
            got = composite_at_least(scores, weights, threshold).tolist()
            assert got == [v is not None and v >= threshold for v in wanted], threshold


def test_weighted_products_are_each_rows_renormalised_products() -> None:
    """Column by column, the products are each row's renormalised weight × score (0 for a null),
    bit for bit, and a row has a composite where its covered weights are not all 0."""
    from aaaf.scoring.composite_rows import _weighted_products

    rng = np.random.default_rng(5)
    weights = [0.0, 0.3, 0.25, 0.45]
    matrix = rng.uniform(-1.0, 1.0, size=(300, 4))
    matrix[rng.uniform(size=(300, 4)) < 0.4] = np.nan
    matrix[0] = [0.5, np.nan, np.nan, np.nan]  # covered only with weight 0: no composite
    names = [f"d{j}" for j in range(4)]
    table = dict(zip(names, weights, strict=True))
    complete = matrix[~np.isnan(matrix).any(axis=1)]
    one_null = complete.copy()
    one_null[:, 2] = np.nan  # one pattern, not every dimension's
    mostly = complete.copy()
    mostly[1:, 3] = np.nan  # one row of the other pattern
    for scores in (matrix, list(matrix.T.copy()), complete, one_null, mostly):
        stacked = np.stack(list(scores), axis=1) if isinstance(scores, list) else scores
        products, has_value = _weighted_products(scores, weights)
        for row, got, value in zip(stacked.tolist(), products.tolist(), has_value.tolist(), strict=True):
            used = renormalised_weights(
                {n: None if math.isnan(v) else v for n, v in zip(names, row, strict=True)}, table
            )
            want = [used.get(n, 0.0) * (0.0 if math.isnan(v) else v) for n, v in zip(names, row, strict=True)]
            assert np.array(got).tobytes() == np.array(want).tobytes(), row
            assert value == bool(used)


def test_a_row_without_a_composite_is_never_at_least_any_threshold() -> None:
    """Its covered weights are all 0 (or none is covered): no composite, so not ≥ even a threshold
    below every score, whether the other rows' columns have nulls or not."""
    weights = [0.0, 0.5, 0.5]
    matrix = np.array([[0.7, np.nan, np.nan], [np.nan, np.nan, np.nan], [0.2, 0.4, np.nan], [0.1, 0.3, 0.5]])
    for threshold in (-1.0, 0.0, 0.35):
        assert composite_at_least(matrix, weights, threshold).tolist() == [
            False,
            False,
            threshold <= 0.4,
            threshold <= 0.4,
        ]
    assert composite_at_least(matrix[3:], [0.0, 0.0, 0.0], -1.0).tolist() == [False]
