"""The demo fleet: a deterministic, realistic month of evidence for 32 AI agents.

``python -m aaaf.demo.fleet --output out/fleet.jsonl --now 2026-11-20T12:00:00Z [--agents 32] [--seed 7]``
writes

* ``out/fleet.jsonl`` — JSON Lines of evidence events, each naming its ``agent`` (the input of
  ``aaaf collect --source task_logs FILE --enroll``), sorted by timestamp within each agent;
* ``out/agents.json`` — the enrollment list ``[{name, domains, tools, description}]``.

Each agent has a *latent profile* (execution quality, speed, review discipline, the domains,
complexity levels and autonomy levels it works at, tool skill, delegation and orchestration
skill, whether it is a learner improving over the month).  Events are drawn from that profile
with ``numpy.random.default_rng`` seeded by ``(seed, agent index)``: same seed, same bytes, no
clock.  The profiles are tuned so that, assessed at ``window_end = now`` with the default
configuration (SCORING.md §2), the fleet shows every Performance tier, at least four
Capability tiers, and two agents below the minimum evidence (INSUFFICIENT_EVIDENCE).

The whole event vocabulary of document 004 §6.2 is used — ``task_assigned``,
``task_completed`` (accepted / partial with milestones / rejected / failed, revisions, errors
with severities, review checklists, cost and budget), ``task_revised``, ``tool_invoked``, the
rich ``task_completed`` with ``tools_used`` and ``delegation_decisions`` embedded,
``delegation_decision`` (with ``optimal_delegate``), ``delegation_outcome``,
``orchestration_plan`` / ``orchestration_result`` — plus the AAAF extension
``memory_operation`` (SCORING.md §1; a ``search`` passes the task's ``memory_search_performed``,
a ``write`` its ``memory_written``).

``--events-per-agent N --agents M`` is the benchmark mode: M synthetic agents with exactly N
events each, streamed to the file agent by agent so memory stays flat (1 000 × 1 000 events
for ``make bench``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from aaaf.demo.clock import demo_now
from aaaf.demo.fleet_benchmark import benchmark_agent_name, iter_benchmark_events, write_benchmark
from aaaf.demo.fleet_month import Fleet, generate_fleet, iso_seconds, parse_now, write_fleet
from aaaf.demo.fleet_profiles import (
    ALL_LEVELS,
    BASELINE_SECONDS,
    CHECKLIST,
    DAY,
    DEFAULT_AGENTS,
    DEFAULT_NOW,
    DEFAULT_SEED,
    DOMAINS,
    PROFILES,
    SEVERITIES,
    WINDOW_DAYS,
    AgentProfile,
    fleet_profiles,
)

# The fleet is split into its profiles, the month drawn from them and the benchmark
# mode; this module is the command and re-exports every name.
__all__ = [
    "ALL_LEVELS",
    "BASELINE_SECONDS",
    "CHECKLIST",
    "DAY",
    "DEFAULT_AGENTS",
    "DEFAULT_NOW",
    "DEFAULT_SEED",
    "DOMAINS",
    "PROFILES",
    "SEVERITIES",
    "WINDOW_DAYS",
    "AgentProfile",
    "Fleet",
    "benchmark_agent_name",
    "fleet_profiles",
    "generate_fleet",
    "iso_seconds",
    "iter_benchmark_events",
    "main",
    "parse_now",
    "write_benchmark",
    "write_fleet",
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m aaaf.demo.fleet",
        description="Write the demo fleet's evidence (JSON Lines) and enrollment list, deterministically.",
    )
    parser.add_argument("--output", required=True, type=Path, help="JSON Lines file of events to write.")
    parser.add_argument(
        "--now", default=demo_now(), help="The window's end (default: now, or AAAF_DEMO_NOW)."
    )
    parser.add_argument(
        "--agents", type=int, default=None, help=f"Number of agents (default {DEFAULT_AGENTS})."
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"Random seed (default {DEFAULT_SEED})."
    )
    parser.add_argument(
        "--events-per-agent",
        type=int,
        default=None,
        help="Benchmark mode: exactly N synthetic events per agent.",
    )
    parser.add_argument(
        "--enrollment",
        type=Path,
        default=None,
        help="Where to write the enrollment list (default: agents.json beside --output).",
    )
    parser.add_argument(
        "--only",
        default=None,
        help="Comma-separated agent names: write only these agents of the fleet (events and enrollment).",
    )
    args = parser.parse_args(argv)
    try:
        now = parse_now(args.now)
    except ValueError as error:
        parser.error(str(error))
    if args.events_per_agent is not None:
        count, enrollment = write_benchmark(
            args.output,
            now,
            agents=args.agents or 1000,
            events_per_agent=args.events_per_agent,
            seed=args.seed,
            enrollment_path=args.enrollment,
        )
    else:
        count, enrollment = write_fleet(
            args.output,
            now,
            agents=args.agents or DEFAULT_AGENTS,
            seed=args.seed,
            enrollment_path=args.enrollment,
            only=[name.strip() for name in args.only.split(",") if name.strip()] if args.only else None,
        )
    sys.stdout.write(f"wrote {count} events to {args.output} and the enrollment list to {enrollment}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
