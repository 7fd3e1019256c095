"""Sample workflow runs for `make demo`: 12 agents × 120 runs, seeded, no clock.

``python -m aaaf.demo.workflow --output runs.jsonl [--definitions DIR] [--now ...] [--seed 0]``
writes JSON Lines of ``workflow_run`` events (``agent``, ``type``, ``timestamp``, ``data``)
that ``aaaf collect --source task_logs runs.jsonl --enroll`` accepts, and optionally the
workflow definition files the runs name.  The spread is chosen so the demo shows every
clause of SCORING.md §5 at work: 120 runs per agent so each window keeps only the last
100; one agent improves late (its window forgets a poor start); three agents strong
enough to hit the 15 % cap; one weak agent whose runs mostly fail the success gate.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aaaf.demo.clock import demo_now

DEFAULT_NOW = "2026-11-20T12:00:00Z"
RUNS_PER_AGENT = 120
RUN_SPACING = timedelta(hours=1)

#: The sample workflows: (name, steps as (id, depends_on, retry_count, timeout_seconds)).
SAMPLE_WORKFLOWS: dict[str, list[tuple[str, list[str], int, float]]] = {
    "etl-nightly": [
        ("extract", [], 2, 60.0),
        ("clean", ["extract"], 1, 30.0),
        ("enrich", ["clean"], 0, 45.0),
        ("load", ["enrich"], 1, 30.0),
    ],
    "research-brief": [
        ("plan", [], 0, 20.0),
        ("search", ["plan"], 2, 90.0),
        ("read", ["search"], 1, 120.0),
        ("outline", ["plan"], 0, 30.0),
        ("draft", ["read", "outline"], 1, 180.0),
        ("review", ["draft"], 0, 60.0),
    ],
    "support-triage": [
        ("classify", [], 1, 10.0),
        ("lookup", ["classify"], 2, 20.0),
        ("reply", ["lookup"], 0, 30.0),
    ],
}


@dataclass(frozen=True)
class Profile:
    """How an agent tends to run: quality, completion, spend, speed, retry habits."""

    name: str
    quality: float  # mean output quality
    completion: float  # probability a run completes every step
    cost_fraction: float  # mean actual_cost / max_budget
    latency_fraction: float  # mean actual_seconds / max_latency_seconds
    extra_retries: float  # mean retries beyond the declared budget
    failure_rate: float  # probability of one hard failure / timeout
    early_quality: float | None = None  # quality of the first 20 runs, if different


PROFILES: tuple[Profile, ...] = (
    Profile("wf-atlas", 0.97, 0.99, 0.25, 0.30, 0.0, 0.01),
    Profile("wf-borealis", 0.95, 0.98, 0.35, 0.35, 0.1, 0.02),
    Profile("wf-cygnus", 0.94, 0.97, 0.30, 0.45, 0.2, 0.03),
    Profile("wf-draco", 0.70, 0.60, 0.60, 0.60, 0.8, 0.15),
    Profile("wf-eridanus", 0.62, 0.55, 0.70, 0.70, 1.0, 0.20),
    Profile("wf-fornax", 0.55, 0.50, 0.80, 0.75, 1.2, 0.25),
    Profile("wf-grus", 0.50, 0.45, 0.85, 0.80, 1.5, 0.30),
    Profile("wf-hydra", 0.48, 0.40, 0.90, 0.85, 1.5, 0.35),
    Profile("wf-indus", 0.45, 0.40, 0.90, 0.90, 2.0, 0.40),
    Profile("wf-lyra", 0.40, 0.35, 0.95, 0.95, 2.0, 0.45),
    Profile("wf-mensa", 0.85, 0.80, 0.55, 0.55, 0.5, 0.10, early_quality=0.15),
    Profile("wf-norma", 0.12, 0.20, 1.10, 1.20, 3.0, 0.80),
)


def definition_document(name: str) -> dict[str, Any]:
    """A workflow definition file's JSON (aaaf.evidence.workflow_definition format)."""
    return {
        "name": name,
        "steps": [
            {
                "id": step_id,
                "depends_on": depends_on,
                "error_handling": {"retry_count": retry_count},
                "timeout_seconds": timeout,
            }
            for step_id, depends_on, retry_count, timeout in SAMPLE_WORKFLOWS[name]
        ],
    }


