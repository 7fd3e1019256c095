"""One path for completing an assessment, on SQLite and PostgreSQL: ``assess --all`` raises
the same webhook events as ``assess NAME``, in the transaction that stores its assessments;
a worker's job scores several triggered assessments at once, each completed once with its
events, finishing the jobs it took and queueing their badges in that transaction or putting
the jobs back when the database fails; an assessment whose job gave up after its retries ends failed with the
reason instead of waiting for ever."""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import procrastinate
import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError

from aaaf.evidence.validation import validate_event
from aaaf.jobs import blueprint, inprocess, tasks
from aaaf.jobs.assessment_batch import TakenJobs
from aaaf.jobs.blueprint import ASSESS_TASK
from aaaf.jobs.queue import ProcrastinateQueue, build_app
from aaaf.services import assess as assess_service
from aaaf.services import assessment_jobs
from aaaf.services import webhooks as webhook_service
from aaaf.services.assessment_jobs import run_triggered_assessments, trigger_assessment
from aaaf.services.badge_revocation import issuer_key
from aaaf.services.issuer import secret_box
from aaaf.settings import Settings
from aaaf.store import tables as t
from tests.cli.events_factory import NOW, agent_log
from tests.jobs.helpers import RecordingQueue, assessable_agent, fetch_job


def _subscribed(store: Any) -> Any:
    org = store.scope(store.default_organization().id)
    webhook_service.create_webhook(
        org,
        secret_box(store),
        "http://127.0.0.1:9/hook",
        list(webhook_service.WEBHOOK_EVENT_TYPES),
        now=NOW,
        settings=Settings(webhook_allow_loopback=True),
    )
    return org


def _events(store: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every webhook event stored, (type, data), oldest first."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(t.webhook_events.c.type, t.webhook_events.c.payload).order_by(
                t.webhook_events.c.created_at, t.webhook_events.c.id
            )
        ).all()
    return [(row.type, json.loads(row.payload)["data"]) for row in rows]


def _with_log(org: Any, name: str, tasks_count: int) -> Any:
    agent = org.enroll_agent(name)
    org.add_events(
        [
            (agent.id, validate_event(e, now=NOW, default_agent=name))
            for e in agent_log(None, tasks_count, prefix=name)
        ]
    )
    return agent


def test_assess_all_raises_the_events_of_assess_name(store: Any) -> None:
    org = _subscribed(store)
    one, other, idle = (_with_log(org, name, n) for name, n in (("one", 36), ("other", 36), ("idle", 1)))
    single = assess_service.assess_agent(org, "one", now=NOW)
    by_single = {kind: data for kind, data in _events(store)}  # one event per kind
    assert sorted(by_single) == ["assessment.completed", "assessment.started"]
    outcomes = assess_service.assess_many(org, [one, other, idle], now=NOW + timedelta(hours=1))
    assert [o.assessment is not None for o in outcomes] == [True, True, False]
    events = _events(store)
    batch = {
        (kind, data["assessment_id"]): data
        for kind, data in events
        if data["assessment_id"] != str(single.id)
    }
    # the refused agent raised nothing: nothing was stored for it
    assert len(events) == 6 and len(batch) == 4
    for outcome in outcomes[:2]:
        record = outcome.assessment
        assert batch[("assessment.started", str(record.id))] == {
            "assessment_id": str(record.id),
            "agent_id": str(record.agent_id),
            "type": "passive_only",
            "status": "in_progress",
        }
        completed = batch[("assessment.completed", str(record.id))]
        assert completed == webhook_service.assessment_data(record)
        assert completed["status"] == "completed" and completed["review_state"] == record.review_state
        # the same fields as the single path's events
        assert set(completed) == set(by_single["assessment.completed"])
        assert set(batch[("assessment.started", str(record.id))]) == set(by_single["assessment.started"])
    first = batch[("assessment.completed", str(outcomes[0].assessment.id))]
    assert by_single["assessment.completed"]["performance_tier"] == single.performance_tier
    assert first["performance_tier"] == single.performance_tier  # the same evidence, the same tier


