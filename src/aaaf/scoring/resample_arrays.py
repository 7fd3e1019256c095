"""The per-task columns the §2.5 bootstrap resamples, and its draw (SCORING.md §2.5).

A resample is fully described by how many times it drew each of the window's tasks
(``task_id`` order): :func:`draw_indices` is the §2.5 index matrix and :func:`draw_counts`
its count matrix.  :func:`task_arrays` lays the assessment's per-task quantities
(:class:`aaaf.scoring.aaaf.ScoredTask`) out as columns, so that every sum of a resample is
a row of ``counts @ column``; :func:`window_rows` finds the resamples that are the window
itself.  :mod:`aaaf.scoring.uncertainty` holds the formulas over them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from aaaf.scoring.aaaf_tasks import TERMS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_TERMS_OF = attrgetter("terms")
_COMPLETED_OF = attrgetter("completed")
_ACCURACY_OF = attrgetter("accuracy")
_CREDIT_OF = attrgetter("credit")

# the weighted terms (Σ wᵢ …) come first in TERMS, the counts after: the bootstrap's formulas
# read only the weighted ones, so only they enter its products (with the NaN divide:
# bootstrap 103.1 -> 99.6 M instructions per 1 000-event agent, callgrind)
_WEIGHTED = TERMS.index("completed")

# as in aaaf.scoring.aaaf (kept equal by tests/scoring/test_uncertainty.py)
_OUTCOME_VALUES = {"success": 1.0, "partial": 0.5, "failure": 0.0}


def positive(denominator: FloatArray) -> FloatArray:
    """``denominator`` where > 0, NaN (null) elsewhere: a ratio over it is then null.  When
    every value is > 0 (the usual) it is returned as it is, after one pass and no mask (scores_of
    0.51–0.67 -> 0.40–0.42 ms CPU per agent in situ, alternating runs)."""
    if denominator.size and float(denominator.min()) > 0.0:  # NaN's min is NaN: not > 0
        return denominator
    return np.where(denominator > 0.0, denominator, np.nan)


def divide(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """numerator / denominator where denominator > 0, NaN (null) elsewhere (a division by
    NaN, not a masked divide into a NaN-filled array: the same floats, fewer passes)."""
    return numerator / positive(denominator)


def draw_indices(n_tasks: int, resamples: int, seed: int) -> IntArray:
    """The §2.5 index matrix: ``default_rng(seed).integers(0, n_tasks, size=(B, n_tasks))``."""
    return np.random.default_rng(seed).integers(0, n_tasks, size=(resamples, n_tasks))


def draw_counts(indices: IntArray, n_tasks: int) -> FloatArray:
    """How many times each resample (row) drew each task (column), as floats for the products.

    Stored task by task (the B × n view of an n × B table, Fortran order): a task's counts
    in every resample are contiguous, so a subset's columns are copied as whole rows
    (:func:`task_columns`) and the group statistics' sparse product reads the table as it
    is, with no transposed copy; the matrix products are the same BLAS products either way."""
    resamples = indices.shape[0]
    flat = (indices * resamples + np.arange(resamples, dtype=np.int64)[:, None]).ravel()
    counts = np.bincount(flat, minlength=resamples * n_tasks).reshape(n_tasks, resamples)
    return counts.astype(np.float64).T


def task_columns(counts: FloatArray, columns: IntArray) -> FloatArray:
    """``counts[:, columns]``, taken as rows of the task-by-task table (:func:`draw_counts`)."""
    return np.take(counts.T, columns, axis=0).T


_EXACT_QUARTERS = 2.0**22  # a float32 (24-bit significand) holds every quarter below this exactly


def quarter_sums(counts: FloatArray, columns: FloatArray) -> FloatArray:
    """``counts @ columns`` where the counts are whole numbers (multiplicities) and every entry
    of ``columns`` a multiple of 1/4 (tallies, management scores): each such sum is exact in
    any order, so a float32 product gives the very same floats whenever every partial sum
    is below 2^22 in magnitude.  The product's own extra column, each task's Σ|entries|,
    bounds them all (float32 rounding is monotone: a total below 2^22 is one whose exact
    value is); where it cannot, or an entry is no quarter, the float64 product is taken."""
    quarters = columns * 4.0
    if columns.size == 0 or not bool((quarters == np.floor(quarters)).all()):
        return counts @ columns
    mass = np.abs(columns).sum(axis=1)
    if float(mass.max()) >= _EXACT_QUARTERS:
        return counts @ columns
    # half the bytes, twice the lanes: tallies 0.54 -> 0.32 ms per 1 000-event agent
    # (bootstrap_floor.py --in-situ CPU, alternating pairs)
    summed = counts.astype(np.float32) @ np.column_stack((columns, mass)).astype(np.float32)
    if float(summed[:, -1].max(initial=0.0)) >= _EXACT_QUARTERS:
        return counts @ columns
    return summed[:, :-1].astype(np.float64)


@dataclass(frozen=True)
class TaskArrays:
    """The assessment's per-task quantities as columns (one row per window task, task_id order)."""

    terms: FloatArray  # (n, 9): ScoredTask.terms, the weighted ones (TERMS up to "completed")
    tallies: FloatArray  # (n, 4): ScoredTask.terms, the counts (completed, revised, timed, reviewed)
    completed: FloatArray  # (n,) 1.0 when completed
    accuracy: FloatArray  # (n,) per-task accuracy
    credit: FloatArray  # (n,) credit
    group: IntArray  # (n,) consistency group id, -1 when none (not completed / no domain or level)
    domain: tuple[str | None, ...]
    complexity: tuple[int | None, ...]
    autonomy: tuple[int | None, ...]
    completed_with_autonomy: FloatArray  # (n,)
    completion_order: tuple[float, ...]  # completed_at as a POSIX timestamp (0 when none)
    tool_names: tuple[str, ...]
    tool_base: FloatArray  # (n_tools * 5,) unattached tool counts
    tool_per_task: FloatArray  # (n, n_tools * 5)
    delegation_base: FloatArray  # (6,) judged, correct, selectable, selected, managed, management sum
    delegation_per_task: FloatArray  # (n, 6)
    orchestration_base: FloatArray  # (2,) results, sum of scenario scores
    orchestration_per_task: FloatArray  # (n, 2)

    @property
    def n(self) -> int:
        return int(self.terms.shape[0])


