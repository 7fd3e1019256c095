"""`make validity` (and `make bench`): the agent gate's validity, measured in this process.

Two questions, each over ``--replications`` (40) independent baseline/candidate pairs:

* **An unchanged stochastic agent** — the same agent that answers wrong on 15 % of the
  tasks, at random, on both sides — how often does it pass the default gate
  (``regress,tier-drop``), ``regress,tier-drop,inconclusive`` and the strict gate
  (``regress,tier-drop,inconclusive,any-layer-regress``)?  Target: ≥ 95 %.
* **A real regression** — the same agent, but the candidate gives up on every task of one
  domain (no work, no answer, as when that domain's tools broke) — how often does each gate
  fail it?  Target: ≥ 95 %.  Measured for each ``--broken-domain`` (default: ``code``, 10 of
  the 126 tasks, and ``analysis``, 29): how large a share of the suite a broken domain is
  decides whether a per-domain exact test can see it at all (``k`` tasks all lost give a
  McNemar p of 2·½ᵏ, against a Bonferroni family of some 25 checks).

Method: running the 126-task suite 160 times would take over two hours, so the runs are
*simulated from recorded task outcomes*.  The suite is run for real twice, through the
harness (sandbox, graders, importer) with ``benchmarks/wrong_answers_agent.py``: with every
answer right (the oracle), with every answer wrong (the same work, a wrong final answer)
and giving up on every task.  A simulated run takes, task by task, the wrong run's record
with probability 0.15, else the right run's — and in the broken domain the given-up
run's — each task's grade, milestones, tool calls and time as the harness recorded them.  Each run is
then stored as a stress run of its own and goes through the gate's own code: the evidence
recorded (:func:`aaaf.services.stress.record_stress_evidence`), the candidate assessed
``stress_test_only`` and compared with its baseline
(:func:`aaaf.services.gate_agent.gate_stress_run`: the paired bootstrap, 2 000 resamples,
the task flips), in a SQLite store.  The baseline of each pair is the first gate of a
fresh agent (SOLO, so it becomes the baseline); the candidate is the second.

Beside each figure: the rules of before (the axis interval from the two stored intervals,
dimensions against a fixed 0.10, no EQUIVALENT verdict), on the very same assessments.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent
AGENT = ROOT / "wrong_answers_agent.py"
WRONG_RATE = 0.15
BROKEN_DOMAINS = ("code", "analysis")
GATES: Mapping[str, str] = {
    "default": "regress,tier-drop",
    "inconclusive": "regress,tier-drop,inconclusive",
    "strict": "regress,tier-drop,inconclusive,any-layer-regress",
}


def record_runs(org: Any, workdir: Path, *, parallel: int = 4) -> dict[str, dict[str, dict[str, Any]]]:
    """Run the suite for real three times (every answer right, every answer wrong, giving up
    on every task): run → task id → record."""
    from aaaf.services.stress import run_stress_test
    from aaaf.stress.runner import AgentSpec

    recorded: dict[str, dict[str, dict[str, Any]]] = {}
    for name, options in (("right", ""), ("wrong", "--rate 1"), ("broken", "--domain all")):
        spec = AgentSpec(command=f"{sys.executable} {AGENT} {options}")
        _, records = run_stress_test(
            org, f"recorded-{name}", spec, parallel=parallel, log_dir=workdir / f"logs-{name}"
        )
        recorded[name] = {str(r["task_id"]): r for r in records}
    return recorded


def simulated_run(
    recorded: Mapping[str, Mapping[str, Mapping[str, Any]]],
    domains: Mapping[str, str],
    rng: np.random.Generator,
    *,
    broken: str | None = None,
) -> list[dict[str, Any]]:
    """One run of the stochastic agent: each task's wrong record with probability 0.15, else
    its right record, and the given-up record in the ``broken`` domain; tasks in id order."""
    tasks = sorted(recorded["right"])
    wrong = rng.random(len(tasks)) < WRONG_RATE
    return [
        dict(recorded["broken" if domains[task] == broken else "wrong" if wrong[i] else "right"][task])
        for i, task in enumerate(tasks)
    ]


def _stored_run(org: Any, agent_name: str, library: Any, records: list[dict[str, Any]]) -> tuple[Any, Any]:
    from aaaf.services.stress import record_stress_evidence, start_stress_run
    from aaaf.stress.runner import AgentSpec

    run, _ = start_stress_run(org, agent_name, AgentSpec(command=f"simulated {agent_name}"))
    run, _ = record_stress_evidence(org, run, library, records, log_path="simulated")
    return run, org.get_agent(agent_name)


def _before(result: Any) -> Any:
    """The rules of before on the same assessments: stored intervals, a fixed 0.10, no EQUIVALENT."""
    from aaaf.services.gate import GateVerdict, decide_agent

    old = decide_agent(result.extra["baseline_json"], result.extra["candidate_json"], result.fail_on)
    return replace(old, verdict=GateVerdict.NOISE) if old.verdict is GateVerdict.EQUIVALENT else old


def replicate(
    org: Any, library: Any, recorded: Any, domains: Mapping[str, str], *, seed: int, broken: str | None
) -> tuple[Any, Any]:
    """One baseline/candidate pair through the gate: (the gate's result, the rules of before's)."""
    from aaaf.services.assess import assessment_json
    from aaaf.services.gate import parse_fail_on, with_extra
    from aaaf.services.gate_agent import gate_stress_run
    from aaaf.services.gate_baselines import find_baseline

    rng = np.random.default_rng(seed)
    name = f"agent-{'regressed' if broken else 'unchanged'}-{seed}"
    now = datetime.now(UTC)
    fail_on = parse_fail_on(GATES["strict"])
    run, agent = _stored_run(org, name, library, simulated_run(recorded, domains, rng))
    gate_stress_run(org, agent, run, None, fail_on=fail_on, now=now)
    baseline = find_baseline(org, agent, now=now)
    run, agent = _stored_run(org, name, library, simulated_run(recorded, domains, rng, broken=broken))
    result, candidate = gate_stress_run(org, agent, run, baseline, fail_on=fail_on, now=now)
    both = with_extra(
        result, {"baseline_json": assessment_json(baseline), "candidate_json": assessment_json(candidate)}
    )
    return result, _before(both)


def _shares(results: Sequence[Any]) -> dict[str, Any]:
    from aaaf.services.gate import failing_conditions, parse_fail_on

    n = len(results)
    verdicts = Counter(r.verdict.value for r in results)
    passed = {
        gate: sum(1 for r in results if not failing_conditions(r.verdict, r.checks, parse_fail_on(text))) / n
        for gate, text in GATES.items()
    }
    return {"verdicts": dict(sorted(verdicts.items())), "passed": passed}


def _widths(results: Sequence[Any]) -> dict[str, float]:
    """Mean width of each axis's 90 % equivalence interval (what the margin must exceed, halved)."""
    widths: dict[str, list[float]] = {}
    for result in results:
        for check in result.checks:
            if check.group == "axis" and check.equivalence is not None:
                widths.setdefault(check.name, []).append(check.equivalence[1] - check.equivalence[0])
    return {axis: round(float(np.mean(values)), 4) for axis, values in widths.items()}


