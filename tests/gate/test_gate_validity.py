"""benchmarks/gate_validity.py simulates runs from recorded outcomes: each task's record is
taken whole from one recorded run — the wrong one with probability 0.15, the given-up one in
the broken domain — never mixed or invented.  (The figures themselves are `make validity`'s.)"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import numpy as np

from tests.gate.conftest import ROOT


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gate_validity_bench", ROOT / "benchmarks" / "gate_validity.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gate_validity_bench", module)
    spec.loader.exec_module(module)
    return module


def test_a_simulated_run_takes_whole_recorded_outcomes() -> None:
    gv = _module()
    tasks = [f"t{i:03d}" for i in range(400)]
    recorded = {run: {t: {"task_id": t, "run": run} for t in tasks} for run in ("right", "wrong", "broken")}
    domains = {t: ("code" if i % 8 == 0 else "other") for i, t in enumerate(tasks)}
    unchanged = gv.simulated_run(recorded, domains, np.random.default_rng(0))
    assert [r["task_id"] for r in unchanged] == tasks
    share = sum(r["run"] == "wrong" for r in unchanged) / len(tasks)
    assert abs(share - gv.WRONG_RATE) < 0.05 and not any(r["run"] == "broken" for r in unchanged)
    regressed = gv.simulated_run(recorded, domains, np.random.default_rng(0), broken="code")
    assert all((r["run"] == "broken") == (domains[r["task_id"]] == "code") for r in regressed)
    # the same seed draws the same run
    assert gv.simulated_run(recorded, domains, np.random.default_rng(0)) == unchanged
