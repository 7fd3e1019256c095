"""The overview's count of tasks completed since each agent's last assessment
(``completed_tasks_since_assessed``) counts what the events say and reads the partial index of
counted tasks (migration 0026) on SQLite and PostgreSQL: its condition is written as the
index's predicate, so that each database's planner proves the one from the other."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from aaaf.services import assess as assess_service
from aaaf.services import dashboard_pages
from aaaf.services.collect import collect
from aaaf.services.keys import create_organization
from aaaf.store.counted_tasks import COUNTED_COMPLETIONS
from tests.api.conftest import agent_evidence
from tests.sql_statements import statements_with_parameters

SMALL = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}
INDEX = "idx_events_completed_tasks"


def _slow(org: Any, agents: list[Any], *, fresh_since: datetime) -> dict[Any, int]:
    """The count read the slow way: every completed-task event of each agent, after its
    latest completed assessment (or ``fresh_since``)."""
    events = org.events_for_agents([agent.id for agent in agents], types=["task_completed"])
    out = {}
    for agent in agents:
        latest = org.latest_completed_assessment(agent.id)
        since = fresh_since if latest is None else latest.completed_at
        tasks = {
            e.task_id
            for e in events[agent.id]
            if e.timestamp > since and e.data.get("completion_status") in COUNTED_COMPLETIONS
        }
        if tasks:
            out[agent.id] = len(tasks)
    return out


def _plans(org: Any, statements: list[tuple[str, Any]]) -> list[str]:
    """What each statement's plan reads, as the database names it (index names)."""
    out = []
    with org.engine.connect() as connection:
        raw = connection.connection.driver_connection
        if connection.dialect.name == "sqlite":
            for statement, parameters in statements:
                plan = raw.execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
                out.append(" ".join(str(row[-1]) for row in plan))
            return out
        cursor = raw.cursor()
        # the planner's choice on a handful of rows would be a sequential scan whatever the
        # indexes: with scans off, it takes an index its predicate proves usable
        cursor.execute("SET enable_seqscan = off")
        cursor.execute(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = CAST(%s AS regclass)",
            (INDEX,),
        )
        ours = {row[0] for row in cursor.fetchall()}
        assert ours, "the index has a part on each partition"
        for statement, parameters in statements:
            cursor.execute("EXPLAIN " + statement, parameters)
            text = " ".join(row[0] for row in cursor.fetchall())
            out.append(INDEX if any(name in text for name in ours) else text)
        connection.rollback()
    return out


def _rows_sent_back(org: Any, statements: list[tuple[str, Any]]) -> int:
    """How many rows the statements return, sent again as they were."""
    with org.engine.connect() as connection:
        cursor = connection.connection.driver_connection.cursor()
        rows = 0
        for statement, parameters in statements:
            cursor.execute(statement, parameters)
            rows += len(cursor.fetchall())
        connection.rollback()
    return rows


def test_the_count_is_exact_and_reads_the_partial_index(store: Any) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    organization, _ = create_organization(store, "counted", now=now, config=SMALL)
    org = store.scope(organization.id)
    agents = []
    for name, tasks in (("alpha", 12), ("beta", 3), ("gamma", 0)):
        agent = org.enroll_agent(name)
        collect(org, list(enumerate(agent_evidence(str(agent.id), tasks), 1)), now=now)
        agents.append(agent)
    # alpha assessed three days ago: its tasks of the last three days count, not the older
    assess_service.assess_agent(org, "alpha", now=now - timedelta(days=3), uncertainty=False)
    fresh_since = now - timedelta(days=30)
    with statements_with_parameters(org) as seen:
        counted = org.completed_tasks_since_assessed(fresh_since=fresh_since)
    assert counted == _slow(org, agents, fresh_since=fresh_since)
    assert counted == {agents[0].id: 6, agents[1].id: 3}  # tasks 2 h, 14 h, … 62 h ago; beta's 3
    reads = [statement for statement in seen if "events" in statement[0]]
    assert len(reads) == 2  # the assessed agents, then the never assessed
    # only the agents with a task counted come back (gamma's 0 is not a row: at 10 000 agents
    # the rows of the agents with none cost more than the counts)
    assert _rows_sent_back(org, reads) == len(counted)
    for plan in _plans(org, reads):
        assert INDEX in plan, plan


def test_the_due_reads_take_the_summaries_from_their_index_alone(store: Any) -> None:
    """Which agents may be due (their tasks since, then the candidates) reads each agent's id
    and re-assessment moments from ``idx_agent_summaries_due`` (migration 0027), not a summary
    row looked up per agent: at 10 000 agents those lookups were 40 % of the overview's reads."""
    if store.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's plans name the covering index whatever the table's statistics")
    now = datetime.now(UTC).replace(microsecond=0)
    organization, _ = create_organization(store, "due", now=now, config=SMALL)
    org = store.scope(organization.id)
    for name, tasks in (("alpha", 8), ("beta", 2)):
        agent = org.enroll_agent(name)
        collect(org, list(enumerate(agent_evidence(str(agent.id), tasks), 1)), now=now)
    assess_service.assess_agent(org, "alpha", now=now, uncertainty=False)
    with statements_with_parameters(org) as seen:
        dashboard_pages.due_and_collecting(org, now=now)
    plans = _plans(org, [statement for statement in seen if "agent_summaries" in statement[0]])
    by_organization = [
        found
        for plan in plans
        for found in re.findall(r"USING (\w+ )?INDEX (\w+) \(organization_id=\?\)", plan)
    ]
    summaries = [found for found in by_organization if found[1].startswith("idx_agent_summaries")]
    assert len(summaries) >= 3 and set(summaries) == {("COVERING ", "idx_agent_summaries_due")}, plans
