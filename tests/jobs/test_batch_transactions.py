"""A worker's batch of assessments in as few transactions as its guarantees allow (PostgreSQL):
the jobs it takes are marked running in the transaction that claims their assessments, its
reads share one read connection, and its results, their jobs' ends and their badges commit
together; a claim that fails leaves the jobs waiting as they were, and the job of an assessment
that no longer exists ends with the batch instead of staying running."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from aaaf.jobs import tasks
from aaaf.jobs.assessment_batch import TakenJobs
from aaaf.jobs.blueprint import ASSESS_TASK
from aaaf.jobs.queue import ProcrastinateQueue, build_app
from aaaf.services.assessment_jobs import trigger_assessment
from aaaf.store import claimed_assessments
from aaaf.store import tables as t
from tests.jobs.helpers import RecordingQueue, assessable_agent

pytestmark = pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)


def _triggered(store: Any, url: str, count: int) -> tuple[Any, list[Any], int]:
    """``count`` assessments triggered through procrastinate and the first job fetched as a
    worker fetches it: (the organization, the records, that job's id)."""
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    agents = [assessable_agent(org, f"agent-{i}", now=now) for i in range(count)]
    queue = ProcrastinateQueue(build_app(url, lambda: store))
    records = [trigger_assessment(org, agent, queue, now=now) for agent in agents]
    with store.engine.begin() as connection:
        worker = connection.execute(
            text("SELECT worker_id FROM procrastinate_register_worker_v1()")
        ).scalar_one()
        job = connection.execute(
            text("SELECT id FROM procrastinate_fetch_job_v2(ARRAY['aaaf'], :worker)"), {"worker": worker}
        ).scalar_one()
    return org, records, int(job)


def _job_states(store: Any, records: list[Any]) -> list[str]:
    with store.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT args ->> 'assessment_id', status::text FROM procrastinate_jobs WHERE task_name = :task"
            ),
            {"task": ASSESS_TASK},
        ).all()
    states = {row[0]: row[1] for row in rows}
    return [states[str(record.id)] for record in records]


def _run(store: Any, org: Any, records: list[Any], job: int, queue: Any = None) -> list[Any]:
    return tasks.assessment_jobs_at_once(
        store,
        queue or RecordingQueue(),
        org.organization_id,
        records[0].id,
        now=datetime.now(UTC),
        taken=TakenJobs(store.engine, job, ASSESS_TASK),
        at_once=len(records),
    )


def test_a_batch_is_three_pool_checkouts_and_two_commits(store: Any, store_url: str) -> None:
    """The take and the claim (one transaction), the reads (one read transaction: the
    configuration, stress runs, previous composites, evidence), the write.  Before, each read
    and the organization's row had a checkout of their own and the take its own commit: 8
    checkouts and 3 commits (fails on that code)."""
    org, records, job = _triggered(store, store_url, 3)
    checkouts: list[int] = []
    commits: list[int] = []
    event.listen(store.engine, "checkout", lambda *args: checkouts.append(1))
    # a write's commit (a read transaction ends with a COMMIT of its own on PostgreSQL)
    event.listen(
        store.engine,
        "commit",
        lambda connection: (
            None if connection.get_execution_options().get("postgresql_readonly") else commits.append(1)
        ),
    )
    written = _run(store, org, records, job)
    assert sorted(r.id for r in written) == sorted(r.id for r in records)
    assert (len(checkouts), len(commits)) == (3, 2)
    assert _job_states(store, records) == ["doing", "succeeded", "succeeded"]  # the first is procrastinate's
    assert {org.get_assessment(r.id).status for r in records} == {"completed"}


def test_a_claim_that_fails_leaves_the_jobs_it_took_waiting(
    store: Any, store_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    org, records, job = _triggered(store, store_url, 3)

    def lost(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("UPDATE", {}, Exception("terminating connection due to administrator command"))

    monkeypatch.setattr(claimed_assessments, "claim_assessments_on", lost)
    with caplog.at_level(logging.WARNING), pytest.raises(OperationalError):
        _run(store, org, records, job)
    # the take rolled back with the claim: the jobs wait as they did, nothing to put back
    assert _job_states(store, records) == ["doing", "todo", "todo"]
    assert {org.get_assessment(r.id).status for r in records} == {"pending"}
    assert "could not put" not in caplog.text


def test_the_job_of_an_assessment_gone_ends_with_the_batch(store: Any, store_url: str) -> None:
    """An assessment deleted after its trigger: its job, taken, has nothing left to do and ends
    with the others (it stayed ``doing`` under the live worker for ever before)."""
    org, records, job = _triggered(store, store_url, 3)
    with store.engine.begin() as connection:
        connection.execute(t.assessments.delete().where(t.assessments.c.id == records[2].id))
    queue = RecordingQueue()
    written = _run(store, org, records, job, queue)
    assert sorted(r.id for r in written) == sorted(r.id for r in records[:2])
    assert _job_states(store, records) == ["doing", "succeeded", "succeeded"]
    assert sorted(queue.badges) == sorted(r.id for r in records[:2])
