"""The §2.5 bootstrap (docs/scoring.md §2.5) beside its floor: the least any exact B = 1 000
bootstrap of bench_uncertainty's agents must do, step by step (count_uncertainty_work.py's agents).

The floor is the spec'd draw, its count matrix C (B × n) and one pass over C per quantity the
twelve dimensions need — each a product of C with per-task columns (dense where every task has
a value, sparse where each task sits in one subset):

* ``terms``: the weighted §2.2 terms and the completed flag, n × 10 (the Performance axis,
  whether a resample has a completed copy);
* ``groups``: per consistency group its copies, Σc·y and Σc·y² of accuracy and credit (5 × groups);
* ``domains``, ``complexity``, ``autonomy``: the same ten columns per subset of each partition
  (domain_breadth, complexity_ceiling, autonomy_level's perf(S));
* ``autonomy_groups``: the consistency groups cut by autonomy level (5 × (group, level));
* ``counted``: tools (5 per tool), delegation (6), orchestration (2), completed with autonomy;
* ``learning``: each domain's running copies in completion order (one cumulative sum of C's
  completed columns), where the learning-rate blocks start;
* ``itself``: the resamples that are the window (C = 1).

Nothing else is B × n: what is left (a few B-vectors per dimension and subset, the composites,
the interval) is per resample, not per copy.  The actual bootstrap is split the same way:
``task_arrays`` (per task, no B), ``draw``, ``counts``, ``group_stats`` (the window's), ``itself``,
``performance``, ``tallies`` (the counted columns' one product, :class:`CapabilityRows`) and each
Capability dimension (each given the same counts, group statistics and tallies as
``resampled_scores`` gives it), ``rest`` (the whole ``assessment_uncertainty`` minus the steps).

Without callgrind it prints each step's CPU ms per agent (median of ``--repeats`` runs per
agent, summed over agents ÷ agents).  Each step so is run warm, its inputs in the caches as the
step before it left them; ``--in-situ`` times the same steps inside whole runs instead (each
call timed where ``assessment_uncertainty`` makes it, ``--repeats`` whole runs per agent):
the difference is what the run's cache traffic costs each step.  Counted::

    COUNT_FLOOR_CALLGRIND=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/floor.out python benchmarks/bootstrap_floor.py --repeats 1

each step is dumped apart (one dump per step, in the printed order: ``grep totals
/tmp/floor.out.N``; ``--out /tmp/floor.out`` prints them per agent).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from scipy import sparse

from callgrind import control
from count_uncertainty_work import _windows

_callgrind = partial(control, "COUNT_FLOOR_CALLGRIND")


def _subset_table(labels: np.ndarray, columns: np.ndarray, n_subsets: int) -> sparse.csr_array:
    """(subsets × width) × n: task i's ``columns`` row in its subset's block (``labels``, -1: none)."""
    width = columns.shape[1]
    at = np.nonzero(labels >= 0)[0]
    rows = (labels[at][:, None] * width + np.arange(width)[None, :]).ravel()
    cols = np.repeat(at, width)
    return sparse.csr_array(
        (columns[at].ravel(), (rows, cols)), shape=(max(n_subsets, 1) * width, labels.shape[0])
    )


def _labels(values: Any) -> tuple[np.ndarray, int]:
    index: dict[Any, int] = {}
    labels = np.array([-1 if v is None else index.setdefault(v, len(index)) for v in values], dtype=np.int64)
    return labels.reshape(-1), len(index)


def floor_steps(window: Any, config: Any) -> list[tuple[str, Callable[[], Any]]]:
    """The floor's steps for one agent, in order, each a call (inputs made here, uncounted)."""
    from aaaf.scoring.resample_arrays import draw_counts, draw_indices, task_arrays

    arrays = task_arrays(window)
    n, b = arrays.n, config.uncertainty_resamples
    indices = draw_indices(n, b, config.uncertainty_seed)
    counts = draw_counts(indices, n)
    by_task = counts.T  # n × B, C-contiguous: the sparse products read it as it lies
    counted = np.column_stack((arrays.terms, arrays.completed))
    metrics = np.column_stack(
        (np.ones(n), arrays.accuracy, arrays.accuracy**2, arrays.credit, arrays.credit**2)
    )
    groups = _subset_table(arrays.group, metrics, int(arrays.group.max()) + 1)
    partitions = {}
    for name, values in (
        ("domains", arrays.domain),
        ("complexity", arrays.complexity),
        ("autonomy", arrays.autonomy),
    ):
        labels, n_subsets = _labels(values)
        partitions[name] = _subset_table(labels, counted, n_subsets)
    joint, n_joint = _labels(
        None if g < 0 or a is None else (g, a)
        for g, a in zip(arrays.group.tolist(), arrays.autonomy, strict=True)
    )
    autonomy_groups = _subset_table(joint, metrics, n_joint)
    other = np.column_stack(
        (
            arrays.tool_per_task,
            arrays.delegation_per_task,
            arrays.orchestration_per_task,
            arrays.completed_with_autonomy,
        )
    )
    domain, _ = _labels(arrays.domain)
    done = np.nonzero((arrays.completed > 0.0) & (domain >= 0))[0]
    order = done[np.lexsort((-np.asarray(arrays.completion_order)[done], domain[done]))]
    return [
        ("draw", partial(draw_indices, n, b, config.uncertainty_seed)),
        ("counts", partial(draw_counts, indices, n)),
        ("terms", partial(np.matmul, counts, counted)),
        ("groups", partial(groups.__matmul__, by_task)),
        *((name, partial(table.__matmul__, by_task)) for name, table in partitions.items()),
        ("autonomy_groups", partial(autonomy_groups.__matmul__, by_task)),
        ("counted", partial(np.matmul, counts, other)),
        ("learning", lambda: np.cumsum(np.take(by_task, order, axis=0), axis=0)),
        ("itself", lambda: (by_task == 1.0).all(axis=0)),
    ]


