"""The overview and the agent page in SQL statements and connections: a page's reads share one
read connection (on PostgreSQL each connection of its own costs a pool ping and a ROLLBACK), and
the number of statements does not grow with the fleet or with the agent's assessments."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event

import aaaf
from aaaf.api.web import views
from aaaf.services import assess as assess_service
from aaaf.services import dashboard_pages
from aaaf.store import open_store
from tests.api.conftest import agent_evidence
from tests.sql_statements import statements
from tests.store.factories import finished_stress_run
from tests.web.conftest import Dashboard


@contextmanager
def _checkouts(engine: Any) -> Iterator[list[int]]:
    """How many connections the engine's pool hands out inside the block (``[n]``)."""
    counted = [0]

    def checkout(*_: Any) -> None:
        counted[0] += 1

    event.listen(engine.pool, "checkout", checkout)
    try:
        yield counted
    finally:
        event.remove(engine.pool, "checkout", checkout)


@pytest.fixture
def reader(dashboard: Dashboard) -> Iterator[Any]:
    """The dashboard's organization on a store of its own: only the page's statements are
    counted (not the served app's background loop)."""
    store = open_store(dashboard.store.engine.url.render_as_string(hide_password=False))
    try:
        yield store.scope(dashboard.org_id)
    finally:
        store.close()


def _page(org: Any, build: Callable[[Any], Any]) -> dict[str, int]:
    with statements(org) as sent, _checkouts(org.engine) as checkouts, org.reading_together() as shared:
        build(shared)
    return {"statements": len(sent), "checkouts": checkouts[0]}


def _overview(org: Any, *, now: datetime) -> dashboard_pages.OverviewReads:
    """The overview's reads, as an admin sees the page (the webhooks read too)."""
    flag, sort = views.fleet_query(None, None)
    return dashboard_pages.overview_reads(
        org, now=now, with_webhooks=True, flag=flag, tier=None, sort=sort, page=1, size=views.FLEET_PAGE
    )


def test_the_overview_reads_on_one_connection_whatever_the_fleet(dashboard: Dashboard, reader: Any) -> None:
    now = datetime.now(UTC)
    overview = lambda org: _overview(org, now=now)  # noqa: E731
    before = _page(reader, overview)
    org = dashboard.store.scope(dashboard.org_id)
    for number in range(4):  # four more agents, assessed, two of them appealing
        agent = org.enroll_agent(f"more-{number}")
        aaaf.collect(org, list(enumerate(agent_evidence(str(agent.id), 35), 1)), now=now)
        assessed = assess_service.assess_agent(org, agent.name, now=now, uncertainty=False)
        if number < 2:
            org.file_appeal(
                assessed.id, dimensions=["accuracy"], justification="j", counter_evidence=[], filed_at=now
            )
    after = _page(reader, overview)
    assert after == before
    with reader.reading_together() as shared:  # each open appeal names its agent
        shown = _overview(shared, now=now).appeals
    assert sorted(item.agent_name for item in shown) == ["more-0", "more-1"]
    assert before["checkouts"] == 1
    assert before["statements"] <= 12


def test_the_agent_page_reads_on_one_connection_whatever_its_history(
    dashboard: Dashboard, reader: Any
) -> None:
    now = datetime.now(UTC)
    page = lambda org: dashboard_pages.agent_page_reads(org, "alpha", now=now)  # noqa: E731
    before = _page(reader, page)
    org = dashboard.store.scope(dashboard.org_id)
    for hours in (1, 2, 3):
        assess_service.assess_agent(org, "alpha", now=now + timedelta(hours=hours), uncertainty=False)
    after = _page(reader, page)
    assert after == before
    # never a second connection held beside the first (a pool of N would deadlock at N pages)
    assert before["checkouts"] == 1
    # the agent and the configuration read once, not once per reader of them
    assert before["statements"] <= 26


def test_the_agent_page_reads_its_stress_runs_in_two_statements_whatever_their_number(
    dashboard: Dashboard, reader: Any
) -> None:
    now = datetime.now(UTC)
    org = dashboard.store.scope(dashboard.org_id)
    alpha = dashboard.agents["alpha"]
    finished_stress_run(org, alpha.id, now=now, tasks=2)
    page = lambda org: dashboard_pages.agent_page_reads(org, "alpha", now=now)  # noqa: E731
    before = _page(reader, page)
    runs = [finished_stress_run(org, alpha.id, now=now + timedelta(minutes=n), tasks=3) for n in (1, 2, 3)]
    after = _page(reader, page)
    assert after == before
    with reader.reading_together() as shared:
        shown = dashboard_pages.agent_page_reads(shared, "alpha", now=now).stress
    assert [s.run.id for s in shown][1:] == [run.id for run in runs]  # oldest first
    for item in shown:  # as each run's own read gives them, in order
        each = org.stress_run_results(item.run.id)
        assert [(r.task_key, r.outcome, r.score) for r in item.results] == [
            (r["task_key"], r["outcome"], r["score"]) for r in each
        ]
    assert [len(item.results) for item in shown] == [2, 3, 3, 3]