def run(
    replications: int = 40,
    *,
    parallel: int = 4,
    recorded_path: Path | None = None,
    broken_domains: Sequence[str] = BROKEN_DOMAINS,
) -> dict[str, Any]:
    """The figures; ``recorded_path``: read the recorded outcomes from this JSON file when it
    exists, else record them and write them there (to re-run the simulation alone)."""
    from aaaf.store.store import open_store
    from aaaf.stress.library import load_library

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="aaaf-gate-validity-") as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'gate.db'}")
        try:
            org = store.scope(store.default_organization().id)
            if recorded_path is not None and recorded_path.exists():
                recorded = json.loads(recorded_path.read_text(encoding="utf-8"))
            else:
                recorded = record_runs(org, Path(tmp), parallel=parallel)
                if recorded_path is not None:
                    recorded_path.write_text(json.dumps(recorded), encoding="utf-8")
            recording_s = time.perf_counter() - start
            library = load_library([])
            domains = {loaded.task.id: loaded.task.domain for loaded in library.tasks}
            figures: dict[str, Any] = {
                "replications": replications,
                "tasks": len(recorded["right"]),
                "wrong_rate": WRONG_RATE,
                "broken_domains": {
                    domain: sum(1 for task in recorded["right"] if domains[task] == domain)
                    for domain in broken_domains
                },
                "recorded": {
                    name: dict(Counter(r["grade"]["status"] for r in records.values()))
                    for name, records in recorded.items()
                },
                "gates": dict(GATES),
            }
            scenarios = [("unchanged", None)] + [(f"regressed:{d}", d) for d in broken_domains]
            for scenario, broken in scenarios:
                pairs = [
                    replicate(
                        org, library, recorded, domains, seed=1000 * (broken is not None) + i, broken=broken
                    )
                    for i in range(replications)
                ]
                now = [gate for gate, _ in pairs]
                figures[scenario] = {
                    "gate": _shares(now),
                    "before": _shares([old for _, old in pairs]),
                    "equivalence_interval_width": _widths(now),
                    "tasks_lost_mean": round(float(np.mean([len(g.flips.lost) for g in now if g.flips])), 2),
                }
        finally:
            store.close()
    figures["recording_s"] = round(recording_s, 1)
    figures["seconds"] = round(time.perf_counter() - start, 1)
    return figures


