"""The work of ``aaaf collect`` into SQLite, counted, not timed: one process, so that
``valgrind --tool=callgrind`` sees all of it, split into its phases.

The fleet is ``make bench``'s (benchmarks/synthetic.py), ``--agents`` × ``--events-per-agent``,
written once into ``--workdir`` (kept, and reused when it is there).  After a warm-up (a small
collect of another agent into the same fresh database: lazy imports, prepared statements), the
phases run one after the other:

* ``read``: the task log through ``read_jsonl`` alone;
* ``validate``: the same, each event validated (``validate_stream``), nothing stored;
* ``collect``: the whole ``collect`` into the fresh database (read, validate, warn, store):
  its storing is ``collect`` minus ``validate``, give or take the loop that joins them;

and prints the CPU seconds of each.  Under callgrind, with ``COUNT_COLLECT_CALLGRIND=1``, each
phase is dumped apart (``callgrind_control --dump``), the warm-up not counted::

    COUNT_COLLECT_CALLGRIND=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/collect.out python benchmarks/count_collect_work.py --agents 20

then ``grep totals /tmp/collect.out.N`` per dump (1 read, 2 validate, 3 collect).

Compare two versions with ``--repeatable-ids``: agent and event ids then come from a seeded
generator (in this process only).  With random ids, SQLite's index inserts fall elsewhere from
run to run: two collects of the same code and the same 20 000 events differed by 7.0 M
instructions (0.2 %; reading and validating by 6 000), and in another pair such noise hid a
real saving of 9 M whole; with the same ids, two runs of the same code agreed to 55
instructions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aaaf.evidence.collectors.task_logs import read_jsonl
from aaaf.evidence.validation import validate_stream
from aaaf.services.collect import collect
from aaaf.store import open_store
from callgrind import control
from run import NOW
from synthetic import write_fleet

_callgrind = partial(control, "COUNT_COLLECT_CALLGRIND")


def _repeatable_ids(seed: int) -> None:
    """Agent ids (``uuid.uuid4``) and the random digits of event ids (``os.urandom``) drawn from
    a seeded generator, for this process only (measurement, module docstring)."""
    draw = random.Random(seed)
    uuid.uuid4 = lambda: uuid.UUID(int=draw.getrandbits(128), version=4)
    os.urandom = draw.randbytes


def fleet_log(workdir: Path, agents: int, events_per_agent: int) -> Path:
    """The fleet's task log in ``workdir`` (written when missing)."""
    log = workdir / f"fleet-{agents}x{events_per_agent}.jsonl"
    if not log.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        writing = log.with_suffix(f".writing-{os.getpid()}")  # two counts may start at once
        write_fleet(writing, agents, events_per_agent, NOW)
        writing.rename(log)
    return log


def _warm_up_items(log: Path, count: int) -> Iterator[tuple[int, Any]]:
    """The first ``count`` events of ``log`` under another agent's name."""
    for index, (line, raw) in enumerate(read_jsonl(log)):
        if index == count:
            return
        yield line, {**raw, "agent": "warm-up-agent"}


def count(log: Path, workdir: Path, warm_up: int) -> dict[str, Any]:
    db = workdir / f"run-{os.getpid()}.db"
    try:
        store = open_store("sqlite:///" + str(db))
        org = store.scope(store.default_organization().id)
        collect(org, _warm_up_items(log, warm_up), now=NOW, enroll=True)
        cpu: dict[str, float] = {}
        _callgrind("-i", "on")
        started = time.process_time()
        for _ in read_jsonl(log):
            pass
        cpu["read"] = time.process_time() - started
        _callgrind("--dump=read")
        started = time.process_time()
        for _ in validate_stream(read_jsonl(log), now=NOW):
            pass
        cpu["validate"] = time.process_time() - started
        _callgrind("--dump=validate")
        started = time.process_time()
        report = collect(org, read_jsonl(log), now=NOW, enroll=True)
        cpu["collect"] = time.process_time() - started
        _callgrind("--dump=collect")
        _callgrind("-i", "off")
        store.close()
        return {
            "accepted": report.accepted,
            "rejected": report.rejected,
            "cpu_s": {name: round(value, 3) for name, value in cpu.items()},
        }
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--events-per-agent", type=int, default=1000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/aaaf-count-collect"))
    parser.add_argument("--warm-up", type=int, default=50, help="events collected before counting")
    parser.add_argument(
        "--repeatable-ids", action="store_true", help="seeded agent and event ids (module docstring)"
    )
    args = parser.parse_args()
    log = fleet_log(args.workdir, args.agents, args.events_per_agent)
    if args.repeatable_ids:
        _repeatable_ids(0)
    print(json.dumps(count(log, args.workdir, args.warm_up), indent=2))


if __name__ == "__main__":
    main()
