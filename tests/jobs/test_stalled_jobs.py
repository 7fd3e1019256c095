"""The sweep's retry of the jobs of a worker that stopped beating (PostgreSQL): a stalled job
goes back to the queue; one whose queueing lock a waiting duplicate holds ends ``failed``
while the duplicate runs; one whose retry fails otherwise (its connection lost) stays as it is
for the next sweep — ending it ``failed`` left its assessment without a job, and the sweep then
failed the assessment (the outage test's "an assessment ended failed", under load)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from procrastinate.exceptions import ConnectorException
from sqlalchemy import text

from aaaf.jobs.queue import ProcrastinateQueue, build_app, retry_stalled_jobs
from aaaf.services.assessment_jobs import fail_abandoned, trigger_assessment
from tests.jobs.helpers import assessable_agent

pytestmark = pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)


def _stalled(store: Any, url: str) -> tuple[Any, Any, Any, int]:
    """An assessment triggered, its job fetched by a worker whose heartbeat then stopped an
    hour ago: (the organization, the queue, the record, the job id)."""
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    queue = ProcrastinateQueue(build_app(url, lambda: store))
    record = trigger_assessment(org, assessable_agent(org, "stalled", now=now), queue, now=now)
    with store.engine.begin() as connection:
        worker = connection.execute(
            text("SELECT worker_id FROM procrastinate_register_worker_v1()")
        ).scalar_one()
        job = connection.execute(
            text("SELECT id FROM procrastinate_fetch_job_v2(ARRAY['aaaf'], :worker)"), {"worker": worker}
        ).scalar_one()
        connection.execute(
            text("UPDATE procrastinate_workers SET last_heartbeat = now() - interval '1 hour' WHERE id = :w"),
            {"w": worker},
        )
    return org, queue, record, int(job)


def _sweep(queue: Any) -> int:
    async def run() -> int:
        async with queue.app.open_async():
            return await retry_stalled_jobs(queue.app, 30)

    return asyncio.run(run())


def _states(store: Any) -> list[str]:
    with store.engine.connect() as connection:
        return list(
            connection.execute(
                text(
                    "SELECT status::text FROM procrastinate_jobs WHERE task_name = 'aaaf.assess' ORDER BY id"
                )
            ).scalars()
        )


def test_a_stalled_job_goes_back_to_the_queue(store: Any, store_url: str) -> None:
    _, queue, _, _ = _stalled(store, store_url)
    assert _sweep(queue) == 1
    assert _states(store) == ["todo"]


def test_a_stalled_job_whose_duplicate_waits_ends_failed_and_the_duplicate_runs(
    store: Any, store_url: str
) -> None:
    org, queue, record, _ = _stalled(store, store_url)
    with store.engine.begin() as connection:  # the sweep's requeue of a pending one, say
        queue.defer_assessments(connection, org.organization_id, [record.id])
    assert _sweep(queue) == 0
    assert _states(store) == ["failed", "todo"]
    assert fail_abandoned(store, now=datetime.now(UTC)) == []  # a job waits for it
    assert org.get_assessment(record.id).status == "pending"


def test_a_stalled_job_whose_retry_lost_its_connection_stays_for_the_next_sweep(
    store: Any, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed on the old code: the job ended ``failed`` and the next sweep failed its assessment."""
    org, queue, record, _ = _stalled(store, store_url)

    async def lost(*args: Any, **kwargs: Any) -> None:
        try:
            raise psycopg.OperationalError("terminating connection due to administrator command")
        except psycopg.OperationalError as error:
            raise ConnectorException from error

    monkeypatch.setattr(queue.app.job_manager, "retry_job", lost)
    assert _sweep(queue) == 0
    assert _states(store) == ["doing"]
    assert fail_abandoned(store, now=datetime.now(UTC)) == []
    assert org.get_assessment(record.id).status == "pending"
    monkeypatch.undo()
    assert _sweep(queue) == 1  # the next sweep puts it back
    assert _states(store) == ["todo"]