def _pct(value: float) -> str:
    return f"{100.0 * value:5.1f} %"


def render(results: Mapping[str, Any]) -> str:
    lines = [
        f"Agent gate validity — {results['replications']} simulated pairs per scenario, from recorded "
        f"outcomes of the {results['tasks']}-task suite ({results['recording_s']:.0f} s to record, "
        f"{results['seconds']:.0f} s in all)",
        f"unchanged: {100 * results['wrong_rate']:.0f} % random wrong answers on both sides; regressed:DOMAIN: "
        "the candidate also gives up on every task of DOMAIN ("
        + ", ".join(f"{domain}: {n} tasks" for domain, n in results["broken_domains"].items())
        + ")",
        "",
        f"  {'scenario':<20} {'gate':<13} {'pass (now)':>11} {'pass (before)':>14}",
    ]
    scenarios = ["unchanged"] + [f"regressed:{domain}" for domain in results["broken_domains"]]
    for scenario in scenarios:
        block = results[scenario]
        for gate in results["gates"]:
            lines.append(
                f"  {scenario:<20} {gate:<13} {_pct(block['gate']['passed'][gate]):>11} "
                f"{_pct(block['before']['passed'][gate]):>14}"
            )
    for scenario in scenarios:
        block = results[scenario]
        lines.append(
            f"  {scenario} verdicts now {block['gate']['verdicts']}, before {block['before']['verdicts']}; "
            f"90 % interval widths {block['equivalence_interval_width']}; tasks lost (mean) "
            f"{block['tasks_lost_mean']}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=40)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--recorded",
        type=Path,
        default=None,
        help="keep the recorded outcomes in this JSON file (reused when present)",
    )
    parser.add_argument(
        "--broken-domain",
        action="append",
        default=None,
        help=f"the domain the regressed candidate gives up on (repeatable; default {', '.join(BROKEN_DOMAINS)})",
    )
    args = parser.parse_args()
    results = run(
        args.replications,
        parallel=args.parallel,
        recorded_path=args.recorded,
        broken_domains=tuple(args.broken_domain or BROKEN_DOMAINS),
    )
    print(json.dumps(results, indent=2) if args.json else render(results))


if __name__ == "__main__":
    main()
