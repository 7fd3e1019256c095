"""The work of ``aaaf assess --all`` on SQLite, counted, not timed: one process (no helpers),
so that ``valgrind --tool=callgrind`` sees all of it, split into its phases.

The fleet is ``make bench``'s (benchmarks/synthetic.py), ``--agents`` × ``--events-per-agent``,
collected once into ``--workdir`` (kept, and reused when it is there).  Each run copies that
database, warms up on its first ``--warm-up`` agents (lazy imports, prepared statements), then
runs the phases of an organization-wide run over all the agents, one after the other:

* ``raw_scan``: the floor ``make bench`` compares with (benchmarks/run.py ``raw_scan``: a plain
  SELECT of the same rows, their JSON decoded);
* ``read``: every agent's events through the helpers' event source (``SqliteEventSource``);
* ``score``: the pure engine and what each agent sends back (``_score_loaded``);
* ``keep_write``: the main process's part, its rows prepared and written in one transaction
  (``whole``: ``assess_all`` itself, with ``workers=1``, which reads and scores again:
  ``keep_write`` is ``whole`` minus the two phases above);

and prints the CPU seconds of each.  Under callgrind, with ``COUNT_ASSESS_CALLGRIND=1``,
each phase is dumped apart (``callgrind_control --dump``), the warm-up not counted::

    COUNT_ASSESS_CALLGRIND=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/assess.out python benchmarks/count_assess_work.py --agents 50

then ``grep totals /tmp/assess.out.N`` per dump (1 the raw scan, 2 read, 3 score, 4 the whole
run; a fixed hash seed keeps set orders, and so the counts, the same from run to run).  The
records the read phase made are freed uncounted before the whole run (which frees its own).
``--uncertainty`` runs the default (§2.5 intervals) instead of ``--no-uncertainty``.

``--steps`` then splits the score phase into its steps, each run over every agent's events
again, the fleet's agents all scoring (dumps 5 fold, 6 window, 7 window and dimensions, 8 the
engine's whole ``assess``, 9 rows, 10 provenance):

* ``fold``: the events folded into tasks (``fold_evidence``);
* ``window``: the tasks placed and weighted in the window (``window_evidence``);
* ``dimensions``: the twelve dimensions over that window (``dimension_scores`` minus ``window``);
* ``result``: the rest of the engine's ``assess`` (the axes' composites, the evidence summary,
  the audit, the bootstrap with ``--uncertainty``: ``assess`` minus the three above);
* ``rows``: what an agent's score sends back (``_plain``: the result's dict, its dimension rows,
  composites and packed trace);
* ``provenance``: where the scored evidence came from (``recorded_sources``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aaaf.evidence.collectors.task_logs import read_jsonl
from aaaf.memory import gc_paused
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.aaaf import dimension_scores
from aaaf.scoring.aaaf_window import window_evidence
from aaaf.scoring.defaults import AXES
from aaaf.scoring.evidence_sources import recorded_sources
from aaaf.scoring.fold import fold_evidence
from aaaf.services.assess import assess_all, assess_many, with_uncertainty_option
from aaaf.services.assess_parallel import _plain, _score_loaded
from aaaf.services.collect import collect
from aaaf.services.provenance import runs_by_agent
from aaaf.store import open_store
from aaaf.store.sqlite_events import SqliteEventSource
from callgrind import control
from run import NOW, raw_scan
from synthetic import write_fleet

_callgrind = partial(control, "COUNT_ASSESS_CALLGRIND")


def fleet_database(workdir: Path, agents: int, events_per_agent: int) -> Path:
    """The collected fleet's database in ``workdir`` (built when missing)."""
    db = workdir / f"fleet-{agents}x{events_per_agent}.db"
    if not db.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        log = workdir / f"fleet-{agents}x{events_per_agent}.jsonl"
        write_fleet(log, agents, events_per_agent, NOW)
        building = db.with_suffix(".building")
        store = open_store("sqlite:///" + str(building))
        org = store.scope(store.default_organization().id)
        collect(org, read_jsonl(log), now=NOW, enroll=True)
        store.close()
        building.rename(db)
        log.unlink()
    return db


