"""The §2.5 bootstrap of an assessment (docs/scoring.md §2.5), counted, not timed: bench_uncertainty's
agents (benchmarks/bench_uncertainty.py, the same seed and events), each window scored once, then
``assessment_uncertainty`` run on every agent with counting switched on around the call only::

    COUNT_UNCERTAINTY_CALLGRIND=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/uncertainty.out python benchmarks/count_uncertainty_work.py

then ``grep totals /tmp/uncertainty.out`` ÷ ``--agents`` is the bootstrap's instructions per agent
(the first agent is run once uncounted before, for the lazy imports).  Without callgrind it
prints the CPU milliseconds per agent (a figure to compare only in alternating pairs).

``--save FILE`` pickles every agent's reports and resampled scores (each axis's composite and
dimension scores, :func:`aaaf.scoring.uncertainty.resampled_scores`); ``--compare A B`` then says
whether two such files are bit-identical (old and new code: run with ``PYTHONPATH`` at each tree).
``--peak`` prints the traced peak memory of one bootstrap of a ``--events``-event agent (run it
with ``--events 10000`` for the worst case).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aaaf.scoring import aaaf as engine
from aaaf.scoring.defaults import AAAFConfig
from bench_uncertainty import NOW, records
from callgrind import control
from synthetic import agent_events

_VARIABLE = "COUNT_UNCERTAINTY_CALLGRIND"


def _windows(agents: int, events_per_agent: int, config: AAAFConfig) -> list[tuple[Any, dict[str, Any]]]:
    """Each agent's window and its assessed scores, as ``assess`` hands them to the bootstrap."""
    rng = random.Random(0)  # as bench_uncertainty.run
    out = []
    for index in range(agents):
        events = records(list(agent_events(f"bench-{index}", events_per_agent, NOW, rng)))
        result = engine.assess(events, config, NOW, enforce_minimums=False, uncertainty=False)
        window = engine.window_evidence(engine.fold_evidence(events), config, NOW)
        assessed = {
            axis: {name: d.score for name, d in result.axis(axis).dimensions.items()}  # type: ignore[union-attr]
            for axis in ("performance", "capability")
        }
        out.append((window, assessed))
    return out


def _identical(old: dict[str, Any], new: dict[str, Any]) -> bool:
    if old["reports"] != new["reports"] or len(old["scores"]) != len(new["scores"]):
        return False
    for before, after in zip(old["scores"], new["scores"], strict=True):
        if before.keys() != after.keys():
            return False
        for axis, (composite, dimensions) in before.items():
            other_composite, other_dimensions = after[axis]
            if (
                composite.tobytes() != other_composite.tobytes()
                or dimensions.keys() != other_dimensions.keys()
            ):
                return False
            if any(dimensions[name].tobytes() != other_dimensions[name].tobytes() for name in dimensions):
                return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--events", type=int, default=1000, help="events per agent")
    parser.add_argument("--save", type=Path, help="pickle every report and resampled score here")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("OLD", "NEW"))
    parser.add_argument("--peak", action="store_true", help="traced peak memory of one bootstrap")
    args = parser.parse_args()
    if args.compare:
        old, new = (pickle.loads(path.read_bytes()) for path in args.compare)
        same = _identical(old, new)
        print("bit-identical" if same else "DIFFERENT")
        sys.exit(0 if same else 1)

    import numpy  # noqa: F401  (threadpoolctl limits only loaded libraries)
    from threadpoolctl import threadpool_limits

    from aaaf.memory import keep_allocations
    from aaaf.scoring.uncertainty import assessment_uncertainty, resampled_scores

    config = AAAFConfig()
    threadpool_limits(limits=1, user_api="blas")  # as bench_uncertainty and the service
    keep_allocations()
    windows = _windows(1 if args.peak else args.agents, args.events, config)
    assessment_uncertainty(windows[0][0], config, windows[0][1])  # lazy imports, uncounted
    if args.peak:
        tracemalloc.start()
        assessment_uncertainty(windows[0][0], config, windows[0][1])
        peak = tracemalloc.get_traced_memory()[1]
        print(f"{len(windows[0][0].scored)} window tasks: traced peak {peak / 2**20:.1f} MiB")
        return
    reports = []
    cpu = time.process_time()
    for window, assessed in windows:
        control(_VARIABLE, "-i", "on")
        reports.append(assessment_uncertainty(window, config, assessed))
        control(_VARIABLE, "-i", "off")
    cpu = time.process_time() - cpu
    print(f"{len(windows)} agents: {cpu * 1000 / len(windows):.2f} ms CPU per agent (bootstrap alone)")
    if args.save:
        scores = [resampled_scores(w, config, a, assessed_window=True) for w, a in windows]
        args.save.write_bytes(pickle.dumps({"reports": reports, "scores": scores}))


if __name__ == "__main__":
    main()