def _tool_columns(rows: Sequence[Sequence[Any]], index: Mapping[str, int], width: int) -> FloatArray:
    """One row per entry of ``rows`` (each a sequence of tool usages): every tool's five
    counts (invocations, successes, failures, recovered, unnecessary) summed, tool after tool
    (``index``: each tool's position).  The usages' fields are taken apart at once (zip) and
    summed by one ``bincount`` over every (usage, count) cell, each cell's in usage order (a
    slice update per usage cost 5 % of the bootstrap; a ``bincount`` per count and the counts
    as floats by np.array: 2.02 -> 1.47 M instructions per 1 000-event agent, callgrind)."""
    usages = list(chain.from_iterable(rows))
    if not usages:
        return np.zeros((len(rows), width))
    tool, *fields = list(zip(*usages, strict=True))[:6]  # ToolUsage: tool, then the five counts
    row_of = np.repeat(np.arange(len(rows), dtype=np.int64) * width, [len(r) for r in rows])
    at = row_of + 5 * np.fromiter(map(index.__getitem__, tool), np.int64, len(usages))
    cells = at[None, :] + np.arange(5, dtype=np.int64)[:, None]  # count after count
    counts = np.fromiter(chain.from_iterable(fields), np.int64, 5 * len(usages)).astype(np.float64)
    out = np.bincount(cells.ravel(), counts, len(rows) * width).astype(np.float64, copy=False)  # (typed)
    return out.reshape(len(rows), width)


