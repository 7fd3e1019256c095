"""Insert rate of ``OrgStore.add_events`` against plain ``sqlite3`` executemany of the same rows.

Not a test (no assertion on time, DESIGN.md): run it to print figures and the ratio,
measured in the same process on the same machine::

    .venv/bin/python tests/store/bench_add_events.py [--events 100000]

Both sides write into a freshly migrated database file (same table, same indexes).  The
baseline gets its rows already converted to what SQLite stores (hex UUIDs, timestamp
text, JSON text) and does one ``executemany`` in one transaction: the cheapest way the
same rows (the same time-ordered ids included) can get into the same table.
``add_events`` is timed end to end, from event objects to commit, once with idempotency
keys and once without.  Each side runs ``--repeat`` times, alternating; the best run of
each is compared (the machine may be shared).
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from aaaf.store import open_store
from aaaf.store.event_writer import new_event_ids


@dataclass(frozen=True)
class BenchEvent:
    agent: str
    type: str
    timestamp: datetime
    data: dict[str, Any]
    task_id: str | None
    key: str | None


def make_events(count: int, *, keyed: bool) -> list[BenchEvent]:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    events = []
    for index in range(count):
        task_id = f"task-{index:07d}"
        events.append(
            BenchEvent(
                agent="bench",
                type="task_completed",
                timestamp=start + timedelta(seconds=17 * index),
                data={
                    "task_id": task_id,
                    "completion_status": "accepted" if index % 5 else "partial",
                    "milestone_fraction": 0.75,
                    "time_to_complete_seconds": 600 + index % 3600,
                    "revision_count": index % 3,
                    "errors": [{"severity": "minor"}] if index % 7 == 0 else [],
                    "domain": "code",
                    "complexity_level": 1 + index % 5,
                },
                task_id=task_id,
                key=f"event-{index:07d}" if keyed else None,
            )
        )
    return events


def time_add_events(directory: Path, events: list[BenchEvent]) -> float:
    with open_store(f"sqlite:///{directory / 'store.db'}") as store:
        org = store.scope(store.default_organization().id)
        agent = org.enroll_agent("bench")
        items = [(agent.id, event) for event in events]
        began = time.perf_counter()
        flags = org.add_events(items)
        elapsed = time.perf_counter() - began
        assert all(flags) and org.count_events(agent.id) == len(events)
    return elapsed


def time_plain_sqlite(directory: Path, events: list[BenchEvent]) -> float:
    path = directory / "plain.db"
    with open_store(f"sqlite:///{path}") as store:  # the same migrated schema
        org = store.scope(store.default_organization().id)
        agent_hex = org.enroll_agent("bench").id.hex
    ids = new_event_ids(len(events))  # the ids add_events would give: time-ordered UUIDv7
    rows = [
        (
            event_id.hex,
            agent_hex,
            event.type,
            event.task_id,
            event.key,
            event.timestamp.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"),
            orjson.dumps(event.data).decode(),
        )
        for event_id, event in zip(ids, events, strict=True)
    ]
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    began = time.perf_counter()
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(
        'INSERT INTO events (id, agent_id, type, task_id, idempotency_key, "timestamp", data) '
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    connection.execute("COMMIT")
    elapsed = time.perf_counter() - began
    connection.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side; the best is reported")
    args = parser.parse_args()
    for keyed in (True, False):
        events = make_events(args.events, keyed=keyed)
        baseline_runs, store_runs = [], []
        for _ in range(args.repeat):  # alternate, so that load on the machine hits both sides
            with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
                baseline_runs.append(time_plain_sqlite(Path(first), events))
                store_runs.append(time_add_events(Path(second), events))
        baseline, store = min(baseline_runs), min(store_runs)
        label = "with idempotency keys" if keyed else "without keys"
        print(
            f"{args.events} events {label}: plain sqlite3 {args.events / baseline:,.0f}/s ({baseline:.2f} s), "
            f"add_events {args.events / store:,.0f}/s ({store:.2f} s), ratio {baseline / store:.0%}"
        )


if __name__ == "__main__":
    main()
