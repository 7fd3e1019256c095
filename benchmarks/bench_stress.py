"""`make bench` (issue 15): the stress suite's wall time against the oracle reference agent,
with ``--parallel 1`` (the baseline) and ``--parallel 4`` measured in the same run, plus the
one-off cost of importing inspect_ai; and what the sandbox costs per tool call
(docs/stress-tests.md "Sandbox"): the same command through the bubblewrap sandbox, through
``--sandbox none`` and as a bare subprocess, in the same run.  Nothing here asserts on time."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CALLS = 40
COMMANDS = {"true": ["/bin/true"], "python": ["/usr/bin/python3", "-c", "pass"]}


async def _per_call_ms(call: Any, command: list[str]) -> float:
    """Median wall time of one call, in milliseconds (after one warm-up call)."""
    await call(command)
    times = []
    for _ in range(CALLS):
        began = time.perf_counter()
        await call(command)
        times.append(time.perf_counter() - began)
    return round(statistics.median(times) * 1000, 2)


async def _sandbox_costs() -> dict[str, Any]:
    from aaaf.stress.sandbox import choose_sandbox_by_name, open_sandbox

    async def bare(command: list[str]) -> None:
        process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        await process.communicate()

    figures: dict[str, Any] = {}
    for name, command in COMMANDS.items():
        figures[f"bare_subprocess_{name}_ms"] = await _per_call_ms(bare, command)
        for provider in ("none", "bubblewrap"):
            async with open_sandbox(choose_sandbox_by_name(provider)) as box:
                figures[f"{provider}_{name}_ms"] = await _per_call_ms(box.exec, command)
        figures[f"bubblewrap_{name}_vs_bare"] = round(
            figures[f"bubblewrap_{name}_ms"] / figures[f"bare_subprocess_{name}_ms"], 2
        )
    setups = []
    for _ in range(10):
        began = time.perf_counter()
        async with open_sandbox(choose_sandbox_by_name("bubblewrap")):
            pass
        setups.append(time.perf_counter() - began)
    figures["bubblewrap_setup_and_cleanup_per_task_ms"] = round(statistics.median(setups) * 1000, 2)
    return figures


def sandbox_cost() -> dict[str, Any]:
    """Per tool call: the bubblewrap sandbox, ``--sandbox none`` (prlimit on the host) and a
    bare subprocess of the same command; and the sandbox's set-up per task."""
    return asyncio.run(_sandbox_costs())


def run() -> dict[str, Any]:
    from aaaf.services.stress import run_stress_test
    from aaaf.store import open_store
    from aaaf.stress.runner import AgentSpec

    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import inspect_ai"], check=True)
    import_s = time.perf_counter() - started
    figures: dict[str, Any] = {"inspect_ai_import_s": round(import_s, 2), "sandbox": sandbox_cost()}
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