def test_assess_all_events_commit_with_its_assessments_or_not_at_all(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = _subscribed(store)
    agents = [_with_log(org, name, 36) for name in ("one", "other")]
    real = assess_service.write_assessment_events

    def then_fail(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        raise RuntimeError("the batch failed after its events were written")

    monkeypatch.setattr(assess_service, "write_assessment_events", then_fail)
    with pytest.raises(RuntimeError):
        assess_service.assess_many(org, agents, now=NOW)
    assert _events(store) == [] and org.assessments() == []


def test_a_job_scores_several_assessments_in_one_pass_with_their_events(store: Any) -> None:
    org = _subscribed(store)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, name, now=now) for name in ("a", "b", "c")]
    records = [trigger_assessment(org, agent, RecordingQueue(), now=now) for agent in agents]
    handled: list[list[uuid.UUID]] = []
    written = run_triggered_assessments(
        store,
        org.organization_id,
        [r.id for r in records],
        now=now,
        also=lambda connection, ids, written: handled.append(ids),
    )
    assert [r.id for r in written] == [r.id for r in records]
    assert handled == [[r.id for r in records]]  # the queue's bookkeeping, in the same transaction
    stored = [org.get_assessment(r.id) for r in records]
    assert [s.status for s in stored] == ["completed"] * 3
    kinds = sorted((kind, data["assessment_id"]) for kind, data in _events(store))
    assert kinds == sorted(
        (kind, str(r.id)) for r in records for kind in ("assessment.started", "assessment.completed")
    )
    assert all(len(s.dimensions) > 0 for s in stored)
    # run again (a job retried after its commit): nothing more is written or raised
    assert run_triggered_assessments(store, org.organization_id, [r.id for r in records], now=now) == []
    assert len(_events(store)) == 6


def test_a_scoring_failure_in_a_batch_fails_only_its_assessment(store: Any) -> None:
    org = _subscribed(store)
    now = datetime.now(UTC)
    good = assessable_agent(org, "good", now=now)
    gone = assessable_agent(org, "gone", now=now, days_ago=40)  # outside the window by scoring time
    records = [
        trigger_assessment(org, good, RecordingQueue(), now=now),
        trigger_assessment(org, gone, RecordingQueue(), now=now - timedelta(days=40)),
    ]
    with store.engine.begin() as connection:  # the second one's window moves past its evidence
        connection.execute(
            t.assessments.update()
            .where(t.assessments.c.id == records[1].id)
            .values(window_start=now - timedelta(days=30), window_end=now)
        )
    run_triggered_assessments(store, org.organization_id, [r.id for r in records], now=now)
    done, failed = (org.get_assessment(r.id) for r in records)
    assert done.status == "completed"
    assert failed.status == "failed" and failed.error["code"] == "INSUFFICIENT_EVIDENCE"
    assert ("assessment.failed", str(failed.id)) in [(k, d["assessment_id"]) for k, d in _events(store)]


def _fetched_job(store: Any, url: str, org: Any, agents: list[Any]) -> tuple[list[Any], int, int]:
    """Assessments triggered through procrastinate; the first job fetched as a worker fetches
    it (``doing`` under a registered worker): (records, its job id, the worker id)."""
    queue = ProcrastinateQueue(build_app(url, lambda: store))
    now = datetime.now(UTC)
    records = [trigger_assessment(org, agent, queue, now=now) for agent in agents]
    with store.engine.begin() as connection:
        worker = connection.execute(
            text("SELECT worker_id FROM procrastinate_register_worker_v1()")
        ).scalar_one()
        job = connection.execute(
            text("SELECT id FROM procrastinate_fetch_job_v2(ARRAY['aaaf'], :worker)"), {"worker": worker}
        ).scalar_one()
    return records, job, worker


def _job_states(store: Any) -> dict[str, str]:
    with store.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT args ->> 'assessment_id', status::text FROM procrastinate_jobs WHERE task_name = 'aaaf.assess'"
            )
        ).all()
    return {row[0]: row[1] for row in rows}


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_takes_due_jobs_and_finishes_them_with_their_assessments(store: Any, store_url: str) -> None:
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, f"agent-{i}", now=now) for i in range(4)]
    records, job, _ = _fetched_job(store, store_url, org, agents)
    queue = RecordingQueue()
    written = tasks.assessment_jobs_at_once(
        store,
        queue,
        org.organization_id,
        records[0].id,
        now=now,
        taken=TakenJobs(store.engine, job, ASSESS_TASK),
        at_once=3,  # its own and two more: the fourth waits for the next job
    )
    assert sorted(r.id for r in written) == sorted(r.id for r in records[:3])
    states = _job_states(store)
    # the two taken are finished with their assessments; the job run is procrastinate's to finish
    assert [states[str(r.id)] for r in records] == ["doing", "succeeded", "succeeded", "todo"]
    assert [org.get_assessment(r.id).status for r in records] == ["completed"] * 3 + ["pending"]
    assert sorted(queue.badges) == sorted(r.id for r in records[:3])


