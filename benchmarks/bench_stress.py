"""`make bench`: the stress library against the reference agents (docs/stress-tests.md "The
reference agents' spread"), each scored on its run's stress evidence alone
(``stress_test_only``): oracle, heuristic, careless and random through the subprocess adapter,
and the heuristic brain behind the loopback reference model in chaos mode (30 % of turns,
seed 0) through the chat-completions adapter.  The oracle runs twice (``--parallel 1`` and
``4``, its wall times the suite's cost) and the heuristic agent twice: a deterministic agent's
dimension scores must not depend on the run nor on its scheduling.  The targets are checked
and reported (``targets``), not asserted; so are the sandbox's costs per tool call (the same
command through bubblewrap, ``--sandbox none`` and a bare subprocess) and the one-off import
of inspect_ai.  Nothing here asserts on time."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

CALLS = 40
COMMANDS = {"true": ["/bin/true"], "python": ["/usr/bin/python3", "-c", "pass"]}
ORDER = ("oracle", "heuristic", "careless", "random")
CHAOS, CHAOS_SEED = 0.3, 0


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


def _scores(org: Any, name: str) -> dict[str, Any]:
    from aaaf.services.assess import assess_agent

    result = assess_agent(
        org, name, now=datetime.now(UTC) + timedelta(seconds=1), assessment_type="stress_test_only"
    ).result
    out: dict[str, Any] = {}
    for axis in ("performance", "capability"):
        out[axis] = result[axis]["composite_score"]
        out[f"{axis}_dimensions"] = {k: v["score"] for k, v in result[axis]["dimensions"].items()}
    completed = result["performance"]["dimensions"]["accuracy"]["sample_size"]
    out["completed_tasks"] = completed
    return out


def _agent_run(org: Any, name: str, spec: Any, parallel: int, logs: Path) -> dict[str, Any]:
    from aaaf.services.stress import run_stress_test

    began = time.perf_counter()
    run, _ = run_stress_test(org, name, spec, parallel=parallel, log_dir=logs)
    figures = {
        "wall_s": round(time.perf_counter() - began, 1),
        "parallel": parallel,
        "statuses": run.summary["statuses"],
        "infrastructure_failed": run.summary["infrastructure_failed"]["tasks"],
        "provider_retries": run.summary["provider_retries"],
    }
    return figures | _scores(org, name)


def _dimensions(figures: dict[str, Any]) -> dict[str, Any]:
    return {**figures["performance_dimensions"], **figures["capability_dimensions"]}


def _targets(agents: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The spread the stress library is built for, read off the runs."""
    targets: dict[str, Any] = {}
    for axis in ("performance", "capability"):
        values = [agents[name][axis] for name in ORDER]
        targets[f"order_on_{axis}"] = all(a > b for a, b in pairwise(values))
    gap = agents["oracle"]["capability"] - agents["careless"]["capability"]
    targets["careless_capability_below_oracle_by"] = round(gap, 3)
    targets["careless_gap_at_least_0.2"] = gap >= 0.2
    oracle, careless = _dimensions(agents["oracle"]), _dimensions(agents["careless"])
    targets["dimensions_equal_for_oracle_and_careless"] = sorted(
        d for d in oracle if oracle[d] == careless[d] or (oracle[d] is not None and careless[d] is not None and abs(oracle[d] - careless[d]) < 1e-9)
    )  # fmt: skip
    for name, again in (("heuristic", "heuristic_again"), ("oracle", "oracle_parallel_1")):
        first, second = _dimensions(agents[name]), _dimensions(agents[again])
        targets[f"{name}_two_runs_differ_in"] = sorted(d for d in first if first[d] != second[d])
    return targets


def run() -> dict[str, Any]:
    from aaaf.store import open_store
    from aaaf.stress.reference_model import serve
    from aaaf.stress.runner import AgentSpec

    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import inspect_ai"], check=True)
    import_s = time.perf_counter() - started
    figures: dict[str, Any] = {"inspect_ai_import_s": round(import_s, 2), "sandbox": sandbox_cost()}
    agents: dict[str, dict[str, Any]] = {}

    def reference(kind: str) -> Any:
        return AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents {kind}")

    with tempfile.TemporaryDirectory(prefix="aaaf-bench-stress-") as tmp:
        store = open_store(f"sqlite:///{tmp}/aaaf.db")
        org = store.scope(store.default_organization().id)
        logs = Path(tmp) / "logs"
        agents["oracle_parallel_1"] = _agent_run(org, "oracle-p1", reference("oracle"), 1, logs)
        for name in ORDER:
            # careless dawdles (it waits, it does not compute): more of it at a time
            agents[name] = _agent_run(org, name, reference(name), 8 if name == "careless" else 4, logs)
        agents["heuristic_again"] = _agent_run(org, "heuristic-again", reference("heuristic"), 4, logs)
        with serve(chaos=CHAOS, seed=CHAOS_SEED) as (url, model):
            agents["chaos_model"] = _agent_run(org, "chaos", AgentSpec(url=url, model="heuristic"), 4, logs)
            agents["chaos_model"]["injected"] = dict(sorted(model.injected.items()))
            agents["chaos_model"]["turns"] = model.turns
        store.close()
    tasks = sum(agents["oracle"]["statuses"].values())
    figures["tasks"] = tasks
    figures["suite_parallel_1_s"] = agents["oracle_parallel_1"]["wall_s"]
    figures["suite_parallel_4_s"] = agents["oracle"]["wall_s"]
    figures["speedup_parallel_4_vs_1"] = round(
        figures["suite_parallel_1_s"] / figures["suite_parallel_4_s"], 2
    )
    figures["agents"] = agents
    figures["targets"] = _targets(agents)
    figures["measured_at"] = datetime.now(UTC).isoformat()
    return figures


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1))
