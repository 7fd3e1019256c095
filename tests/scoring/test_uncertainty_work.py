"""The §2.5 bootstrap does only the work its answer needs (docs/scoring.md, uncertainty):
counted work, not time.  Each test counts what one capability formula hands to the
composite or to the group statistics, for an agent whose resamples settle at the highest
complexity and autonomy level (the common case), and checks the answer is unchanged by the
shortcut (the slow reference of test_uncertainty.py checks the answers themselves)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from aaaf.scoring import aaaf as engine
from aaaf.scoring import resample_arrays, resample_partitions
from aaaf.scoring import uncertainty as unc
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.dimensions import CAPABILITY_ROWS
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()
DOMAINS = ("code", "research", "security")


def steady_agent() -> list[EventRecord]:
    """60 accepted tasks over three domains, complexity 1–5 and autonomy 0–3, each level
    well filled: nearly every resample qualifies at complexity 5 and autonomy 3."""
    ev = Events()
    events: list[EventRecord] = []
    for i in range(60):
        events += ev.task(
            f"t{i:03d}",
            "accepted",
            domain=DOMAINS[i % 3],
            complexity=1 + i % 5,
            autonomy=i % 4,
            days_ago=float(i % 20),
            seconds=300.0 + 7.0 * i,
        )
    return events


@pytest.fixture(scope="module")
def rows() -> unc.CapabilityRows:
    window = engine.window_evidence(fold_evidence(steady_agent()), CONFIG, WINDOW_END)
    arrays = unc.task_arrays(window)
    counts = unc.draw_counts(unc.draw_indices(arrays.n, CONFIG.uncertainty_resamples, 0), arrays.n)
    whole = unc.group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, CONFIG.consistency_min_group)
    return unc.CapabilityRows(counts, arrays, CONFIG, whole)


def counting(monkeypatch: pytest.MonkeyPatch, name: str, rows_of: Any) -> list[int]:
    """Record, for every call of ``resample_partitions.<name>``, how many rows ``rows_of(args)``
    says it got."""
    seen: list[int] = []
    original = getattr(resample_partitions, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(rows_of(args))
        return original(*args, **kwargs)

    monkeypatch.setattr(resample_partitions, name, spy)
    return seen


def composite_rows_of(args: Any) -> int:
    return int(args[0][0].shape[0])


def test_complexity_levels_are_scored_only_where_no_higher_level_settled(
    rows: unc.CapabilityRows, monkeypatch: pytest.MonkeyPatch
) -> None:
    resamples = rows.counts.shape[0]
    seen = counting(monkeypatch, "composite_at_least", composite_rows_of)
    ceiling = CAPABILITY_ROWS.complete()["complexity_ceiling"](rows)
    assert np.mean(ceiling == 1.0) > 0.9
    # every level in every resample would be 5 × B rows
    assert sum(seen) < 2 * resamples


def test_autonomy_groups_are_taken_level_by_level_where_needed(
    rows: unc.CapabilityRows, monkeypatch: pytest.MonkeyPatch
) -> None:
    resamples, n = rows.counts.shape
    seen = counting(monkeypatch, "group_stats", lambda args: int(args[0].shape[0] * args[0].shape[1]))
    autonomy = CAPABILITY_ROWS.complete()["autonomy_level"](rows)
    assert np.mean(autonomy == 1.0) > 0.9
    # the (group, level) table of every task in every resample would be B × n cells
    assert seen and sum(seen) < 0.5 * resamples * n


def test_a_domain_is_scored_only_where_some_resample_has_three_completed_copies_of_it(
    rows: unc.CapabilityRows, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its resamples are scored together, as the partition's tables lie: a domain no resample
    holds three completed copies of is not scored at all."""
    seen = counting(monkeypatch, "composite_at_least", composite_rows_of)
    CAPABILITY_ROWS.complete()["domain_breadth"](rows)
    arrays = rows.arrays
    in_domain = np.array([[d == domain for d in arrays.domain] for domain in dict.fromkeys(CONFIG.taxonomy)])
    completed = rows.counts @ (in_domain * arrays.completed).T
    resamples = rows.counts.shape[0]
    assert seen == [resamples * int((completed >= 3).any(axis=0).sum())]
    assert seen[0] < resamples * len(CONFIG.taxonomy)


