"""The CLI's start-up cost (`make bench` row "cli_start"): CPU seconds (user + system, of the child
process) of `aaaf --help`, `aaaf agents --help` and `aaaf agents` on an empty database, each beside
`python -c pass` measured in the same run (the interpreter's own start, the floor).

Targets: `aaaf --help` and `aaaf agents --help` ≤ 0.35 s of CPU, `aaaf agents` on an empty
database ≤ 0.6 s.  CPU, not wall time: on a busy 2-core machine wall time measures the
neighbours.  Each figure is the median of REPEATS runs.  `tests/cli/test_lazy_cli.py` checks
what `--help` imports; this only measures.

    .venv/bin/python benchmarks/bench_cli_start.py
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPEATS = 7
TARGETS = {"aaaf --help": 0.35, "aaaf agents --help": 0.35, "aaaf agents (empty database)": 0.6}


def _cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=120
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run() -> dict[str, object]:
    aaaf = str(Path(sys.executable).with_name("aaaf"))
    with tempfile.TemporaryDirectory(prefix="aaaf-cli-start-") as tmp:
        db = str(Path(tmp) / "empty.db")
        env = {k: v for k, v in os.environ.items() if not k.startswith("AAAF_")}
        subprocess.run([aaaf, "db", "upgrade", "--db", db], env=env, capture_output=True, check=True)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "aaaf --help": [aaaf, "--help"],
            "aaaf agents --help": [aaaf, "agents", "--help"],
            "aaaf agents (empty database)": [aaaf, "agents", "--db", db],
        }
        for command in commands.values():  # warm the file cache and the bytecode once
            subprocess.run(command, env=env, capture_output=True)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(REPEATS):  # interleaved, so a busy moment hits every row alike
            for name, command in commands.items():
                samples[name].append(_cpu_seconds(command, env))
    medians = {name: round(statistics.median(values), 3) for name, values in samples.items()}
    return {
        "cpu_s_median": medians,
        "repeats": REPEATS,
        "targets": {f"{name} <= {limit}": medians[name] <= limit for name, limit in TARGETS.items()},
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
