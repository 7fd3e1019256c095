"""The learning-rate blocks of the §2.5 bootstrap scored once per distinct listing
(aaaf.scoring.resample_partitions.listed_performance): every block's perf is bit for bit
the perf of that block scored alone."""

from __future__ import annotations

import numpy as np
import pytest

from aaaf.scoring import aaaf as engine
from aaaf.scoring import resample_partitions
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from aaaf.scoring.resample_arrays import draw_counts, draw_indices, learning_blocks, task_arrays
from tests.scoring.factories import WINDOW_END, Events


def code_tasks() -> list[EventRecord]:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(12):
        status = ("accepted", "partial", "rejected")[i % 3]
        events += ev.task(
            f"t{i:03d}",
            status,
            domain="code",
            complexity=1 + i % 2,
            days_ago=20 - i,
            errors=[{}] * (i % 4 == 0),
            fraction=i / 12.0,
        )
    return events


@pytest.mark.parametrize("min_group", [5, 3])
def test_each_distinct_listing_scored_once_equals_every_listing_scored_alone(min_group: int) -> None:
    config = AAAFConfig().with_overrides(consistency_min_group=min_group)
    arrays = task_arrays(engine.window_evidence(fold_evidence(code_tasks()), config, WINDOW_END))
    rng = np.random.default_rng(3)
    few = rng.integers(0, arrays.n, size=(40, 5))
    listed = np.sort(few[rng.integers(0, 40, size=300)], axis=1)  # repeats, copies adjacent
    listed[:20] = listed[:20, :1]  # five copies of one task: a group of one CV
    together = resample_partitions.listed_performance(listed, arrays, config)
    alone = np.array(
        [resample_partitions.listed_performance(row[None, :], arrays, config)[0] for row in listed]
    )
    assert np.array_equal(together, alone, equal_nan=True)
    assert not np.isnan(together).all()


def two_domain_tasks() -> list[EventRecord]:
    """Eighteen completed tasks in each of two domains, some completed at the same time."""
    ev = Events()
    events: list[EventRecord] = []
    for i in range(36):
        events += ev.task(
            f"t{i:03d}",
            "accepted",
            domain=("code", "research")[i % 2],
            complexity=1 + i % 3,
            days_ago=float(20 - i // 4),
        )
    return events


def test_learning_blocks_are_each_domains_most_recent_copies_in_every_resample() -> None:
    """A slow listing, resample by resample and domain by domain: the 15 most recent completed
    copies (ties: the later task_id first), blocks of the first 5 and the last 5; each
    resample's pairs in domain order (what the per-resample sums of learning_rate rely on)."""
    config = AAAFConfig()
    arrays = task_arrays(engine.window_evidence(fold_evidence(two_domain_tasks()), config, WINDOW_END))
    counts = draw_counts(draw_indices(arrays.n, 200, 5), arrays.n)
    resample, listed = learning_blocks(counts, arrays, config.taxonomy, 15, 5)
    want: dict[int, list[list[int]]] = {}
    for b in range(counts.shape[0]):
        for domain in dict.fromkeys(config.taxonomy):
            members = [i for i in range(arrays.n) if arrays.domain[i] == domain and arrays.completed[i] > 0.0]
            members.sort(key=lambda i: (-arrays.completion_order[i], -i))
            copies = [i for i in members for _ in range(int(counts[b, i]))]
            if len(copies) >= 15:
                want.setdefault(b, []).append(copies[:5] + copies[10:15])
    got: dict[int, list[list[int]]] = {}
    for b, row in zip(resample.tolist(), listed.tolist(), strict=True):
        got.setdefault(b, []).append(row)
    assert got == want
    assert len(got) > 50


def test_the_task_columns_hold_the_weighted_terms_for_the_products_and_the_counts_apart() -> None:
    """The bootstrap's formulas read only the weighted terms (SCORING.md §2.5): they alone enter
    its products; the counts are kept apart (the kinds of window_rows compare every term)."""
    from aaaf.scoring.aaaf_tasks import TERMS

    window = engine.window_evidence(fold_evidence(code_tasks()), AAAFConfig(), WINDOW_END)
    arrays = task_arrays(window)
    weighted = TERMS.index("completed")
    assert arrays.terms.shape == (arrays.n, weighted) and arrays.terms.flags.c_contiguous
    every = np.array([s.terms for s in window.scored])
    assert (np.hstack((arrays.terms, arrays.tallies)) == every).all()


def test_distinct_rows_stand_for_every_row_even_where_keys_share_a_bucket() -> None:
    """The rows _distinct_rows keeps to score hold every row (each row's place is a row equal
    to it), every distinct row at least once and most repeats not at all, also where
    distinct keys fall in one bucket of its table."""
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 6, size=(4000, 3))
    key = (rows[:, 0] * 6 + rows[:, 1]) * 6 + rows[:, 2]
    scored, place = resample_partitions._distinct_rows(rows, key)
    assert np.array_equal(scored[place], rows)
    assert np.unique(key).size <= scored.shape[0] < 2 * np.unique(key).size
    # four keys, two of them in one of the table's 32 buckets (a collision)
    spread = np.uint64(0x9E3779B97F4A7C15)
    candidates = rng.integers(0, 2**40, size=200)
    buckets = ((candidates.view(np.uint64) * spread) >> np.uint64(59)).tolist()
    first: dict[int, int] = {}
    pair = next((first[b], i) for i, b in enumerate(buckets) if first.setdefault(b, i) != i)
    key = candidates[[pair[0], pair[1], pair[0], pair[1]]]
    rows = key[:, None] * np.array([1, 2])
    scored, place = resample_partitions._distinct_rows(rows, key)
    assert np.array_equal(scored[place], rows)
    assert 2 <= scored.shape[0] <= 3
