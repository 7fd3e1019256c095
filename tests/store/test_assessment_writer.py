"""AssessmentWriter: the batches of one ``assess --all`` run in one transaction that opens
before the last batch is known — batches kept before ``begin`` and written after it commit
together, nobody sees any of them before the end, and a failure at any point (a foreign
agent's batch included) leaves nothing stored.  On SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from aaaf.errors import AAAFError
from aaaf.store.assessment_batch import AssessmentWriter, FinishedAssessment, prepare_finished_assessments
from aaaf.store.engine import read_connection

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _batch(org, agent, *, sqlite: bool):  # type: ignore[no-untyped-def]
    item = FinishedAssessment(
        agent_id=agent.id,
        agent_name=agent.name,
        type="passive_only",
        status="failed",
        error={"code": "INSUFFICIENT_EVIDENCE", "message": "m"},
        window_start=NOW - timedelta(days=30),
        window_end=NOW,
        completed_at=NOW,
    )
    return prepare_finished_assessments(org.organization_id, [item], sqlite=sqlite)


def _stored_ids(store) -> set[uuid.UUID]:  # type: ignore[no-untyped-def]
    with read_connection(store.engine) as connection:
        return {uuid.UUID(str(row[0])) for row in connection.execute(text("SELECT id FROM assessments"))}


def test_batches_before_and_after_begin_commit_together(store) -> None:  # type: ignore[no-untyped-def]
    org = store.scope(store.default_organization().id)
    sqlite = store.engine.dialect.name == "sqlite"
    agents = [org.enroll_agent(f"agent-{n}") for n in range(3)]
    with AssessmentWriter(store.engine, org.organization_id) as writer:
        writer.add(_batch(org, agents[0], sqlite=sqlite))
        assert _stored_ids(store) == set()  # kept, not written
        writer.begin()
        writer.begin()  # a second call does nothing
        writer.add(_batch(org, agents[1], sqlite=sqlite))
        writer.add(_batch(org, agents[2], sqlite=sqlite))
        assert _stored_ids(store) == set()  # written, not yet committed: nobody else sees them
    assert [record.agent_id for record in writer.records] == [agent.id for agent in agents]
    assert _stored_ids(store) == {record.id for record in writer.records}


def test_a_writer_that_never_began_writes_everything_at_the_end(store) -> None:  # type: ignore[no-untyped-def]
    org = store.scope(store.default_organization().id)
    sqlite = store.engine.dialect.name == "sqlite"
    agent = org.enroll_agent("solo")
    with AssessmentWriter(store.engine, org.organization_id) as writer:
        writer.add(_batch(org, agent, sqlite=sqlite))
    assert _stored_ids(store) == {writer.records[0].id}
    with AssessmentWriter(store.engine, org.organization_id) as empty:
        pass
    assert empty.records == []


@pytest.mark.parametrize("fails", ["after_begin", "before_begin"])
def test_a_failure_at_any_point_leaves_nothing_stored(store, fails: str) -> None:  # type: ignore[no-untyped-def]
    org = store.scope(store.default_organization().id)
    sqlite = store.engine.dialect.name == "sqlite"
    agents = [org.enroll_agent(f"agent-{n}") for n in range(2)]
    with (
        pytest.raises(RuntimeError, match="scoring failed"),
        AssessmentWriter(store.engine, org.organization_id) as writer,
    ):
        writer.add(_batch(org, agents[0], sqlite=sqlite))
        if fails == "after_begin":
            writer.begin()
            writer.add(_batch(org, agents[1], sqlite=sqlite))
        raise RuntimeError("scoring failed")
    assert _stored_ids(store) == set()


@pytest.mark.parametrize("declared", [False, True])
def test_a_foreign_agents_batch_rolls_back_the_whole_run(store, declared: bool) -> None:  # type: ignore[no-untyped-def]
    """Checked when its batch comes, or, declared as one of the run's agents, when the write opens."""
    home = store.scope(store.default_organization().id)
    other = store.scope(store.create_organization("other").id)
    sqlite = store.engine.dialect.name == "sqlite"
    own, foreign = home.enroll_agent("own"), other.enroll_agent("foreign")
    agent_ids = [own.id, foreign.id] if declared else [own.id]
    with (
        pytest.raises(AAAFError) as refused,
        AssessmentWriter(store.engine, home.organization_id, agent_ids) as writer,
    ):
        writer.add(_batch(home, own, sqlite=sqlite))
        writer.begin()
        writer.add(_batch(home, foreign, sqlite=sqlite))
    assert refused.value.code == "NOT_FOUND"
    assert _stored_ids(store) == set()


def test_the_kept_batches_agents_are_refreshed_at_once_then_each_later_batch(store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The summaries of every batch kept before ``begin`` in one refresh (per batch, their
    queries were most of a large run's write), then each later batch's with it."""
    from aaaf.store import assessment_batch

    org = store.scope(store.default_organization().id)
    sqlite = store.engine.dialect.name == "sqlite"
    agents = [org.enroll_agent(f"agent-{n}") for n in range(4)]
    refreshed: list[list[uuid.UUID]] = []
    beside: list[list[uuid.UUID]] = []
    real = assessment_batch.refresh_agent_summaries

    def refresh(connection, organization_id, agent_ids, **options):  # type: ignore[no-untyped-def]
        refreshed.append(list(agent_ids))
        real(connection, organization_id, agent_ids, **options)

    monkeypatch.setattr(assessment_batch, "refresh_agent_summaries", refresh)
    with AssessmentWriter(
        store.engine,
        org.organization_id,
        also=lambda _c, records: beside.append([r.agent_id for r in records]),
    ) as writer:
        for agent in agents[:3]:
            writer.add(_batch(org, agent, sqlite=sqlite))
        assert refreshed == []  # kept, not written
        writer.begin()
        writer.add(_batch(org, agents[3], sqlite=sqlite))
    ids = [agent.id for agent in agents]
    assert refreshed == [ids[:3], ids[3:]]
    assert beside == [ids[:3], ids[3:]]
    assert _stored_ids(store) == {record.id for record in writer.records}
