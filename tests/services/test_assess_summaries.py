"""assess --all's write refreshes the agents' summary rows from the assessments it has just
written, as they are in memory, without reading their results back: the rows are those the
read-back way (every assessment read from the table) writes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

import aaaf.store.engine as store_engine
from aaaf.evidence.validation import validate_event
from aaaf.services.assess import assess_many
from aaaf.store import open_store
from aaaf.store.tables_summary import agent_summaries as summaries
from tests.cli.events_factory import NOW, agent_log


@pytest.fixture()
def counted(store_url: str, monkeypatch: pytest.MonkeyPatch):
    """The store (SQLite and PostgreSQL), and the assessment results its engine decodes (JSON
    documents holding a calibration), counted."""
    decoded: list[int] = []
    loads = store_engine.loads_json

    def counting(text: str | bytes) -> Any:
        if (b'"calibration"' if isinstance(text, bytes) else '"calibration"') in text:
            decoded.append(1)
        return loads(text)

    monkeypatch.setattr(store_engine, "loads_json", counting)  # read when the engine is made
    store = open_store(store_url)
    yield store.scope(store.default_organization().id), decoded
    store.close()


def _load(org: Any, tasks: dict[str, int]) -> None:
    for name, count in tasks.items():
        agent = org.enroll_agent(name)
        org.add_events(
            [
                (agent.id, validate_event(e, now=NOW, default_agent=name))
                for e in agent_log(None, count, prefix=name)
            ]
        )


def _summary_rows(org: Any) -> list[tuple[Any, ...]]:
    """The organization's stored rows."""
    with org.engine.connect() as connection:
        return [
            tuple(row)
            for row in connection.execute(
                select(summaries)
                .where(summaries.c.organization_id == org.organization_id)
                .order_by(summaries.c.agent_id)
            )
        ]


def test_the_write_does_not_read_back_what_it_wrote(counted: Any) -> None:
    org, decoded = counted
    _load(org, {"a": 36, "b": 31, "c": 40, "d": 12})
    outcomes = assess_many(org, org.agents(), now=NOW, window_end=NOW, workers=1)
    assert sum(o.assessment is not None for o in outcomes) == 3
    # the read-back way decoded the three results again to summarise them (3 on the old code)
    assert decoded == []
    written = _summary_rows(org)
    assert len(written) == 3
    org.refresh_summaries([agent.id for agent in org.agents()])  # the read-back way
    assert _summary_rows(org) == written


def test_the_summaries_match_the_read_back_way_beside_stored_assessments(counted: Any) -> None:
    org, decoded = counted
    _load(org, {"a": 36, "b": 31, "c": 40, "d": 12})
    agents = {agent.name: agent for agent in org.agents()}
    # a has two earlier assessments (the new one's previous is the later); c one made "later"
    # than the run (a clock set back): the run's own assessment of c is then not its latest
    assess_many(org, [agents["a"]], now=NOW - timedelta(days=2), window_end=NOW)
    assess_many(org, [agents["a"]], now=NOW - timedelta(days=1), window_end=NOW)
    assess_many(org, [agents["c"]], now=NOW + timedelta(days=1), window_end=NOW)
    decoded.clear()
    outcomes = assess_many(org, list(agents.values()), now=NOW, window_end=NOW, workers=1)
    assert [o.assessment is not None for o in outcomes] == [True, True, True, False]
    # only the stored ones were decoded: a's two and c's one, not the three just written
    assert len(decoded) == 3
    written = _summary_rows(org)
    assert len(written) == 3
    org.refresh_summaries([agent.id for agent in agents.values()])
    assert _summary_rows(org) == written
    by_agent = {row.agent_id: row for row in org.agent_summaries().values()}
    c = by_agent[agents["c"].id]
    assert c.latest is not None and c.latest.completed_at == NOW + timedelta(days=1)
    a = by_agent[agents["a"].id]
    assert a.latest is not None and a.latest.completed_at == NOW and a.previous_result is not None