def test_window_rows_compares_kinds_only_in_rows_drawing_the_windows_completion_times(
    rows: unc.CapabilityRows, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    original = resample_arrays._drawn_per_kind

    def spy(counts: np.ndarray, arrays: resample_arrays.TaskArrays) -> Any:
        seen.append(int(counts.shape[0]))
        return original(counts, arrays)

    monkeypatch.setattr(resample_arrays, "_drawn_per_kind", spy)
    arrays = rows.arrays
    # the window itself, a resample of it, and the window with two tasks of one domain,
    # complexity and autonomy swapped (the same multiset of kinds only if they are alike)
    swapped = np.ones(arrays.n)
    swapped[0], swapped[3] = 2.0, 0.0
    counts = np.vstack([np.ones(arrays.n), rows.counts[:1], swapped])
    found = unc.window_rows(counts, arrays)
    assert found.tolist() == [True, False, False]
    assert seen == [1]


def test_the_draws_counts_are_stored_task_by_task() -> None:
    """A task's counts in every resample are contiguous: a subset's columns are whole rows of
    the stored table and the group statistics' product reads it without a transposed copy."""
    indices = unc.draw_indices(7, 50, 3)
    counts = unc.draw_counts(indices, 7)
    assert counts.shape == (50, 7)
    assert counts.T.flags.c_contiguous
    assert counts.tolist() == [np.bincount(row, minlength=7).astype(np.float64).tolist() for row in indices]
    columns = np.array([5, 0, 3])
    for table in (counts, np.ascontiguousarray(counts)):  # any layout gives the same columns
        assert resample_arrays.task_columns(table, columns).tolist() == counts[:, columns].tolist()


def test_a_levels_sums_are_taken_only_when_it_is_tried(
    rows: unc.CapabilityRows, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[int] = []
    original = resample_partitions.task_columns

    def spy(counts: np.ndarray, columns: np.ndarray) -> Any:
        taken.append(int(columns.size))
        return original(counts, columns)

    monkeypatch.setattr(resample_partitions, "task_columns", spy)
    ceiling = CAPABILITY_ROWS.complete()["complexity_ceiling"](rows)
    assert np.mean(ceiling == 1.0) > 0.9
    # the tasks of every level would be all 60
    assert taken and sum(taken) < 0.5 * sum(c is not None for c in rows.arrays.complexity)


class _Products(np.ndarray):
    """The counts, counting how many times they are multiplied (``counts @ columns``)."""

    taken = 0

    def __matmul__(self, other: Any) -> Any:
        _Products.taken += 1
        return np.asarray(self) @ other


def test_the_counted_columns_are_one_product_and_loose_orchestration_none() -> None:
    """Completed copies, tool and delegation counts are sums of integers (or of quarters),
    exact in any order: one product of the counts with all of them serves every formula that
    reads them.  With no task's own orchestration results every resample holds the window's,
    and nothing is multiplied for them."""
    ev = Events()
    events: list[EventRecord] = []
    for i in range(30):
        task = f"t{i:03d}"
        events += ev.task(task, "accepted", domain=DOMAINS[i % 3], autonomy=i % 4, days_ago=float(i % 10))
        events.append(ev.tool(task, ("search", "shell")[i % 2], success=i % 5 != 0))
        events.append(ev.decision(task, "delegate", "delegate", delegate_to="a", optimal_delegate="a"))
        events.append(ev.outcome(task, ("success", "partial")[i % 2], revision_needed=i % 3 == 0))
    events.append(ev.orchestration(None, synthesis=0.8, workflow=0.6))
    window = engine.window_evidence(fold_evidence(events), CONFIG, WINDOW_END)
    arrays = unc.task_arrays(window)
    assert not arrays.orchestration_per_task.any() and arrays.tool_names
    counts = unc.draw_counts(unc.draw_indices(arrays.n, 200, 0), arrays.n)
    whole = unc.group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, CONFIG.consistency_min_group)
    formulas = CAPABILITY_ROWS.complete()
    names = ("tool_proficiency", "delegation_capability", "orchestration_skills")
    plain = [formulas[name](unc.CapabilityRows(counts, arrays, CONFIG, whole)) for name in names]
    _Products.taken = 0
    rows = unc.CapabilityRows(counts.view(_Products), arrays, CONFIG, whole)
    counted = [np.asarray(formulas[name](rows)) for name in names]
    assert _Products.taken == 1
    for before, after in zip(plain, counted, strict=True):
        assert before.tobytes() == after.tobytes()
    # each column as its own product, bit for bit
    sums = counts @ arrays.tool_per_task
    assert (rows.tallies[:, 2 : 2 + sums.shape[1]] == sums).all()
    assert (rows.tallies[:, -6:] == counts @ arrays.delegation_per_task).all()
    # the window's one loose result in every resample: workflow, handling (nothing injected), synthesis
    assert (counted[2] == math.fsum((0.6, 1.0, 0.8)) / 3).all()


_REPORTED = st.one_of(
    st.none(),
    st.sampled_from([0.0, -0.0, 0.25, 0.5, 0.1 + 0.2, 0.3, 0.75, 1.0]),
    st.floats(-1.0, 2.0, allow_nan=False),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_REPORTED, min_size=1, max_size=80), st.sampled_from(sorted(unc.TIERS_OF_AXIS)))