def count(db: Path, *, uncertainty: bool, warm_up: int, steps: bool = False) -> dict[str, Any]:
    copy = db.with_name(f"run-{os.getpid()}.db")
    shutil.copyfile(db, copy)
    try:
        store = open_store("sqlite:///" + str(copy))
        org = store.scope(store.default_organization().id)
        agents = org.agents()
        ids = [agent.id for agent in agents]
        config = with_uncertainty_option(org.config(), uncertainty)
        runs = runs_by_agent(org)
        source = SqliteEventSource(str(copy), timeout=30.0)
        # warm-up: lazy imports, prepared statements (those agents get a previous assessment)
        _score_loaded(
            source.events_for_agents(ids[:warm_up]), ids[:warm_up], config, NOW, "passive_only", None, runs
        )
        assess_many(org, agents[:warm_up], now=NOW, uncertainty=uncertainty, workers=1)
        raw_scan(copy)
        cpu: dict[str, float] = {}
        with gc_paused():  # as an organization-wide run reads and scores (assess_many)
            _callgrind("-i", "on")
            started = time.process_time()
            raw_scan(copy)
            cpu["raw_scan"] = time.process_time() - started
            _callgrind("--dump=raw_scan")
            started = time.process_time()
            events = source.events_for_agents(ids)
            cpu["read"] = time.process_time() - started
            _callgrind("--dump=read")
            started = time.process_time()
            _score_loaded(events, ids, config, NOW, "passive_only", None, runs)
            cpu["score"] = time.process_time() - started
            _callgrind("--dump=score")
            _callgrind("-i", "off")
        source.close()
        if not steps:
            del events
        _callgrind("-i", "on")
        started = time.process_time()
        outcomes = assess_all(org, now=NOW, uncertainty=uncertainty, workers=1)
        cpu["whole"] = time.process_time() - started
        _callgrind("--dump=whole")
        _callgrind("-i", "off")
        cpu["keep_write"] = cpu["whole"] - cpu["read"] - cpu["score"]
        if steps:
            cpu.update(_score_steps([events[agent_id] for agent_id in ids], config))
        store.close()
        assessed = sum(1 for outcome in outcomes if outcome.assessment is not None)
        return {
            "agents": len(ids),
            "assessed": assessed,
            "cpu_s": {name: round(value, 3) for name, value in cpu.items()},
            "whole_vs_raw_scan": round(cpu["whole"] / cpu["raw_scan"], 3),
        }
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(copy) + suffix).unlink(missing_ok=True)


def _score_steps(events: list[Any], config: Any) -> dict[str, float]:
    """The CPU seconds of the score phase's steps (module docstring), each over every agent."""
    names = [name for axis in AXES.values() for name in axis]
    start = NOW - timedelta(days=config.window_days)
    cpu: dict[str, float] = {}
    with gc_paused():
        _callgrind("-i", "on")
        started = time.process_time()
        folded = [fold_evidence(agent_events) for agent_events in events]
        cpu["step_fold"] = time.process_time() - started
        _callgrind("--dump=fold")
        started = time.process_time()
        for agent in folded:
            window_evidence(agent, config, NOW)
        cpu["step_window"] = time.process_time() - started
        _callgrind("--dump=window")
        started = time.process_time()
        for agent in folded:
            dimension_scores(agent, config, NOW, names)
        cpu["step_dimensions"] = time.process_time() - started - cpu["step_window"]
        _callgrind("--dump=window_dimensions")
        started = time.process_time()
        results = [
            aaaf_scheme.assess(agent_events, config, NOW, assessment_type="passive_only")
            for agent_events in events
        ]
        whole = time.process_time() - started
        cpu["step_result"] = whole - cpu["step_fold"] - cpu["step_window"] - cpu["step_dimensions"]
        _callgrind("--dump=assess")
        started = time.process_time()
        for result in results:
            _plain(result)
        cpu["step_rows"] = time.process_time() - started
        _callgrind("--dump=rows")
        started = time.process_time()
        for agent_events, result in zip(events, results, strict=True):
            recorded_sources(agent_events, start, NOW, result=result, harness_runs=frozenset())
        cpu["step_provenance"] = time.process_time() - started
        _callgrind("--dump=provenance")
        _callgrind("-i", "off")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--events-per-agent", type=int, default=1000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/aaaf-count-assess"))
    parser.add_argument("--warm-up", type=int, default=5)
    parser.add_argument("--uncertainty", action="store_true", help="the default run (§2.5 intervals)")
    parser.add_argument("--steps", action="store_true", help="then the score phase's steps, one by one")
    args = parser.parse_args()
    db = fleet_database(args.workdir, args.agents, args.events_per_agent)
    print(
        json.dumps(count(db, uncertainty=args.uncertainty, warm_up=args.warm_up, steps=args.steps), indent=2)
    )


if __name__ == "__main__":
    main()