def _clamp(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def _run(rng: random.Random, profile: Profile, index: int, workflow: str) -> dict[str, Any]:
    steps = SAMPLE_WORKFLOWS[workflow]
    dag_steps = len(steps)
    budget = sum(retry for _, _, retry, _ in steps)
    quality_mean = (
        profile.early_quality if profile.early_quality is not None and index < 20 else profile.quality
    )
    completes = rng.random() < profile.completion
    steps_completed = dag_steps if completes else rng.randrange(0, dag_steps)
    failed = rng.random() < profile.failure_rate
    max_budget = round(rng.uniform(0.5, 2.0), 3)
    max_latency = float(rng.choice((60, 120, 300, 600)))
    extra = round(rng.expovariate(1.0 / profile.extra_retries)) if profile.extra_retries > 0 else 0
    return {
        "task_id": f"bench-{index:04d}",
        "miner": profile.name,
        "workflow": workflow,
        "dag_steps": dag_steps,
        "steps_completed": steps_completed,
        "output_quality": round(_clamp(rng.gauss(quality_mean, 0.05), 0.0, 1.0), 4),
        "actual_cost": round(max_budget * _clamp(rng.gauss(profile.cost_fraction, 0.1), 0.0, 2.0), 4),
        "max_budget": max_budget,
        "actual_seconds": round(max_latency * _clamp(rng.gauss(profile.latency_fraction, 0.1), 0.0, 2.0), 2),
        "max_latency_seconds": max_latency,
        "declared_retry_budget": budget,
        "actual_retries": rng.randrange(0, budget + 1) + extra,
        "timeouts": 1 if failed and rng.random() < 0.5 else 0,
        "hard_failures": 1 if failed and not completes else 0,
    }


def sample_events(
    *, now: datetime, seed: int = 0, runs_per_agent: int = RUNS_PER_AGENT
) -> list[dict[str, Any]]:
    """The demo's events, oldest first; the newest run is one hour before ``now``."""
    rng = random.Random(seed)
    names = sorted(SAMPLE_WORKFLOWS)
    events: list[dict[str, Any]] = []
    for agent_index, profile in enumerate(PROFILES):
        for index in range(runs_per_agent):
            workflow = names[(index + agent_index) % len(names)]
            stamp = now - RUN_SPACING * (runs_per_agent - index) + timedelta(minutes=agent_index)
            events.append(
                {
                    "id": f"{profile.name}-run-{index:04d}",
                    "agent": profile.name,
                    "type": "workflow_run",
                    "timestamp": stamp.astimezone(UTC).isoformat().replace("+00:00", "Z"),
                    "data": _run(rng, profile, index, workflow),
                }
            )
    events.sort(key=lambda event: (event["timestamp"], event["agent"]))
    return events


def write_sample(
    output: Path, *, now: datetime, seed: int = 0, definitions: Path | None = None
) -> tuple[int, int]:
    """Write the runs (and the definition files); returns (events, definition files)."""
    events = sample_events(now=now, seed=seed)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", encoding="utf-8") as handle:
        for event in events:
            handle.write(json.dumps(event, sort_keys=True) + "\n")
    written = 0
    if definitions is not None:
        definitions.mkdir(parents=True, exist_ok=True)
        for name in sorted(SAMPLE_WORKFLOWS):
            text = json.dumps(definition_document(name), indent=2, sort_keys=True) + "\n"
            (definitions / f"{name}.json").write_text(text, encoding="utf-8")
            written += 1
    return len(events), written


def _parse_now(text: str) -> datetime:
    stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m aaaf.demo.workflow", description="Write sample workflow_run events (seeded)."
    )
    parser.add_argument("--output", required=True, type=Path, help="JSON Lines file to write.")
    parser.add_argument(
        "--definitions", type=Path, default=None, help="Also write workflow definitions here."
    )
    parser.add_argument(
        "--now", default=demo_now(), help="The demo's clock (default: now, or AAAF_DEMO_NOW)."
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    events, files = write_sample(
        args.output, now=_parse_now(args.now), seed=args.seed, definitions=args.definitions
    )
    extra = f" and {files} workflow definitions to {args.definitions}" if files else ""
    print(f"wrote {events} workflow_run events to {args.output}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
