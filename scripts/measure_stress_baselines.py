"""Measure the oracle's time on every task of the standard stress library, for its time baselines.

Runs the oracle reference agent (``python -m aaaf.stress.reference_agents oracle``: the
reference solution replayed, the fastest an agent does the task's work) through the whole
library ``--runs`` times (default 5) in the bubblewrap sandbox, ``--parallel`` tasks at a time
(default 4, the CLI's default), and writes each task's median time (the agent's time: what
the baselines are compared with, docs/stress-tests.md "Speed") to
scripts/stress_baselines.json, with the conditions of the measurement.
scripts/make_stress_library.py turns them into the tasks' ``time_baseline_seconds``
(``BASELINE_FACTOR`` × median, rounded up to 0.5 s, at least ``BASELINE_FLOOR``).

Run: .venv/bin/python scripts/measure_stress_baselines.py, then
.venv/bin/python scripts/make_stress_library.py.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

OUT = Path(__file__).resolve().parent / "stress_baselines.json"


def measure(runs: int, parallel: int) -> dict[str, object]:
    from aaaf.evals.importers.inspect_stress import agent_seconds
    from aaaf.stress.runner import AgentSpec, run_suite
    from aaaf.stress.sandbox import choose_sandbox_by_name

    agent = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents oracle")
    times: dict[str, list[float]] = {}
    loads = []
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="aaaf-baselines-") as tmp:
        for run in range(runs):
            loads.append(os.getloadavg()[0])
            suite = run_suite(
                agent,
                parallel=parallel,
                log_dir=Path(tmp) / f"run{run}",
                sandbox=choose_sandbox_by_name("bubblewrap"),
            )
            for record in suite.records:
                if record.get("missing") or record["grade"]["status"] != "accepted":
                    raise SystemExit(f"the oracle did not solve {record['task_id']}: {record.get('failure')}")
                times.setdefault(record["task_id"], []).append(agent_seconds(record))
            print(f"run {run + 1}/{runs}: {len(suite.records)} tasks", file=sys.stderr)
    return {
        "method": (
            f"the oracle reference agent through the whole standard library {runs} times, {parallel} tasks at a "
            "time, in the bubblewrap sandbox; per task the median of its agent time (elapsed less provider waits)"
        ),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_at_each_run": [round(load, 2) for load in loads],
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "runs": runs,
        "parallel": parallel,
        "total_seconds": round(time.perf_counter() - began, 1),
        "median_seconds": {
            task: round(statistics.median(values), 3) for task, values in sorted(times.items())
        },
        "max_seconds": {task: round(max(values), 3) for task, values in sorted(times.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--parallel", type=int, default=4)
    args = parser.parse_args()
    figures = measure(args.runs, args.parallel)
    OUT.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    medians = list(figures["median_seconds"].values())  # type: ignore[union-attr]
    print(
        f"{len(medians)} tasks: median of medians {statistics.median(medians):.2f} s, "
        f"max {max(medians):.2f} s; written to {OUT}"
    )


if __name__ == "__main__":
    main()
