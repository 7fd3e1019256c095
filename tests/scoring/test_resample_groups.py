"""The consistency groups' statistics of every §2.5 resample (aaaf.scoring.resample_groups)
against the engine's own coefficient_of_variation on each resample's multiset of copies:
the one-pass sums must agree to 1e-11 (far inside the 1e-9 of §2.5) and give
exactly 0 for drawn copies of equal values, also where cancellation would bite — groups of
two or three, equal values, values 1e-12 apart, values far from 0."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.scoring.aaaf_tasks import coefficient_of_variation
from aaaf.scoring.resample_arrays import TaskArrays
from aaaf.scoring.resample_groups import group_stats


def arrays_of(accuracy: list[float], credit: list[float], group: list[int]) -> TaskArrays:
    n = len(group)
    zeros = np.zeros(n)
    return TaskArrays(
        terms=np.zeros((n, 9)),
        tallies=np.zeros((n, 4)),
        completed=np.ones(n),
        accuracy=np.array(accuracy, dtype=np.float64),
        credit=np.array(credit, dtype=np.float64),
        group=np.array(group, dtype=np.int64),
        domain=("code",) * n,
        complexity=(1,) * n,
        autonomy=(None,) * n,
        completed_with_autonomy=zeros,
        completion_order=(0.0,) * n,
        tool_names=(),
        tool_base=np.zeros(0),
        tool_per_task=np.zeros((n, 0)),
        delegation_base=np.zeros(6),
        delegation_per_task=np.zeros((n, 6)),
        orchestration_base=np.zeros(2),
        orchestration_per_task=np.zeros((n, 2)),
    )


def check(arrays: TaskArrays, counts: np.ndarray, min_group: int) -> None:
    stats = group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, min_group)
    # the consistency's weights and terms, taken once: kept copies and kept × CV, bit for bit
    kept = np.where(stats.size >= min_group, stats.size, 0.0)
    assert np.array_equal(stats.kept, kept)
    assert np.array_equal(stats.weighted_accuracy, kept * stats.cv_accuracy)
    assert np.array_equal(stats.weighted_credit, kept * stats.cv_credit)
    for row in range(counts.shape[0]):
        for at, gid in enumerate(stats.ids.tolist()):
            members = np.nonzero(arrays.group == gid)[0]
            drawn = counts[row, members].astype(np.int64)
            assert stats.size[row, at] == drawn.sum()
            if drawn.sum() < min_group:
                continue
            for metric, got in ((arrays.accuracy, stats.cv_accuracy), (arrays.credit, stats.cv_credit)):
                copies = np.repeat(metric[members], drawn).tolist()
                want = coefficient_of_variation(copies)
                if want == 0.0:
                    assert got[row, at] == 0.0, (row, gid, copies)
                else:
                    # 1e-11: the sums promise 1e-12 (the 1e-9 of §2.5 would hide a cancellation)
                    assert abs(got[row, at] - want) <= 1e-11 * max(1.0, want), (row, gid)


ADVERSARIAL = [
    0.0,
    0.5,
    0.5 + 1e-12,
    0.5 + 1e-9,
    0.5 + 3e-9,
    0.5 - 1e-12,
    1.0,
    1.0 - 1e-12,
    1e-12,
    0.3,
    0.1 + 0.2,
    0.7,
    1e6,
    1e6 + 1e-6,
]


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 4), min_size=1, max_size=5),
    data=st.data(),
    min_group=st.integers(1, 5),
)
def test_group_cvs_agree_with_the_engines_coefficient_of_variation(
    sizes: list[int], data: st.DataObject, min_group: int
) -> None:
    n = sum(sizes)
    group = [g for g, size in enumerate(sizes) for _ in range(size)]
    values = st.lists(st.sampled_from(ADVERSARIAL), min_size=n, max_size=n)
    arrays = arrays_of(data.draw(values), data.draw(values), group)
    seed = data.draw(st.integers(0, 2**32 - 1))
    indices = np.random.default_rng(seed).integers(0, n, size=(40, n))
    counts = np.stack([np.bincount(row, minlength=n) for row in indices]).astype(np.float64)
    check(arrays, counts, min_group)


@pytest.mark.parametrize(
    "values",
    [
        [0.5, 0.5 + 1e-12],  # a group of two, 1e-12 apart: tiny spread beside the values
        [0.1 + 0.2, 0.3, 0.3],  # equal up to one ulp
        [1e6, 1e6 + 1e-6, 1e6],  # far from 0
        [0.7, 0.7, 0.7],  # equal: exactly 0
    ],
)
def test_one_distinct_copy_or_a_hair_of_spread_is_exact(values: list[float]) -> None:
    n = len(values)
    arrays = arrays_of(values, values[::-1], [0] * n)
    # every way to draw n copies of the group, then some lopsided ones
    rows = [np.bincount(np.array(pick), minlength=n) for pick in np.ndindex(*(n,) * n)]
    rows += [np.eye(n, dtype=np.int64)[0] * 7 + np.eye(n, dtype=np.int64)[-1]]
    check(arrays, np.stack(rows).astype(np.float64), 2)


def test_a_metric_constant_within_a_group_has_no_sums_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its CV is 0 in every resample (copies of equal values): each metric's one-pass sums are
    taken only for the groups where that metric varies in the window, not for every group
    where either does.  Group 0: accuracy varies, credit not; 1: neither; 2: both (metric m's
    group g is m·3 + g: accuracy's 0 and 2, credit's 2)."""
    from aaaf.scoring import resample_groups

    accuracy = [0.2, 0.9, 0.5, 0.5, 0.1, 0.7, 0.4]
    credit = [1.0, 1.0, 0.5, 0.5, 0.5, 1.0, 0.0]
    group = [0, 0, 1, 1, 2, 2, 2]
    arrays = arrays_of(accuracy, credit, group)
    seen: list[tuple[tuple[int, ...], list[int]]] = []
    original = resample_groups._group_cvs

    def spy(size: np.ndarray, sums: np.ndarray, vary: np.ndarray, *rest: Any) -> Any:
        seen.append((sums.shape, vary.tolist()))
        return original(size, sums, vary, *rest)

    monkeypatch.setattr(resample_groups, "_group_cvs", spy)
    indices = np.random.default_rng(7).integers(0, arrays.n, size=(60, arrays.n))
    counts = np.stack([np.bincount(row, minlength=arrays.n) for row in indices]).astype(np.float64)
    check(arrays, counts, 2)  # and the answers are still the engine's
    assert seen == [((2, 3, 60), [0, 2, 5])]  # Σc·y and Σc·y² of three (metric, group)s


