"""Dashboard render times: p50/p95 of the agent page for an agent with 100 assessments and of
the overview for fleets of 1 000 and 10 000 agents, beside ``GET /health`` (the trivial
endpoint) of the same ``aaaf serve``, in the same run, on SQLite and PostgreSQL.  Targets:
agent page p95 ≤ 150 ms; overview p95 ≤ 200 ms at 1 000 agents and ≤ 500 ms at 10 000 (the
overview reads the per-agent summaries, docs/scaling.md).  Nothing here asserts on time.

Each fleet is written straight through the services (``collect``, ``assess_all``) into a fresh
database before the server starts; requests are sequential, from one signed-in httpx client
(the browser's session cookie), after a warm-up request each; p95 is by nearest rank (the
19th of 20), the slowest request apart as ``max_ms``.  Beside the first page by name,
the third page sorted by change (the sort and the cut are the summaries', in SQL).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


def _task(agent_id: str, index: int) -> list[dict[str, Any]]:
    done = NOW - timedelta(hours=2 + 6 * index)
    start = done - timedelta(minutes=30)
    return [
        {
            "id": f"{agent_id}-t{index}-a",
            "agent_id": agent_id,
            "type": "task_assigned",
            "timestamp": start.isoformat(),
            "data": {
                "task_id": f"t{index}",
                "complexity_level": 1 + index % 3,
                "domain": ("code", "testing", "research")[index % 3],
                "assigned_at": start.isoformat(),
            },
        },
        {
            "id": f"{agent_id}-t{index}-c",
            "agent_id": agent_id,
            "type": "task_completed",
            "timestamp": done.isoformat(),
            "data": {
                "task_id": f"t{index}",
                "completion_status": "accepted" if index % 5 else "partial",
                "time_to_complete_seconds": 1800,
                "revision_count": int(index % 4 == 0),
                "errors": [],
                "review_checklist": {
                    "memory_search_performed": True,
                    "output_format_correct": True,
                    "verification_evidence_provided": index % 2 == 0,
                    "memory_written": True,
                },
            },
        },
    ]


def seed(database_url: str, *, agents: int, assessments: int, tasks: int) -> tuple[str, str]:
    """One organization: ``agents`` agents with ``tasks`` tasks each, assessed once, and one
    agent assessed ``assessments`` times.  Returns (key, the busy agent's id)."""
    from aaaf.services.assess import assess_agent, assess_all
    from aaaf.services.collect import collect
    from aaaf.services.keys import create_organization
    from aaaf.store import open_store

    store = open_store(database_url)
    try:
        organization, issued = create_organization(store, "bench-dashboard", now=NOW, config=SMALL_MINIMUMS)
        org = store.scope(organization.id)
        events: list[dict[str, Any]] = []
        for number in range(agents):
            agent = org.enroll_agent(f"agent-{number:04d}")
            for index in range(tasks):
                events += _task(str(agent.id), index)
        collect(org, list(enumerate(events, 1)), now=NOW)
        assess_all(org, now=NOW, uncertainty=False)
        busy = org.enroll_agent("busy-agent")
        collect(org, list(enumerate([e for i in range(tasks) for e in _task(str(busy.id), i)], 1)), now=NOW)
        for number in range(assessments):
            assess_agent(
                org,
                "busy-agent",
                now=NOW,
                window_end=NOW - timedelta(minutes=assessments - number),
                uncertainty=False,
            )
        return issued.secret, str(busy.id)
    finally:
        store.close()


def _signed_in(base: str, key: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=120)
    form = client.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token is not None
    answer = client.post("/sign-in", data={"csrf_token": token.group(1), "api_key": key, "next": "/"})
    assert answer.status_code in (200, 303), answer.text
    return client


def _timed(client: httpx.Client, path: str, repeat: int) -> dict[str, float]:
    assert client.get(path).status_code == 200, path  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, (path, answer.status_code)
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        # nearest rank: the 19th of 20 (``int(0.95 * 20)`` picked the 20th, the slowest, as p95)
        "p95_ms": round(times[math.ceil(0.95 * len(times)) - 1], 2),
        "max_ms": round(times[-1], 2),
        "requests": repeat,
    }


@contextmanager
def _database(dialect: str, tmp: Path) -> Iterator[str]:
    from bench_api import postgres_schema

    if dialect == "sqlite":
        yield f"sqlite:///{tmp / 'aaaf.db'}"
        return
    with postgres_schema() as url:
        yield url


def _fleet(dialect: str, agents: int, assessments: int, tasks: int, repeat: int) -> dict[str, Any]:
    """One fleet on one database: the overview and /health (and the busy agent's page when
    ``assessments``) timed against the same server."""
    from bench_api import serving

    with tempfile.TemporaryDirectory(prefix="aaaf-bench-dash-") as tmp, _database(dialect, Path(tmp)) as url:
        started = time.perf_counter()
        key, busy = seed(url, agents=agents, assessments=assessments, tasks=tasks)
        out: dict[str, Any] = {"agents": agents, "seed_s": round(time.perf_counter() - started, 1)}
        with serving(url, Path(tmp), workers=1) as base:
            client = _signed_in(base, key)
            try:
                if assessments:
                    out["agent_page"] = _timed(client, f"/agents/{busy}", repeat)
                out["overview"] = _timed(client, "/", repeat)
                out["overview_sorted_page_3"] = _timed(client, "/?sort=change&page=3", repeat)
                out["health"] = _timed(client, "/health", repeat)
            finally:
                client.close()
    return out


TARGETS = {1000: 200.0, 10000: 500.0}
"""Fleet size → the overview's p95 target in milliseconds."""
AGENT_PAGE_TARGET_MS = 150.0


def run(
    fleets: tuple[int, ...] = (1000, 10000),
    assessments: int = 100,
    tasks: int = 8,
    repeat: int = 20,
    dialects: tuple[str, ...] = ("sqlite", "postgresql"),
) -> dict[str, Any]:
    from bench_api import postgres_available

    results: dict[str, Any] = {"shape": {"assessments_of_agent": assessments, "tasks_per_agent": tasks}}
    targets: dict[str, bool] = {}
    for dialect in dialects:
        if dialect == "postgresql" and not postgres_available():
            results[dialect] = {"skipped": "PostgreSQL is not reachable"}
            continue
        rows = []
        for number, agents in enumerate(fleets):
            row = _fleet(dialect, agents, assessments if number == 0 else 0, tasks, repeat)
            print(dialect, json.dumps(row), file=sys.stderr, flush=True)  # each fleet as it is done
            rows.append(row)
            if agents in TARGETS:
                targets[f"{dialect} overview of {agents} p95_ms <= {TARGETS[agents]:.0f}"] = (
                    row["overview"]["p95_ms"] <= TARGETS[agents]
                )
            if "agent_page" in row:
                targets[f"{dialect} agent page p95_ms <= {AGENT_PAGE_TARGET_MS:.0f}"] = (
                    row["agent_page"]["p95_ms"] <= AGENT_PAGE_TARGET_MS
                )
        results[dialect] = rows
    results["targets"] = targets
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fleets", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--assessments", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--dialects", nargs="+", default=["sqlite", "postgresql"])
    args = parser.parse_args()
    result = run(tuple(args.fleets), args.assessments, repeat=args.repeat, dialects=tuple(args.dialects))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