def actual_steps(window: Any, config: Any, assessed: Any) -> list[tuple[str, Callable[[], Any]]]:
    """The bootstrap's own steps for one agent, as ``resampled_scores`` runs them."""
    from aaaf.scoring.capability_rows import CapabilityRows
    from aaaf.scoring.dimensions import CAPABILITY_ROWS
    from aaaf.scoring.resample_arrays import draw_counts, draw_indices, task_arrays, window_rows
    from aaaf.scoring.resample_groups import group_stats
    from aaaf.scoring.uncertainty import assessment_uncertainty, performance_scores

    arrays = task_arrays(window)
    n, b = arrays.n, config.uncertainty_resamples
    indices = draw_indices(n, b, config.uncertainty_seed)
    counts = draw_counts(indices, n)
    columns = np.arange(n, dtype=np.int64)
    whole = group_stats(counts, columns, arrays, config.consistency_min_group)

    shared = CapabilityRows(counts, arrays, config, whole)
    shared.tallies  # noqa: B018  (computed once, as one run computes it: its own step below)

    return [
        ("whole", partial(assessment_uncertainty, window, config, assessed)),
        ("task_arrays", partial(task_arrays, window)),
        ("draw", partial(draw_indices, n, b, config.uncertainty_seed)),
        ("counts", partial(draw_counts, indices, n)),
        ("group_stats", partial(group_stats, counts, columns, arrays, config.consistency_min_group)),
        ("itself", partial(window_rows, counts, arrays)),
        ("performance", partial(performance_scores, counts, columns, arrays, config, whole)),
        ("tallies", lambda: CapabilityRows(counts, arrays, config, whole).tallies),
        *((name, partial(formula, shared)) for name, formula in CAPABILITY_ROWS.complete().items()),
    ]