@example([-0.0, -0.0, 0.0, -0.0, 0.0, 0.0, 0.0, -0.0], "performance")  # a sort's zeros are not numpy's
def test_the_interval_report_is_numpys_percentile_and_each_values_tier(
    values: list[float | None], axis: str
) -> None:
    """The report reads both bounds and every tier's share off one sort of the values: the
    same floats as numpy.percentile's linear interpolation (signed zeros included) and the
    same shares as each value's own tier."""
    array = np.array([np.nan if v is None else v for v in values])
    tiers = sorted(unc.TIERS_OF_AXIS[axis], key=lambda t: t.lower)
    report = unc.interval_report(array, tiers)
    sufficient = array[~np.isnan(array)]
    if sufficient.size == 0:
        assert report["ci"] is None
        return
    expected = np.percentile(sufficient, [2.5, 97.5], method="linear")
    assert np.array(report["ci"]).tobytes() == expected.tobytes()
    found = np.bincount(unc.tier_indices(sufficient, tiers), minlength=len(tiers))
    for tier, count in zip(tiers, found.tolist(), strict=True):
        assert report["tier_probabilities"][tier.name] == count / array.size


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.integers(1, 40), st.integers(0, 2**31 - 1))
def test_quarter_sums_are_the_float64_product(tasks: int, columns: int, seed: int) -> None:
    """Multiplicities times quarters: the float32 product's floats are the float64 product's,
    and an entry that is no quarter or a sum past 2^22 takes the float64 product itself."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, size=(50, tasks)).astype(np.float64)
    table = rng.integers(-40, 400, size=(tasks, columns)) / 4.0
    for entries in (table, table * 2.0**15, table + 0.1):
        expected = counts @ entries
        assert resample_arrays.quarter_sums(counts, entries).tobytes() == expected.tobytes()


def test_quarter_sums_fall_back_past_float32s_exact_range() -> None:
    """Sums float32 would round (2^24 + 1 is no float32) are taken in float64: a task's own
    entries past the range, or a resample's many copies of small ones."""
    counts = np.array([[1.0, 1.0], [2.0, 0.0]])
    entries = np.array([[2.0**24], [1.0]])
    assert resample_arrays.quarter_sums(counts, entries)[:, 0].tolist() == [2.0**24 + 1.0, 2.0**25]
    many = np.array([[2.0**24 + 1.0, 0.0], [1.0, 2.0]])
    small = np.array([[1.0], [0.25]])
    assert resample_arrays.quarter_sums(many, small)[:, 0].tolist() == [2.0**24 + 1.0, 1.5]


