"""`make bench`, the uncertainty part (issue 12, SCORING.md §2.5): what the bootstrap of an
assessment costs beside the plain assessment, per 1 000-event agent, in the same process.

Each synthetic agent (benchmarks/synthetic.py, the fleet ``make bench`` assesses) is scored
by the pure engine twice — ``assess(..., uncertainty=False)`` (the plain assessment: fold,
window, twelve dimensions) and ``assess(..., uncertainty=True)`` (the same plus B = 1 000
resamples of both axes) — and the median times are reported with their ratio (target ≤ 3), as
wall-clock and as this process's CPU time (on a shared machine the CPU figure is the steadier).
Nothing here asserts on time.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime
from typing import Any

from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from synthetic import agent_events

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def records(raw: list[dict[str, Any]]) -> list[EventRecord]:
    out = []
    for i, event in enumerate(raw):
        data = event["data"]
        task_id = data.get("task_id")
        out.append(
            EventRecord(
                id=event.get("id") or f"e{i}",
                agent=event["agent"],
                type=event["type"],
                timestamp=datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00")),
                data=data,
                task_id=task_id if isinstance(task_id, str) else None,
                key=event.get("id"),
            )
        )
    return out


def run(agents: int = 10, events_per_agent: int = 1000, repeats: int = 3) -> dict[str, Any]:
    config = AAAFConfig()
    rng = random.Random(0)
    plain: list[float] = []
    with_uncertainty: list[float] = []
    plain_cpu: list[float] = []
    with_cpu: list[float] = []
    tasks: list[int] = []
    import numpy  # noqa: F401  (the engine imports it lazily; threadpoolctl limits only loaded libraries)
    from threadpoolctl import threadpool_limits

    from aaaf.memory import keep_allocations

    limits = threadpool_limits(limits=1, user_api="blas")  # as the service scores (one BLAS thread)
    keep_allocations()  # and with the allocator's thresholds it sets for resampling runs
    for index in range(agents):
        events = records(list(agent_events(f"bench-{index}", events_per_agent, NOW, rng)))
        for _ in range(repeats):
            start, cpu = time.perf_counter(), time.process_time()
            aaaf_scheme.assess(events, config, NOW, enforce_minimums=False, uncertainty=False)
            plain.append(time.perf_counter() - start)
            plain_cpu.append(time.process_time() - cpu)
            start, cpu = time.perf_counter(), time.process_time()
            result = aaaf_scheme.assess(events, config, NOW, enforce_minimums=False, uncertainty=True)
            with_uncertainty.append(time.perf_counter() - start)
            with_cpu.append(time.process_time() - cpu)
        tasks.append(int(result.evidence_summary["window_tasks"]))
    limits.restore_original_limits()
    plain_ms = statistics.median(plain) * 1000
    full_ms = statistics.median(with_uncertainty) * 1000
    plain_cpu_ms = statistics.median(plain_cpu) * 1000
    full_cpu_ms = statistics.median(with_cpu) * 1000
    return {
        "agents": agents,
        "events_per_agent": events_per_agent,
        "window_tasks_median": statistics.median(tasks),
        "resamples": config.uncertainty_resamples,
        "plain_assess_ms": round(plain_ms, 2),
        "assess_with_uncertainty_ms": round(full_ms, 2),
        "uncertainty_ms": round(full_ms - plain_ms, 2),
        "with_vs_plain": round(full_ms / plain_ms, 2),
        "plain_assess_cpu_ms": round(plain_cpu_ms, 2),
        "assess_with_uncertainty_cpu_ms": round(full_cpu_ms, 2),
        "with_vs_plain_cpu": round(full_cpu_ms / plain_cpu_ms, 2),
        "target_with_vs_plain_le_3": full_ms / plain_ms <= 3,
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