def _delegation_columns(decisions: Sequence[Any], outcomes: Sequence[Any]) -> list[float]:
    """judged, correct, selectable, selected, managed, management sum (Python floats: the same
    sums, in the same order, as float64 scalars)."""
    out = [0.0] * 6
    for d in decisions:
        if d.ground_truth is not None:
            out[0] += 1.0
            out[1] += 1.0 if d.decision == d.ground_truth else 0.0
        if d.decision == "delegate" and d.optimal_delegate is not None:
            out[2] += 1.0
            out[3] += 1.0 if d.delegate_to == d.optimal_delegate else 0.0
    for o in outcomes:
        if o.outcome in _OUTCOME_VALUES:
            out[4] += 1.0
            out[5] += _OUTCOME_VALUES[o.outcome] * (0.5 if o.revision_needed else 1.0)
    return out


def _scenario_score(r: Any) -> float:
    """One orchestration_result's score, as ``_orchestration_skills`` computes it (§2.3)."""
    if r.failures_injected > 0:
        handling = min(1.0, max(0.0, r.failures_recovered / r.failures_injected))
    else:
        handling = 1.0
    present = [
        v
        for v in (r.workflow_design_score, r.communication_clarity_score, handling, r.synthesis_quality_score)
        if v is not None
    ]
    return math.fsum(present) / len(present)


def _floats(values: Iterable[Any], n: int) -> FloatArray:
    """``values`` (n numbers or booleans) as a float64 column, in one pass (not np.array's
    discovery of a list's element types and shape)."""
    return np.fromiter(values, np.float64, n)


def task_arrays(window: Any) -> TaskArrays:
    """Columns of the window's per-task quantities (``window``: the engine's WindowEvidence).

    The columns are read in one pass each (np.fromiter), the rare per-task delegation and
    orchestration evidence only where a task has some: task_arrays 8.73 -> 6.05 M instructions
    per 1 000-event agent (callgrind)."""
    scored = window.scored
    n = len(scored)
    every_term = _floats(chain.from_iterable(map(_TERMS_OF, scored)), n * len(TERMS)).reshape(n, len(TERMS))
    completed = _floats(map(_COMPLETED_OF, scored), n)
    group_ids: dict[tuple[str, int], int] = {}
    group = np.array(
        [-1 if s.group is None else group_ids.setdefault(s.group, len(group_ids)) for s in scored],
        dtype=np.int64,
    )
    tasks = [s.task for s in scored]
    task_tools = [t.tools for t in tasks]
    n_task_tools = sum(map(len, task_tools))
    loose_tools = window.tools[: len(window.tools) - n_task_tools]
    names = sorted({u.tool for u in window.tools})
    tool_index = {name: i for i, name in enumerate(names)}
    tool_base = _tool_columns([loose_tools], tool_index, len(names) * 5).reshape(-1)
    tool_per_task = _tool_columns(task_tools, tool_index, len(names) * 5)
    n_task_decisions = sum(len(t.delegation_decisions) for t in tasks)
    n_task_outcomes = sum(len(t.delegation_outcomes) for t in tasks)
    delegation_base = np.array(
        _delegation_columns(
            window.delegation_decisions[: len(window.delegation_decisions) - n_task_decisions],
            window.delegation_outcomes[: len(window.delegation_outcomes) - n_task_outcomes],
        )
    )
    delegation_per_task = np.zeros((n, 6))
    orchestration_per_task = np.zeros((n, 2))
    n_task_orch = 0
    for row, t in enumerate(tasks):
        if t.delegation_decisions or t.delegation_outcomes:
            delegation_per_task[row] = _delegation_columns(t.delegation_decisions, t.delegation_outcomes)
        if t.orchestration_results:
            n_task_orch += len(t.orchestration_results)
            orchestration_per_task[row] = (
                float(len(t.orchestration_results)),
                sum(map(_scenario_score, t.orchestration_results)),
            )
    loose_orch = window.orchestration_results[: len(window.orchestration_results) - n_task_orch]
    orchestration_base = np.array([float(len(loose_orch)), sum(map(_scenario_score, loose_orch))])
    autonomy = tuple(t.autonomy_level for t in tasks)
    return TaskArrays(
        terms=every_term[:, :_WEIGHTED].copy(),
        tallies=every_term[:, _WEIGHTED:].copy(),
        completed=completed,
        accuracy=_floats(map(_ACCURACY_OF, scored), n),
        credit=_floats(map(_CREDIT_OF, scored), n),
        group=group,
        domain=tuple(t.domain for t in tasks),
        complexity=tuple(t.complexity_level for t in tasks),
        autonomy=autonomy,
        completed_with_autonomy=_floats(
            (s.completed and a is not None for s, a in zip(scored, autonomy, strict=True)), n
        ),
        completion_order=tuple(
            t.completed_at.timestamp() if t.completed_at is not None else 0.0 for t in tasks
        ),
        tool_names=tuple(names),
        tool_base=tool_base,
        tool_per_task=tool_per_task,
        delegation_base=delegation_base,
        delegation_per_task=delegation_per_task,
        orchestration_base=orchestration_base,
        orchestration_per_task=orchestration_per_task,
    )