def test_the_tool_columns_sum_each_tasks_usages() -> None:
    """Every tool's five counts summed per task (usages taken apart at once, as the plain loop)."""
    from aaaf.scoring.fold_records import ToolUsage

    usage = [
        ToolUsage("shell", 3, 2, 1, 1, 0, ("e1",)),
        ToolUsage("search", 1, 1, 0, 0, 1, ("e2",)),
        ToolUsage("shell", 2, 0, 2, 1, 1, ("e3",)),
    ]
    rows = [usage[:2], [], usage[2:], usage]
    index = {"search": 0, "shell": 1}
    got = resample_arrays._tool_columns(rows, index, 10)
    expected = np.zeros((4, 10))
    for row, usages in enumerate(rows):
        for u in usages:
            at = 5 * index[u.tool]
            expected[row, at : at + 5] += (u.invocations, u.successes, u.failures, u.recovered, u.unnecessary)
    assert got.tobytes() == expected.tobytes()
    assert resample_arrays._tool_columns([[], []], index, 10).tobytes() == np.zeros((2, 10)).tobytes()


@pytest.mark.parametrize("tasks", [1, 3, 8, 9, 40])
def test_the_rows_drawing_every_task_once_are_every_row_compared_whole(tasks: int) -> None:
    """Only the rows drawing the first tasks once are compared whole: the same rows as comparing
    every row (ones, ones up to a late task, a permutation's counts, draws)."""
    rng = np.random.default_rng(tasks)
    late = np.ones(tasks)
    late[-1] = 2.0
    if tasks > 1:
        late[-2] = 0.0
    draws = unc.draw_counts(unc.draw_indices(tasks, 500, 1), tasks)
    counts = np.vstack([np.ones(tasks), late, np.ones(tasks)[rng.permutation(tasks)], draws])
    for table in (counts, np.asfortranarray(counts)):
        expected = (table == 1.0).all(axis=1)
        assert resample_arrays._drawn_once(table).tolist() == expected.tolist()
    assert resample_arrays._drawn_once(counts)[:3].tolist() == [True, False, True]


def test_a_dimension_null_in_the_assessment_is_not_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same construct: a Capability dimension null in the assessment is null in every resample,
    so its formula is not run; the others are the scores of every formula run."""
    window = engine.window_evidence(fold_evidence(steady_agent()), CONFIG, WINDOW_END)
    arrays = unc.task_arrays(window)
    counts = unc.draw_counts(unc.draw_indices(arrays.n, 300, 0), arrays.n)
    whole = unc.group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, CONFIG.consistency_min_group)
    every = unc.capability_scores(counts, arrays, CONFIG, whole)
    assessed = {name: 0.5 for name in every}
    assessed["learning_rate"] = assessed["orchestration_skills"] = None  # type: ignore[assignment]
    formulas = CAPABILITY_ROWS.complete()
    run: list[str] = []
    for name, formula in list(formulas.items()):

        def spy(rows: Any, name: str = name, formula: Any = formula) -> Any:
            run.append(name)
            return formula(rows)

        monkeypatch.setitem(formulas, name, spy)  # type: ignore[arg-type]
    (_, kept) = unc.resampled_scores(window, CONFIG, {"capability": assessed}, counts)["capability"]
    assert sorted(run) == sorted(name for name, score in assessed.items() if score is not None)
    for name, values in kept.items():
        expected = every[name] if assessed[name] is not None else np.full(counts.shape[0], np.nan)
        assert values.tobytes() == expected.tobytes()
