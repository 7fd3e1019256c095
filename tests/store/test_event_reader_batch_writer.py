"""The batch writer's SQLite DB-API path stores exactly the rows SQLAlchemy Core stores
through the column types (UUID hex, naive-UTC text, JSON text with ``null`` for None,
0/1 flags, unrounded floats), for completed and failed assessments alike."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import text

from aaaf.models.stored_result import stored_result_dict
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.spec import aaaf_spec
from aaaf.scoring.trace import DimensionEvidence
from aaaf.store import open_store
from aaaf.store.assessment_batch import (
    FinishedAssessment,
    insert_rows_core,
    prepare_finished_assessments,
    record_finished_assessments,
    store_prepared_assessments,
)
from aaaf.store.engine import read_connection, write_transaction

NOW = datetime(2026, 11, 20, 12, 0, 0, 123456, tzinfo=UTC)
SPEC = aaaf_spec(AAAFConfig(window_days=45))


def _items(agent_ids: list[uuid.UUID]) -> list[FinishedAssessment]:
    common = {
        "type": "passive_only",
        "window_start": NOW - timedelta(days=30),
        "window_end": NOW,
        "completed_at": NOW.astimezone(timezone(timedelta(hours=5))),  # another zone, same instant
    }
    completed = FinishedAssessment(
        agent_id=agent_ids[0],
        agent_name="a",
        status="completed",
        result={"type": "passive_only", "x": 0.1 + 0.2, "tiny": 1e-17, "big": 1e16, "neg": -0.0, "ü": [None]},
        dimension_rows=[
            ("performance", "accuracy", 2 / 3, 47, 52, {"from_revisions": 0.7}, None),
            ("capability", "learning_rate", None, 0, 0, {}, "no taxonomy domain with ≥ 15 completed tasks"),
        ],
        performance_composite=0.7234567890123456,
        performance_tier="Proficient",
        capability_composite=None,
        capability_tier=None,
        evidence_summary={"window_tasks": 3, "task_ids": ["t1", "t2", "t3"]},
        anomalous=True,
        review_state="pending_review",
        valid_until=NOW + timedelta(days=30),
        spec=SPEC,
        trace=DimensionEvidence(
            tuple(str(uuid.UUID(int=n)) for n in (7, 8, 9)), {"accuracy": [0, 2], "learning_rate": []}
        ),
        **common,
    )
    failed = FinishedAssessment(
        agent_id=agent_ids[1],
        agent_name="b",
        status="failed",
        error={"code": "INSUFFICIENT_EVIDENCE", "message": "m", "details": {"current_count": 12}},
        spec=SPEC,
        **common,
    )
    return [completed, failed]


def _stored(url: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], list[tuple[object, ...]]]:
    store = open_store(url)
    try:
        with read_connection(store.engine) as connection:
            assessments = connection.execute(text("SELECT * FROM assessments ORDER BY id")).fetchall()
            dimensions = connection.execute(
                text("SELECT * FROM dimension_scores ORDER BY assessment_id, axis, dimension")
            ).fetchall()
            evidence = connection.execute(
                text("SELECT * FROM assessment_evidence ORDER BY assessment_id")
            ).fetchall()
        return (
            [tuple(row) for row in assessments],
            [tuple(row) for row in dimensions],
            [tuple(row) for row in evidence],
        )
    finally:
        store.close()


def _write(url: str, *, fast: bool) -> None:
    store = open_store(url)
    try:
        org = store.scope(store.default_organization().id)
        agents = [org.enroll_agent(name) for name in "ab"]
        items = _items([agent.id for agent in agents])
        # fixed ids so that both databases can be compared row by row
        items = [replace(item, id=uuid.UUID(int=number + 1)) for number, item in enumerate(items)]
        if fast:
            # prepared in two batches (as assess --all prepares them chunk by chunk)
            batches = [
                prepare_finished_assessments(org.organization_id, [item], sqlite=True) for item in items
            ]
            records = store_prepared_assessments(store.engine, org.organization_id, batches)
        else:
            prepared = prepare_finished_assessments(org.organization_id, items, sqlite=False)
            with write_transaction(store.engine) as connection:
                insert_rows_core(
                    connection, prepared.assessment_rows, prepared.dimension_rows, prepared.evidence_rows
                )
            records = prepared.records
        assert [r.status for r in records] == ["completed", "failed"]
        again = org.get_assessment(records[0].id)
        assert again.result == stored_result_dict(items[0].result)  # as written: versioned
        assert again.performance_composite == 0.7234567890123456
        assert [d.score for d in again.dimensions if d.dimension == "accuracy"] == [2 / 3]
    finally:
        store.close()


def test_dbapi_rows_equal_core_rows(tmp_path: Path) -> None:
    fast_url = "sqlite:///" + str(tmp_path / "fast.db")
    core_url = "sqlite:///" + str(tmp_path / "core.db")
    _write(fast_url, fast=True)
    _write(core_url, fast=False)
    fast, core = _stored(fast_url), _stored(core_url)
    assert len(fast[0]) == 2 and len(fast[1]) == 2
    # agents get random ids per database: compare every column but agent_id
    agent_column = 1
    strip = lambda rows: [row[:agent_column] + row[agent_column + 1 :] for row in rows]  # noqa: E731
    assert strip(fast[0]) == strip(core[0])
    # dimension rows get fresh random ids: compare every other column
    assert [row[1:] for row in fast[1]] == [row[1:] for row in core[1]]
    # the evidence rows (spec and ids; the failed one has a spec and no ids) are the same too
    assert len(fast[2]) == 2 and fast[2] == core[2]
    ids = b"".join(uuid.UUID(int=n).bytes for n in (7, 8, 9))
    assert (ids, '{"accuracy":[0,2],"learning_rate":[]}') in [row[4:] for row in fast[2]]
    # the JSON null of a missing document and the 0/1 flag, as SQLAlchemy stores them
    failed = next(row for row in fast[0] if row[3] == "failed")
    assert "null" in failed and 0 in failed


def test_naive_datetimes_are_refused_on_the_dbapi_path(sqlite_at_head: Path) -> None:
    store = open_store(f"sqlite:///{sqlite_at_head}")
    try:
        org = store.scope(store.default_organization().id)
        agent = org.enroll_agent("a")
        item = FinishedAssessment(
            agent_id=agent.id,
            agent_name="a",
            type="passive_only",
            status="failed",
            error={"code": "X", "message": "m"},
            window_start=datetime(2026, 1, 1),
            window_end=NOW,
            completed_at=NOW,
        )
        with pytest.raises(ValueError, match="naive"):
            record_finished_assessments(store.engine, org.organization_id, [item])
        with write_transaction(store.engine) as connection:
            count = connection.execute(text("SELECT count(*) FROM assessments")).scalar_one()
        assert count == 0
    finally:
        store.close()