def window_rows(counts: FloatArray, arrays: TaskArrays) -> BoolArray:
    """The resamples that are the window itself: each drew every kind of task (tasks equal in
    every per-task quantity, completion time included, are one kind) as many times as the
    window holds it.  Such a resample is the window's multiset of tasks, so its scores are the
    assessment's, bit for bit (the row of ones, and every resample of alike tasks) — whatever
    order its matrix products sum in (SCORING.md §2.5)."""
    n = arrays.n
    if n == 0:
        return np.zeros(counts.shape[0], dtype=np.bool_)
    # a kind has one completion time, so such a resample draws every completion time as many
    # times as the window holds it: only the few rows that do are compared kind by kind
    # (the kinds of every task cost 7 % of the bootstrap, measured)
    times = np.array(arrays.completion_order, dtype=np.float64)
    ordered = np.sort(times)
    # every task its own kind (distinct times: a sort, not np.unique's inverse and counts): the window
    # is the row drawing each once
    if bool((ordered[1:] != ordered[:-1]).all()):
        return _drawn_once(counts)
    _, time_of, held = np.unique(times, return_inverse=True, return_counts=True)
    candidates = np.nonzero(_drawn_per_class(counts, time_of.reshape(-1), held))[0]
    found = np.zeros(counts.shape[0], dtype=np.bool_)
    if candidates.size:
        found[candidates] = _drawn_per_kind(counts[candidates], arrays)
    return found


def _drawn_once(counts: FloatArray) -> BoolArray:
    """The rows of ``counts`` that draw every task once.  A row of the §2.5 draw draws a given
    task once with a chance near 1/e, so the rows that draw the first 8 tasks once are few
    (about 3 in 10 000): only they are compared whole (every row compared whole: window_rows
    0.19 -> 0.06 ms per 1 000-event agent with its check of distinct times, bootstrap_floor.py
    --in-situ CPU)."""
    leading = np.flatnonzero((counts[:, :8] == 1.0).all(axis=1))
    found = np.zeros(counts.shape[0], dtype=np.bool_)
    if leading.size:
        found[leading] = (counts[leading] == 1.0).all(axis=1)
    return found


def _drawn_per_class(counts: FloatArray, label: IntArray, held: IntArray) -> BoolArray:
    """The rows of ``counts`` that draw each class (``label``: each task's) ``held`` times."""
    order = np.argsort(label, kind="stable")
    starts = np.concatenate(([0], np.nonzero(np.diff(label[order]))[0] + 1))
    drawn = np.add.reduceat(counts[:, order], starts, axis=1)  # integer counts: exact
    return np.asarray((drawn == held[None, :]).all(axis=1), dtype=np.bool_)