def in_situ(windows: list[tuple[Any, Any]], config: Any, repeats: int) -> tuple[float, dict[str, float]]:
    """CPU ms per agent of whole ``assessment_uncertainty`` runs, and of each step within them:
    the functions ``resampled_scores`` calls (their names in :mod:`aaaf.scoring.uncertainty`),
    the counted columns' product and each Capability formula, timed where the run calls them."""
    from unittest import mock

    from aaaf.scoring import uncertainty
    from aaaf.scoring.capability_rows import CapabilityRows
    from aaaf.scoring.dimensions import CAPABILITY_ROWS

    spent: dict[str, float] = {}
    inner: list[float] = []  # per timed call under way, the time of the timed calls inside it

    def timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            inner.append(0.0)
            try:
                return call(*args, **kwargs)
            finally:
                elapsed = time.process_time() - start
                spent[name] = spent.get(name, 0.0) + elapsed - inner.pop()  # its own time only
                if inner:
                    inner[-1] += elapsed

        return run

    steps = ("task_arrays", "draw_indices", "draw_counts", "group_stats", "window_rows", "performance_scores")
    formulas = CAPABILITY_ROWS.complete()
    tallies = CapabilityRows.tallies.fget
    assert tallies is not None
    with (
        mock.patch.multiple(uncertainty, **{name: timed(name, getattr(uncertainty, name)) for name in steps}),
        mock.patch.multiple(
            uncertainty,
            composite_rows=timed("composites", uncertainty.composite_rows),
            interval_report=timed("interval_report", uncertainty.interval_report),
        ),
        # the registry's own mapping (complete() returns the one it keeps), each formula timed
        mock.patch.dict(formulas, {name: timed(name, f) for name, f in formulas.items()}),  # type: ignore[arg-type]
        mock.patch.object(CapabilityRows, "tallies", property(timed("tallies", tallies))),
    ):
        start = time.process_time()
        for _ in range(repeats):
            for window, assessed in windows:
                uncertainty.assessment_uncertainty(window, config, assessed)
        whole = time.process_time() - start
    runs = repeats * len(windows)
    return whole * 1000 / runs, {name: value * 1000 / runs for name, value in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=7, help="runs of each step per agent (CPU mode)")
    parser.add_argument("--out", type=Path, help="callgrind's --callgrind-out-file: print each dump's totals")
    parser.add_argument("--in-situ", action="store_true", help="time the steps inside whole runs too")
    args = parser.parse_args()

    from threadpoolctl import threadpool_limits

    from aaaf.memory import keep_allocations
    from aaaf.scoring.defaults import AAAFConfig

    config = AAAFConfig()
    threadpool_limits(limits=1, user_api="blas")  # as bench_uncertainty and the service
    keep_allocations()
    windows = _windows(args.agents, 1000, config)
    plans = {
        "actual": [actual_steps(w, config, a) for w, a in windows],
        "floor": [floor_steps(w, config) for w, _ in windows],
    }
    for plan in (*plans["actual"], *plans["floor"]):  # lazy imports and first calls, uncounted
        for _, call in plan:
            call()
    cpu: dict[tuple[str, str], float] = {}
    names: list[tuple[str, str]] = []
    for kind, per_agent in plans.items():
        for at, (name, _) in enumerate(per_agent[0]):
            total = 0.0
            for plan in per_agent:
                call = plan[at][1]
                runs = []
                for _ in range(args.repeats):
                    _callgrind("-i", "on")
                    start = time.process_time()
                    call()
                    runs.append(time.process_time() - start)
                    _callgrind("-i", "off")
                total += statistics.median(runs)
            _callgrind(f"--dump={kind}-{name}")
            cpu[kind, name] = total * 1000 / len(windows)
            names.append((kind, name))
    counted = _dumped(args.out, len(names), len(windows) * args.repeats)
    for kind in plans:
        steps = [name for k, name in names if k == kind]
        parts = sum(cpu[kind, name] for name in steps if name != "whole")
        print(
            f"{kind}: {parts:.2f} ms CPU per agent in its steps" + _instructions(counted, names, kind, None)
        )
        for name in steps:
            print(f"  {name:24} {cpu[kind, name]:7.3f} ms" + _instructions(counted, names, kind, name))
        if kind == "actual":
            print(f"  {'rest':24} {cpu[kind, 'whole'] - parts:7.3f} ms (whole minus its steps)")
    if args.in_situ:
        whole, spent = in_situ(windows, config, args.repeats)
        print(f"in situ: {whole:.2f} ms CPU per agent, whole runs; each step within them")
        for name, value in spent.items():
            print(f"  {name:24} {value:7.3f} ms")
        print(f"  {'rest':24} {whole - sum(spent.values()):7.3f} ms (whole minus its steps)")


def _dumped(out: Path | None, dumps: int, runs: int) -> list[float] | None:
    """Each dump's instructions per agent run (``out``: callgrind's output file; its dumps are .1 …)."""
    if out is None:
        return None
    totals = []
    for number in range(1, dumps + 1):
        text = Path(f"{out}.{number}").read_text()
        line = next(line for line in text.splitlines() if line.startswith("totals:"))
        totals.append(int(line.split()[1]) / runs)
    return totals


def _instructions(
    counted: list[float] | None, names: list[tuple[str, str]], kind: str, name: str | None
) -> str:
    if counted is None:
        return ""
    if name is None:
        value = sum(c for (k, n), c in zip(names, counted, strict=True) if k == kind and n != "whole")
    else:
        value = counted[names.index((kind, name))]
    return f", {value / 1e6:7.2f} M instructions"


if __name__ == "__main__":
    main()