@pytest.mark.parametrize(
    "values",
    [
        [0.1, 0.1, 0.7, 0.1 + 0.2],  # copies of one value among others: found among the unsettled pairs
        [1e-160, 3e-160, 1e-160],  # a spread whose square is subnormal: never settled by the sums
        [3e-160, 1e-160, 2e-160],
    ],
)
def test_drawn_copies_of_one_value_have_cv_exactly_0(values: list[float]) -> None:
    """The group varies in the window, but a resample that draws one of its values only has
    CV exactly 0 (no rank sums: its variance is 0 up to rounding, so the sums never settle
    it); the other resamples keep the engine's CV."""
    n = len(values)
    arrays = arrays_of(values, values[::-1], [0] * n)
    rows = [np.eye(n, dtype=np.int64)[k] * copies for k in range(n) for copies in (5, 6, 9)]
    rows += [np.bincount(np.array(pick), minlength=n) for pick in np.ndindex(*(n,) * n)]
    counts = np.stack(rows).astype(np.float64)
    check(arrays, counts, 2)
    stats = group_stats(counts, np.arange(n, dtype=np.int64), arrays, 2)
    alone = 3 * n  # the first rows draw one task only
    assert not stats.cv_accuracy[:alone].any() and not stats.cv_credit[:alone].any()


@pytest.mark.parametrize(
    ("values", "listed"),
    [
        # of the 18 pairs of one task drawn alone (9 rows × 2 metrics), the 6 drawing 0.5 (the
        # shift) are settled by Σc·y² = 0; the other 12 are listed
        ([0.2, 0.5, 0.9], 12),
        # a y² underflows to 0: every unsettled pair is listed (the 18, and the last row's
        # two, whose spread is below what the sums can settle)
        ([1e-170, 3e-170, 2e-170], 20),
    ],
)
def test_copies_of_the_shift_member_only_are_found_by_their_sums(
    monkeypatch: pytest.MonkeyPatch, values: list[float], listed: int
) -> None:
    """A resample drawing only its group's central member (the shift, y = 0) has Σc·y² exactly
    0, its CV exactly 0 without listing its entries (:func:`_drawn_alike`), unless some y ≠ 0
    has y² = 0 (then Σc·y² = 0 does not mean y = 0); the answers stay the engine's."""
    from aaaf.scoring import resample_groups

    n = len(values)
    arrays = arrays_of(values, values, [0] * n)
    seen: list[int] = []
    original = resample_groups._drawn_alike

    def spy(counts: np.ndarray, listed_entries: Any, pair_group: np.ndarray, pair_row: np.ndarray) -> Any:
        seen.append(pair_row.size)
        return original(counts, listed_entries, pair_group, pair_row)

    monkeypatch.setattr(resample_groups, "_drawn_alike", spy)
    # each task alone (5, 6 or 7 copies), then one of each
    rows = [np.eye(n, dtype=np.int64)[k] * copies for k in range(n) for copies in (5, 6, 7)]
    counts = np.stack([*rows, np.ones(n, dtype=np.int64) * 2]).astype(np.float64)
    check(arrays, counts, 2)
    stats = group_stats(counts, np.arange(n, dtype=np.int64), arrays, 2)
    assert not stats.cv_accuracy[: 3 * n].any() and not stats.cv_credit[: 3 * n].any()
    assert seen == [listed, listed]  # per group_stats call (check's and this one), both metrics
