"""`make bench` (issue 15): the stress suite's wall time against the oracle reference agent,
with ``--parallel 1`` (the baseline) and ``--parallel 4`` measured in the same run, plus the
one-off cost of importing inspect_ai.  Nothing here asserts on time."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def run() -> dict[str, Any]:
    from aaaf.services.stress import run_stress_test
    from aaaf.store import open_store
    from aaaf.stress.runner import AgentSpec

    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import inspect_ai"], check=True)
    import_s = time.perf_counter() - started
    figures: dict[str, Any] = {"inspect_ai_import_s": round(import_s, 2)}
    agent = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents oracle")
    with tempfile.TemporaryDirectory(prefix="aaaf-bench-stress-") as tmp:
        store = open_store(f"sqlite:///{tmp}/aaaf.db")
        org = store.scope(store.default_organization().id)
        for parallel in (1, 4):
            began = time.perf_counter()
            stress_run, _ = run_stress_test(
                org, f"oracle-p{parallel}", agent, parallel=parallel, log_dir=Path(tmp) / "logs"
            )
            figures[f"suite_parallel_{parallel}_s"] = round(time.perf_counter() - began, 2)
            figures["tasks"] = stress_run.summary["tasks"]
            figures[f"accepted_parallel_{parallel}"] = stress_run.summary["statuses"].get("accepted", 0)
        store.close()
    figures["speedup_parallel_4_vs_1"] = round(
        figures["suite_parallel_1_s"] / figures["suite_parallel_4_s"], 2
    )
    figures["measured_at"] = datetime.now(UTC).isoformat()
    return figures


if __name__ == "__main__":
    print(run())
