"""The overview's count of tasks completed since each agent's last assessment
(:meth:`aaaf.store.agent_summaries.AgentSummaryRepository.completed_tasks_since_assessed`),
measured in counted work, not time: on SQLite the virtual-machine instructions its statements
run (``sqlite3``'s progress handler called at every instruction), on PostgreSQL the buffers they
touch (``EXPLAIN (ANALYZE, BUFFERS)``: shared hits plus reads), with and without the partial
index of completed tasks ``idx_events_completed_tasks`` (dropped, measured, re-created,
measured, in the same process), and the plan of each.  The two answers must be equal.

The fleet: ``--agents`` agents with ``--tasks`` tasks each, one every day back from now (a
task is four events: assigned, a tool call, a message, completed); all but one agent in six
were assessed ``--assessed-days-ago`` days ago (their summary says so), the others never.

    python benchmarks/bench_overview_due.py --url sqlite:////tmp/due.db
    python benchmarks/bench_overview_due.py --url postgresql+psycopg://postgres@127.0.0.1/aaaf_due
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, text

INDEX = "idx_events_completed_tasks"


def _seed(url: str, *, agents: int, tasks: int, assessed_days_ago: int, now: datetime) -> Any:
    from aaaf.services.keys import create_organization
    from aaaf.store import open_store
    from aaaf.store import tables as t
    from aaaf.store.event_partitions import PARTITIONS_QUERY, ensure_partitions
    from aaaf.store.tables_summary import agent_summaries

    store = open_store(url)
    organization, _ = create_organization(store, "due-bench", now=now)
    org = store.scope(organization.id)
    ids = [org.enroll_agent(f"agent-{n:05d}").id for n in range(agents)]
    with store.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            months = [now - timedelta(days=day) for day in range(tasks + 2)]
            ensure_partitions(connection, months, connection.exec_driver_sql(PARTITIONS_QUERY).scalars())
        for number, agent_id in enumerate(ids):
            rows = []
            for index in range(tasks):
                done = now - timedelta(days=index, hours=1)
                status = ("accepted", "accepted", "partial", "rejected")[index % 4]
                for kind, at in (
                    ("task_assigned", done - timedelta(hours=1)),
                    ("tool_call", done - timedelta(minutes=30)),
                    ("message", done - timedelta(minutes=10)),
                    ("task_completed", done),
                ):
                    data: dict[str, Any] = {"task_id": f"t{index}"}
                    if kind == "task_completed":
                        data["completion_status"] = status
                    rows.append(
                        {
                            "id": uuid.uuid4(),
                            "agent_id": agent_id,
                            "type": kind,
                            "task_id": f"t{index}",
                            "timestamp": at,
                            "data": data,
                            "created_at": now,
                        }
                    )
            connection.execute(t.events.insert(), rows)
            if number % 6:
                connection.execute(
                    agent_summaries.insert(),
                    {
                        "agent_id": agent_id,
                        "organization_id": organization.id,
                        "due_completed_at": now - timedelta(days=assessed_days_ago),
                    },
                )
        connection.exec_driver_sql("ANALYZE")
    return store, org


@contextmanager
def _statements(engine: Any) -> Iterator[list[tuple[str, Any]]]:
    seen: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def _work(store: Any, statements: list[tuple[str, Any]]) -> tuple[int, list[str]]:
    """The counted work of ``statements`` and their plans."""
    total, plans = 0, []
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0

    with store.engine.connect() as connection:
        raw = connection.connection.driver_connection
        if isinstance(raw, sqlite3.Connection):  # a connection of its own: no plan cached before
            raw = sqlite3.connect(str(store.engine.url.database))
        for statement, parameters in statements:
            if isinstance(raw, sqlite3.Connection):
                plan = raw.execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
                plans.append("; ".join(str(row[-1]) for row in plan))
                steps[0] = 0
                raw.set_progress_handler(step, 1)
                raw.execute(statement, parameters).fetchall()
                raw.set_progress_handler(None, 1)
                total += steps[0]
            else:
                cursor = raw.cursor()
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + statement, parameters)
                found = cursor.fetchone()[0]
                root = (found if isinstance(found, list) else json.loads(found))[0]["Plan"]
                total += int(root.get("Shared Hit Blocks", 0)) + int(root.get("Shared Read Blocks", 0))
                plans.append(_pg_nodes(root))
    return total, plans


def _pg_nodes(node: dict[str, Any]) -> str:
    name = node["Node Type"] + (f" {node['Index Name']}" if "Index Name" in node else "")
    inner = [_pg_nodes(child) for child in node.get("Plans", [])]
    return name + (f"({', '.join(inner)})" if inner else "")


def _measure(store: Any, org: Any, now: datetime) -> tuple[dict[uuid.UUID, int], int, list[str]]:
    with _statements(store.engine) as seen:
        counted = org.completed_tasks_since_assessed(fresh_since=now - timedelta(days=30))
    work, plans = _work(store, seen)
    return counted, work, plans


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--agents", type=int, default=120)
    parser.add_argument("--tasks", type=int, default=365)
    parser.add_argument("--assessed-days-ago", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    now = datetime.now(UTC).replace(microsecond=0)
    store, org = _seed(
        args.url, agents=args.agents, tasks=args.tasks, assessed_days_ago=args.assessed_days_ago, now=now
    )
    with store.engine.connect() as connection:
        definition = _index_definition(connection)
    figures: dict[str, list[int]] = {"with": [], "without": []}
    answers = []
    plans: dict[str, list[str]] = {}
    for _ in range(args.pairs):  # without, with, without, with, ...: both sides in the same minute
        for side in ("without", "with"):
            with store.engine.begin() as connection:
                if side == "without":
                    connection.execute(text(f"DROP INDEX {INDEX}"))
                else:
                    connection.execute(text(definition))
                    connection.exec_driver_sql("ANALYZE")
            counted, work, plans[side] = _measure(store, org, now)
            figures[side].append(work)
            answers.append(counted)
    assert all(answer == answers[0] for answer in answers), "the index changed the answer"
    unit = "VM instructions" if store.engine.dialect.name == "sqlite" else "buffers"
    print(f"{store.engine.dialect.name}: {args.agents} agents x {args.tasks} tasks, {unit}")
    for side in ("without", "with"):
        print(f"  {side:8} index: {figures[side]}  plan: {' | '.join(plans[side])}")
    ratio = min(figures["without"]) / max(1, min(figures["with"]))
    print(f"  ratio without/with: {ratio:.1f}; {sum(answers[0].values())} tasks counted")
    store.close()


def _index_definition(connection: Any) -> str:
    """The index as the schema creates it (read back from the database)."""
    if connection.dialect.name == "sqlite":
        return str(
            connection.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (INDEX,)
            ).scalar_one()
        )
    found = connection.execute(text("SELECT pg_get_indexdef(CAST(:name AS regclass))"), {"name": INDEX})
    # the partitioned table's own index is read back as ON ONLY: created so, it would not cascade
    return str(found.scalar_one()).replace(" ON ONLY ", " ON ")


if __name__ == "__main__":
    main()
