"""The demo fleet's benchmark mode: M synthetic agents × exactly N events, streamed.

Part of :mod:`aaaf.demo.fleet` (``--events-per-agent N --agents M``): written agent by agent
so memory stays flat (1 000 × 1 000 events for ``make bench``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from aaaf.demo.fleet_month import event_line, iso_seconds
from aaaf.demo.fleet_profiles import BASELINE_SECONDS, CHECKLIST, DAY, DEFAULT_SEED, DOMAINS, WINDOW_DAYS

# ---------------------------------------------------------------------------------------------
# benchmark mode: M agents × N events, streamed
# ---------------------------------------------------------------------------------------------

_BENCH_TOOLS = ("bash", "grep", "web_search", "file_read", "file_write")
_BENCH_STATUSES = ("accepted", "accepted", "accepted", "partial", "rejected", "failed")


def benchmark_agent_name(index: int) -> str:
    return f"bench-agent-{index + 1:05d}"


def iter_benchmark_events(
    agent_index: int, events_per_agent: int, now: datetime, seed: int
) -> Iterator[dict[str, Any]]:
    """Exactly ``events_per_agent`` events for one synthetic agent, in timestamp order.

    Tasks of five events (task_assigned, 3 × tool_invoked, task_completed) spread over the
    30-day window; a final short task fills the remainder so the count is exact.
    """
    rng = np.random.default_rng([seed, 1_000_003, agent_index])
    name = benchmark_agent_name(agent_index)
    now_s = int(now.timestamp())
    per_task = 5
    tasks = max(1, math.ceil(events_per_agent / per_task))
    spacing = (WINDOW_DAYS * DAY - 7_200) // tasks
    # drawn as arrays once, then as plain lists (numpy scalar indexing is slow in a loop)
    levels = rng.integers(1, 4, size=tasks).tolist()
    domains = rng.integers(0, len(DOMAINS), size=tasks).tolist()
    statuses = rng.integers(0, len(_BENCH_STATUSES), size=tasks).tolist()
    ratios = np.exp(rng.normal(0.0, 0.3, size=tasks)).tolist()
    tool_choice = rng.integers(0, len(_BENCH_TOOLS), size=(tasks, 3)).tolist()
    tool_success = (rng.random(size=(tasks, 3)) < 0.85).tolist()
    checklist_pass = (rng.random(size=(tasks, 4)) < 0.8).tolist()
    emitted = 0
    start = now_s - WINDOW_DAYS * DAY + 3_600
    for t in range(tasks):
        remaining = events_per_agent - emitted
        if remaining <= 0:
            return
        level = levels[t]
        seconds = max(30, min(spacing - 120, int(BASELINE_SECONDS[level] * ratios[t])))
        assigned = start + t * spacing
        completed = assigned + seconds
        task_id = f"{name}-t{t + 1:05d}"
        # keep both ends of a task when the remainder is short: assigned, tools..., completed
        n_tools = min(3, max(0, remaining - 2))
        with_pair = remaining >= 2
        if with_pair:
            yield {
                "id": f"{task_id}:assigned",
                "agent": name,
                "type": "task_assigned",
                "timestamp": iso_seconds(assigned),
                "data": {
                    "task_id": task_id,
                    "complexity_level": level,
                    "domain": DOMAINS[int(domains[t])],
                    "assigned_at": iso_seconds(assigned),
                    "autonomy_level": 1 + level % 3,
                },
            }
            emitted += 1
        for c in range(n_tools if with_pair else remaining):
            success = bool(tool_success[t][c])
            yield {
                "id": f"{task_id}:tool{c + 1}",
                "agent": name,
                "type": "tool_invoked",
                "timestamp": iso_seconds(assigned + (c + 1) * max(1, seconds // 4)),
                "data": {
                    "task_id": task_id,
                    "tool": _BENCH_TOOLS[int(tool_choice[t][c])],
                    "success": success,
                    "unnecessary": c == 2 and not success,
                    "error_recovered": not success and c == 0,
                },
            }
            emitted += 1
        if with_pair:
            status = _BENCH_STATUSES[int(statuses[t])]
            data: dict[str, Any] = {
                "task_id": task_id,
                "completion_status": status,
                "time_to_complete_seconds": seconds,
                "revision_count": int(status == "partial"),
                "errors": [{"severity": "minor"}] if status == "partial" else [],
                "review_checklist": {item: bool(checklist_pass[t][i]) for i, item in enumerate(CHECKLIST)},
            }
            if status == "partial":
                data["milestone_fraction"] = 0.5
            yield {
                "id": f"{task_id}:completed",
                "agent": name,
                "type": "task_completed",
                "timestamp": iso_seconds(completed),
                "data": data,
            }
            emitted += 1


def write_benchmark(
    output: Path,
    now: datetime,
    *,
    agents: int,
    events_per_agent: int,
    seed: int = DEFAULT_SEED,
    enrollment_path: Path | None = None,
) -> tuple[int, Path]:
    """Stream M × N events to ``output`` agent by agent (memory stays flat)."""
    if events_per_agent < 1:
        raise ValueError("--events-per-agent must be at least 1")
    output.parent.mkdir(parents=True, exist_ok=True)
    total = 0
    with output.open("wb") as handle:
        for index in range(agents):
            chunk = b"".join(
                event_line(event) for event in iter_benchmark_events(index, events_per_agent, now, seed)
            )
            handle.write(chunk)
            total += events_per_agent
    enrollment_path = enrollment_path or output.parent / "agents.json"
    enrollment = [
        {
            "name": benchmark_agent_name(i),
            "domains": list(DOMAINS[:3]),
            "tools": list(_BENCH_TOOLS),
            "description": "benchmark agent",
        }
        for i in range(agents)
    ]
    enrollment_path.write_text(json.dumps(enrollment, indent=2) + "\n", encoding="utf-8")
    return total, enrollment_path