def _badge_jobs(store: Any) -> list[tuple[str, str, int]]:
    with store.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT args ->> 'assessment_id', status::text, priority FROM procrastinate_jobs"
                " WHERE task_name = 'aaaf.issue_badge' ORDER BY args ->> 'assessment_id'"
            )
        ).all()
    return [(row[0], row[1], row[2]) for row in rows]


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_badges_of_a_batch_are_queued_in_its_transaction(store: Any, store_url: str) -> None:
    queue = ProcrastinateQueue(build_app(store_url, lambda: store))
    organization = store.default_organization().id
    first, second, third = sorted((uuid.uuid4() for _ in range(3)), key=str)
    with store.engine.begin() as connection:  # its badge already waits
        queue.defer_badges(connection, [(organization, first)])
    with store.engine.connect() as connection:
        transaction = connection.begin()
        queue.defer_badges(connection, [(organization, second), (organization, third)])
        transaction.rollback()
    assert _badge_jobs(store) == [(str(first), "todo", -1)]  # rolled back with the transaction
    with store.engine.begin() as connection:
        queue.defer_badges(connection, [(organization, a) for a in (first, second, third)])
        connection.execute(text("SELECT 1"))  # the transaction goes on after the waiting duplicate
    # one job each: the waiting one kept, the other two queued after the assessments (priority -1)
    assert _badge_jobs(store) == [(str(a), "todo", -1) for a in (first, second, third)]


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_badge_job_takes_due_badge_jobs_and_finishes_them(store: Any, store_url: str) -> None:
    secret_box(store)
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, f"agent-{i}", now=now) for i in range(4)]
    records = [trigger_assessment(org, agent, RecordingQueue(), now=now) for agent in agents]
    run_triggered_assessments(store, org.organization_id, [r.id for r in records], now=now)
    queue = ProcrastinateQueue(build_app(store_url, lambda: store))
    with store.engine.begin() as connection:
        queue.defer_badges(connection, [(org.organization_id, r.id) for r in records])
    job = fetch_job(store)
    with store.engine.connect() as connection:
        first = connection.execute(
            text("SELECT args ->> 'assessment_id' FROM procrastinate_jobs WHERE id = :id"), {"id": job}
        ).scalar_one()
    issued = tasks.badge_jobs_at_once(
        store,
        org.organization_id,
        uuid.UUID(first),
        now=now,
        taken=TakenJobs(store.engine, job, blueprint.BADGE_TASK),
        at_once=3,  # its own and two more: the fourth waits for the next job
    )
    assert len(issued) == 3 and all(badge is not None for badge in issued)
    states = dict((a, s) for a, s, _ in _badge_jobs(store))
    # the two taken are finished; the job run is procrastinate's to finish
    assert sorted(states.values()) == ["doing", "succeeded", "succeeded", "todo"]
    assert states[first] == "doing"
    waiting = next(a for a, s in states.items() if s == "todo")
    assert [len(org.badge_credentials(r.id)) for r in records] == [int(str(r.id) != waiting) for r in records]


def _checkouts(store: Any, work: Any) -> int:
    """Pool checkouts while ``work()`` runs (on PostgreSQL each costs a ping, BEGIN and its end)."""
    from sqlalchemy import event

    counted: list[int] = []

    def checkout(*args: Any) -> None:
        counted.append(1)

    event.listen(store.engine, "checkout", checkout)
    try:
        work()
    finally:
        event.remove(store.engine, "checkout", checkout)
    return len(counted)


