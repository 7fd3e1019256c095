"""A worker's batch refreshes its agents' summaries from the assessments it finished as written
(not read back): the rows are those a rebuild from the stored assessments gives, on SQLite and
PostgreSQL — the finished ones ranked by the time of their trigger, as stored, not of their
completion (docs/scaling.md, the per-agent summaries)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from aaaf.services import assess as assess_service
from aaaf.services.assessment_jobs import run_triggered_assessments, trigger_assessments
from aaaf.store import tables as t
from aaaf.store.engine import write_transaction
from aaaf.store.summary_writes import refresh_agent_summaries
from aaaf.store.tables_summary import agent_summaries
from tests.jobs.helpers import RecordingQueue, assessable_agent


def _summaries(store: Any) -> dict[Any, dict[str, Any]]:
    with store.engine.connect() as connection:
        rows = connection.execute(select(agent_summaries)).mappings().all()
    return {row["agent_id"]: dict(row) for row in rows}


def test_a_batch_writes_the_summaries_a_rebuild_gives(store: Any) -> None:
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    first, second, fresh = (
        assessable_agent(org, name, now=now, days_ago=0.5) for name in ("first", "second", "fresh")
    )
    assess_service.assess_many(org, [first, second], now=now - timedelta(hours=3))  # their previous
    triggered = trigger_assessments(org, [first, second, fresh], RecordingQueue(), now=now)
    with store.engine.begin() as connection:  # triggered two hours ago (created_at is the clock's)
        connection.execute(
            update(t.assessments)
            .where(t.assessments.c.id.in_([r.id for r in triggered]))
            .values(created_at=now - timedelta(hours=2))
        )
    # assessed again while its trigger waits: created after the triggered one, completed before it
    (later,) = [o.assessment for o in assess_service.assess_many(org, [second], now=now - timedelta(hours=1))]
    written = run_triggered_assessments(store, org.organization_id, [r.id for r in triggered], now=now)
    assert [r.status for r in written] == ["completed"] * 3
    assert [r.created_at for r in written] == [now - timedelta(hours=2)] * 3  # as stored

    by_batch = _summaries(store)
    with write_transaction(store.engine) as connection:  # rebuilt from the stored rows alone
        refresh_agent_summaries(connection, org.organization_id, [first.id, second.id, fresh.id])
    rebuilt = _summaries(store)

    assert by_batch == rebuilt
    assert by_batch[first.id]["latest_id"] == triggered[0].id
    assert by_batch[first.id]["previous_result"] is not None
    assert by_batch[second.id]["latest_id"] == later.id  # the later trigger ranks first
    assert by_batch[fresh.id]["latest_id"] == triggered[2].id
    assert by_batch[fresh.id]["previous_result"] is None
