"""A synthetic fleet for `make bench`: N agents × M events, streamed to JSON Lines.

Deterministic (seeded), no clock.  Each task yields task_assigned, task_completed and a few
tool_invoked events, with an occasional task_revised / delegation_decision, so the engine does
the work of every dimension.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from aaaf.scoring.defaults import DEFAULT_TAXONOMY

DOMAINS = DEFAULT_TAXONOMY
TOOLS = ("bash", "grep", "web_search", "file_read", "file_write")
BASELINES = {1: 600, 2: 3600, 3: 14400, 4: 43200, 5: 86400}


def agent_events(
    agent: str, events_per_agent: int, now: datetime, rng: random.Random
) -> Iterator[dict[str, Any]]:
    produced = 0
    task_number = 0
    while produced < events_per_agent:
        task_number += 1
        task_id = f"{agent}-t{task_number}"
        level = rng.randint(1, 5)
        domain = rng.choice(DOMAINS)
        completed_at = now - timedelta(seconds=rng.randint(60, 29 * 86400))
        duration = BASELINES[level] * rng.uniform(0.3, 2.2)
        assigned_at = completed_at - timedelta(seconds=duration)
        batch: list[dict[str, Any]] = [
            {
                "agent": agent,
                "id": f"{task_id}-a",
                "type": "task_assigned",
                "timestamp": assigned_at.isoformat(),
                "data": {
                    "task_id": task_id,
                    "complexity_level": level,
                    "domain": domain,
                    "assigned_at": assigned_at.isoformat(),
                    "autonomy_level": rng.randint(0, 3),
                },
            },
            {
                "agent": agent,
                "id": f"{task_id}-c",
                "type": "task_completed",
                "timestamp": completed_at.isoformat(),
                "data": {
                    "task_id": task_id,
                    "completion_status": rng.choices(
                        ("accepted", "partial", "rejected", "failed"), (70, 15, 10, 5)
                    )[0],
                    "milestone_fraction": round(rng.random(), 3),
                    "time_to_complete_seconds": round(duration, 1),
                    "revision_count": rng.choice((0, 0, 0, 1)),
                    "errors": [{"severity": rng.choice(("critical", "major", "minor"))}]
                    if rng.random() < 0.2
                    else [],
                    "review_checklist": {
                        "memory_search_performed": rng.random() < 0.8,
                        "output_format_correct": rng.random() < 0.9,
                        "verification_evidence_provided": rng.random() < 0.7,
                        "memory_written": rng.random() < 0.6,
                    },
                    "cost_usd": round(rng.uniform(0.01, 2.0), 3),
                    "budget_usd": 2.0,
                },
            },
        ]
        for k in range(3):
            batch.append(
                {
                    "agent": agent,
                    "id": f"{task_id}-u{k}",
                    "type": "tool_invoked",
                    "timestamp": (assigned_at + timedelta(seconds=k + 1)).isoformat(),
                    "data": {
                        "task_id": task_id,
                        "tool": rng.choice(TOOLS),
                        "success": rng.random() < 0.9,
                        "unnecessary": rng.random() < 0.1,
                        "error_recovered": rng.random() < 0.5,
                    },
                }
            )
        if rng.random() < 0.3:
            decision = rng.choice(("self", "delegate"))
            batch.append(
                {
                    "agent": agent,
                    "id": f"{task_id}-d",
                    "type": "delegation_decision",
                    "timestamp": assigned_at.isoformat(),
                    "data": {
                        "task_id": task_id,
                        "task_fragment": "part",
                        "decision": decision,
                        "delegate_to": "helper" if decision == "delegate" else None,
                        "ground_truth": rng.choice(("self", "delegate")),
                    },
                }
            )
        yield from batch[: events_per_agent - produced]
        produced += min(len(batch), events_per_agent - produced)


def write_fleet(path: Path, agents: int, events_per_agent: int, now: datetime, seed: int = 0) -> int:
    rng = random.Random(seed)
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for a in range(agents):
            for event in agent_events(f"agent-{a:04d}", events_per_agent, now, rng):
                handle.write(json.dumps(event, separators=(",", ":")))
                handle.write("\n")
                count += 1
    return count