def _drawn_per_kind(counts: FloatArray, arrays: TaskArrays) -> BoolArray:
    """The rows of ``counts`` that draw every kind of task as many times as the window holds it."""
    n = arrays.n
    domains: dict[str | None, int] = {}
    features = np.column_stack(
        [
            arrays.terms,
            arrays.tallies,
            arrays.completed,
            arrays.accuracy,
            arrays.credit,
            arrays.group.astype(np.float64),
            [float(domains.setdefault(d, len(domains))) for d in arrays.domain],
            [-1.0 if c is None else float(c) for c in arrays.complexity],
            [-1.0 if a is None else float(a) for a in arrays.autonomy],
            arrays.completed_with_autonomy,
            np.array(arrays.completion_order, dtype=np.float64),
            arrays.tool_per_task,
            arrays.delegation_per_task,
            arrays.orchestration_per_task,
        ]
    ).reshape(n, -1)
    # each task's kind, in first-seen order (a dict of rows: np.unique over rows is slower, measured)
    kinds: dict[tuple[float, ...], int] = {}
    kind = np.array(
        [kinds.setdefault(tuple(row), len(kinds)) for row in np.nan_to_num(features, nan=-1.0).tolist()],
        dtype=np.int64,
    ).reshape(-1)
    return _drawn_per_class(counts, kind, np.bincount(kind))


def learning_blocks(
    counts: FloatArray, arrays: TaskArrays, taxonomy: Sequence[str], tasks: int, block: int
) -> tuple[IntArray, IntArray]:
    """The learning-rate blocks of SCORING.md §2.3 in every resample: (the resample of each block
    pair, the window index of each of its 2 × ``block`` copies — the later block's, then the
    earlier's; ``tasks``: the copies a domain needs, 15, ``block``: 5).  The pairs come domain
    after domain, each domain's in resample order: every resample's pairs are in domain order.

    A (resample, taxonomy domain) pair has one when the domain has ≥ ``tasks`` completed
    copies; its ``tasks`` most recent are taken in completion order (ties by task_id, copies
    adjacent).  A domain's completed tasks are laid out most recent first, and the copies of
    each resample that has a pair listed in that order, resample after resample: a pair's
    copies are then one run, whose first ``tasks`` are its most recent.  Only the resamples
    with a pair are listed, domain by domain (every resample's copies of every domain in one
    listing: learning_rate 24.16 -> 21.83 M instructions per 1 000-event agent, callgrind)."""
    index = {domain: at for at, domain in enumerate(dict.fromkeys(taxonomy))}
    label = np.array(
        [
            index.get(domain, -1) if done > 0.0 and domain is not None else -1
            for domain, done in zip(arrays.domain, arrays.completed.tolist(), strict=True)
        ],
        dtype=np.int64,
    ).reshape(-1)
    members = np.nonzero(label >= 0)[0]
    completion = np.asarray(arrays.completion_order, dtype=np.float64)[members]
    # domain first, then most recent first; equal times: the later task_id first
    order = members[np.lexsort((-members, -completion, label[members]))]
    bounds = np.nonzero(np.diff(np.concatenate(([-1], label[order], [-1]))))[0]
    positions = np.concatenate(
        (
            np.arange(block, dtype=np.int64),  # the later block, from the most recent
            np.arange(tasks - block, tasks, dtype=np.int64),
        )
    )
    found: list[tuple[IntArray, IntArray]] = []
    for low, high in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        columns = order[low:high]
        drawn = np.take(counts.T, columns, axis=0)  # the domain's tasks × resamples
        totals = np.add.reduce(drawn, axis=0)
        resample = np.flatnonzero(totals >= tasks)
        if resample.size == 0:
            continue
        # the pairs' copies, resample after resample (integer counts: exact)
        copies = np.take(drawn, resample, axis=1).T.astype(np.int64, order="C").ravel()
        held = totals[resample].astype(np.int64)
        first = np.cumsum(held) - held
        # every copy of the listing as its task's window index: the wanted copies are read
        # off it (a binary search of the running counts per copy cost 9.4 M of
        # learning_rate's 35.4 M instructions per 1 000-event agent, callgrind)
        listing = np.repeat(np.tile(columns, resample.size), copies)
        found.append((resample, listing[first[:, None] + positions[None, :]]))
    if not found:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 2 * block), dtype=np.int64)
    return np.concatenate([r for r, _ in found]), np.concatenate([listed for _, listed in found])


__all__ = [
    "BoolArray",
    "FloatArray",
    "IntArray",
    "TaskArrays",
    "divide",
    "draw_counts",
    "draw_indices",
    "learning_blocks",
    "positive",
    "quarter_sums",
    "task_arrays",
    "task_columns",
    "window_rows",
]
