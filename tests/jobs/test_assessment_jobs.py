"""Triggered assessments as jobs (issue 14 §2-3), on SQLite and PostgreSQL: one pending or
running assessment per agent (the database says so), a job that runs twice stores its result
once, a trigger whose job could not be queued leaves nothing behind."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.jobs import tasks
from aaaf.jobs.inprocess import NothingTaken
from aaaf.services.assessment_jobs import requeue_pending, run_triggered_assessment, trigger_assessment
from aaaf.store import tables as t
from tests.cli.events_factory import NOW
from tests.jobs.helpers import RecordingQueue, assessable_agent


def test_a_trigger_records_pending_and_queues_its_job(store) -> None:
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    queue = RecordingQueue()
    record = trigger_assessment(org, agent, queue, now=NOW)
    assert record.status == "pending" and queue.assessments == [record.id]
    with pytest.raises(AAAFError) as refused:
        trigger_assessment(org, agent, queue, now=NOW)
    assert refused.value.code == "ASSESSMENT_IN_PROGRESS"
    assert refused.value.details["assessment_id"] == str(record.id)
    assert queue.assessments == [record.id]  # the refused trigger queued nothing


def test_the_partial_unique_index_holds_without_the_check(store) -> None:
    """Two pending, or a pending and an in_progress, for one agent: the database refuses."""
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    org.create_assessment(
        agent.id, type="full", window_start=NOW - timedelta(days=30), window_end=NOW, status="pending"
    )
    row = {
        "agent_id": agent.id,
        "type": "full",
        "window_start": NOW - timedelta(days=30),
        "window_end": NOW,
        "anomalous": False,
        "review_state": "not_required",
        "created_at": NOW,
    }
    for status in ("pending", "in_progress"):
        import uuid

        with pytest.raises(IntegrityError), store.engine.begin() as connection:
            connection.execute(insert(t.assessments).values(id=uuid.uuid4(), status=status, **row))
    # a finished one does not count
    with store.engine.begin() as connection:
        connection.execute(insert(t.assessments).values(id=uuid.uuid4(), status="completed", **row))


def test_a_trigger_whose_job_cannot_be_queued_leaves_no_assessment(store) -> None:
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)

    class Broken(RecordingQueue):
        def defer_assessments(self, connection, organization_id, assessment_ids) -> None:
            raise RuntimeError("the queue is down")

    with pytest.raises(RuntimeError):
        trigger_assessment(org, agent, Broken(), now=NOW)
    assert org.assessments(agent.id) == []


def test_concurrent_triggers_make_exactly_one_assessment(store) -> None:
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    queue = RecordingQueue()
    barrier = threading.Barrier(6)
    outcomes: list[str] = []

    def trigger() -> None:
        barrier.wait()
        try:
            trigger_assessment(store.scope(org.organization_id), agent, queue, now=NOW)
            outcomes.append("started")
        except AAAFError as error:
            outcomes.append(error.code)

    threads = [threading.Thread(target=trigger) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["ASSESSMENT_IN_PROGRESS"] * 5 + ["started"]
    assert len(org.assessments(agent.id)) == 1 and len(queue.assessments) == 1


def _assessment_job(store: Any, queue: Any, organization_id: Any, assessment_id: Any, *, now: Any) -> Any:
    """An ``aaaf.assess`` job run alone (no further jobs taken, as on SQLite); the assessment as stored."""
    tasks.assessment_jobs_at_once(
        store, queue, organization_id, assessment_id, now=now, taken=NothingTaken(), at_once=1
    )
    return store.scope(organization_id).get_assessment(assessment_id)


def test_the_job_stores_its_result_once_however_often_it_runs(store) -> None:
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    queue = RecordingQueue()
    record = trigger_assessment(org, agent, queue, now=NOW)
    first = _assessment_job(store, queue, org.organization_id, record.id, now=NOW)
    assert first.status == "completed" and queue.badges == [record.id]
    dimensions = len(first.dimensions)
    # run again (a worker killed after the commit): nothing more is written
    again = _assessment_job(store, queue, org.organization_id, record.id, now=NOW + timedelta(minutes=5))
    assert again.status == "completed" and again.completed_at == first.completed_at
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(func.count())
            .select_from(t.dimension_scores)
            .where(t.dimension_scores.c.assessment_id == record.id)
        ).scalar_one()
    assert rows == dimensions
    # the badge job issues once; again it re-renders the same credential
    (issued,) = tasks.badge_jobs_at_once(
        store, org.organization_id, record.id, now=NOW, taken=NothingTaken(), at_once=1
    )
    (reissued,) = tasks.badge_jobs_at_once(
        store, org.organization_id, record.id, now=NOW + timedelta(minutes=1), taken=NothingTaken(), at_once=1
    )
    assert issued is not None and reissued.token == issued.token
    assert len(org.badge_credentials(record.id)) == 1


def test_a_job_run_again_mid_scoring_continues_the_claimed_assessment(store) -> None:
    """A worker died after claiming (``in_progress``): the retried job scores it."""
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    record = trigger_assessment(org, agent, RecordingQueue(), now=NOW)
    assert org.claim_assessment(record.id).status == "in_progress"
    done = run_triggered_assessment(store, org.organization_id, record.id, now=NOW)
    assert done.status == "completed"


def test_a_failing_scoring_is_recorded_not_raised(store) -> None:
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    record = trigger_assessment(org, agent, RecordingQueue(), now=NOW)
    org.delete_events_before(NOW + timedelta(days=1))  # the evidence vanished meanwhile
    queue = RecordingQueue()
    failed = _assessment_job(store, queue, org.organization_id, record.id, now=NOW)
    assert failed.status == "failed" and failed.error["code"] == "INSUFFICIENT_EVIDENCE"
    assert queue.badges == []


def test_the_sweep_requeues_pending_assessments_whose_job_was_lost(store) -> None:
    org = store.scope(store.default_organization().id)
    agent = assessable_agent(org, "coder", now=NOW)
    lost = trigger_assessment(org, agent, RecordingQueue(), now=NOW)
    created = org.get_assessment(lost.id).created_at
    queue = RecordingQueue()
    assert (
        requeue_pending(store, queue, now=created + timedelta(seconds=10), grace=timedelta(seconds=60)) == []
    )
    again = requeue_pending(store, queue, now=created + timedelta(seconds=120), grace=timedelta(seconds=60))
    assert again == [lost.id] and queue.assessments == [lost.id]
    _assessment_job(store, queue, org.organization_id, lost.id, now=NOW)
    assert (
        requeue_pending(store, RecordingQueue(), now=created + timedelta(days=1), grace=timedelta(seconds=60))
        == []
    )