def test_a_batch_of_badges_reads_on_one_connection_and_writes_each_on_its_own(store: Any) -> None:
    """A badge of a batch costs its write transaction alone: the reads of the organization's
    badges share one connection (the bench's 40 badges, 8 a job: 257 pool
    checkouts -> 67, 1 749 round trips -> 1 212)."""
    secret_box(store)
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, f"agent-{i}", now=now) for i in range(5)]
    records = [trigger_assessment(org, agent, RecordingQueue(), now=now) for agent in agents]
    run_triggered_assessments(store, org.organization_id, [r.id for r in records[:4]], now=now)
    first, *others = [(org.organization_id, r.id) for r in records]
    key = issuer_key(store)  # read once a job
    issued: list[Any] = []
    one = _checkouts(
        store, lambda: issued.extend(assessment_jobs.issue_badges_of(store, [first], now=now, key=key))
    )
    four = _checkouts(
        store, lambda: issued.extend(assessment_jobs.issue_badges_of(store, others, now=now, key=key))
    )
    # one read connection a batch, one write transaction a badge issued (the refused: none)
    assert (one, four) == (1 + 1, 1 + 3)
    # in order; the pending assessment earns none, and does not stop the others
    assert [badge is not None for badge in issued] == [True, True, True, True, False]
    assert [badge.data.assessment_id for badge in issued[:4]] == [str(r.id) for r in records[:4]]
    assert [len(org.badge_credentials(r.id)) for r in records] == [1, 1, 1, 1, 0]


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_database_error_puts_the_taken_jobs_back(
    store: Any, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, f"agent-{i}", now=now) for i in range(3)]
    records, job, _ = _fetched_job(store, store_url, org, agents)

    def lost(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError(
            "SELECT 1", {}, Exception("terminating connection due to administrator command")
        )

    monkeypatch.setattr(assessment_jobs, "score_agent", lost)
    with pytest.raises(OperationalError):
        tasks.assessment_jobs_at_once(
            store,
            RecordingQueue(),
            org.organization_id,
            records[0].id,
            now=now,
            taken=TakenJobs(store.engine, job, ASSESS_TASK),
            at_once=5,
        )
    states = _job_states(store)
    assert [states[str(r.id)] for r in records] == ["doing", "todo", "todo"]  # back in the queue
    assert {org.get_assessment(r.id).status for r in records} == {"in_progress"}  # nothing stored


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_an_assessment_whose_job_gave_up_ends_failed_with_the_reason(store: Any, store_url: str) -> None:
    org = _subscribed(store)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, name, now=now) for name in ("abandoned", "waiting")]
    records, job, _ = _fetched_job(store, store_url, org, agents)
    org.claim_assessment(records[0].id)
    with store.engine.begin() as connection:  # its tenth attempt failed too: procrastinate gave up
        connection.execute(
            text("UPDATE procrastinate_jobs SET status = 'failed', attempts = 10 WHERE id = :id"), {"id": job}
        )
    assert tasks.fail_abandoned_assessments(store, now=now) == [records[0].id]
    failed = org.get_assessment(records[0].id)
    assert failed.status == "failed" and failed.error["code"] == "INTERNAL_ERROR"
    assert "gave up after 10 attempts" in failed.error["message"]
    assert org.get_assessment(records[1].id).status == "pending"  # its job still waits
    assert ("assessment.failed", str(failed.id)) in [(k, d["assessment_id"]) for k, d in _events(store)]
    assert tasks.fail_abandoned_assessments(store, now=now) == []  # once


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_the_in_process_runner_retries_as_declared_then_fails_with_the_reason(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    record = trigger_assessment(org, assessable_agent(org, "flaky", now=now), RecordingQueue(), now=now)
    attempts: list[int] = []
    lock = threading.Lock()

    def lost(*args: Any, **kwargs: Any) -> Any:
        with lock:
            attempts.append(1)
        raise OperationalError("BEGIN IMMEDIATE", {}, Exception("database is locked"))

    monkeypatch.setattr(tasks, "assessment_jobs_at_once", lost)
    # the declared strategy, without its waits: two retries, then the job gives up
    monkeypatch.setattr(blueprint.assess, "retry_strategy", procrastinate.RetryStrategy(max_attempts=2))
    runner = inprocess.InProcessQueue(store)
    runner.defer_assessments(None, org.organization_id, [record.id])  # type: ignore[arg-type]
    thread = threading.Thread(target=runner.run_jobs, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while org.get_assessment(record.id).status != "failed":
        assert time.monotonic() < deadline, "the assessment never ended"
        time.sleep(0.05)
    runner.stop()
    failed = org.get_assessment(record.id)
    assert len(attempts) == 3
    assert "gave up after 3 attempts" in failed.error["message"]
