"""Each run of an assessment job takes its share of the jobs due: those due divided by the job
slots of the live ``aaaf worker`` processes, which each hold presence locks on a connection of
their own (:mod:`aaaf.jobs.presence`).  A worker alone takes a fleet in one run (up to the
limit), two split it, and a killed worker stops being counted as its connection ends."""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from aaaf.jobs.assessment_batch import TakenJobs
from aaaf.jobs.blueprint import ASSESS_TASK
from aaaf.jobs.presence import HOLD, LIVE_SLOTS
from aaaf.jobs.queue import ProcrastinateQueue, build_app, conninfo
from tests.api.conftest import start_worker
from tests.jobs.helpers import fetch_job
from tests.jobs.test_crash_safety import wait_for


@contextmanager
def present(store_url: str, slots: int) -> Iterator[None]:
    """``slots`` job slots registered as an ``aaaf worker`` registers them, while in the block."""
    with psycopg.connect(conninfo(store_url), autocommit=True) as connection:
        connection.execute(HOLD, {"slots": slots})
        yield


def _live_slots(store: Any) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(text(LIVE_SLOTS)).scalar_one())


def _fleet_of_jobs(store: Any, store_url: str, jobs: int = 40) -> None:
    """A fleet triggered at once (the jobs alone)."""
    queue = ProcrastinateQueue(build_app(store_url, lambda: store))
    with store.engine.begin() as connection:
        queue.defer_assessments(
            connection, store.default_organization().id, [uuid.uuid4() for _ in range(jobs)]
        )


def _statuses(store: Any) -> list[str]:
    with store.engine.connect() as connection:
        return list(
            connection.execute(
                text("SELECT status::text FROM procrastinate_jobs WHERE task_name = 'aaaf.assess'")
            ).scalars()
        )


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_alone_takes_every_due_job_in_one_run(store: Any, store_url: str) -> None:
    _fleet_of_jobs(store, store_url, 20)
    with present(store_url, 1):
        assert _live_slots(store) == 1
        run = TakenJobs(store.engine, fetch_job(store), ASSESS_TASK)
        assert len(run.take(31)) == 19  # not half of them: no other worker waits for a share
    assert _statuses(store) == ["doing"] * 20


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_alone_takes_up_to_the_limit(store: Any, store_url: str) -> None:
    _fleet_of_jobs(store, store_url)
    with present(store_url, 1):
        first = TakenJobs(store.engine, fetch_job(store), ASSESS_TASK)
        assert len(first.take(31)) == 31  # 32 at once; the 8 left for its next run
        second = TakenJobs(store.engine, fetch_job(store), ASSESS_TASK)
        assert len(second.take(31)) == 7
    assert _statuses(store) == ["doing"] * 40


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_two_workers_take_their_shares_of_the_due_jobs_not_all(store: Any, store_url: str) -> None:
    _fleet_of_jobs(store, store_url)
    with present(store_url, 1), present(store_url, 1):
        assert _live_slots(store) == 2
        first = TakenJobs(store.engine, fetch_job(store), ASSESS_TASK)
        second = TakenJobs(store.engine, fetch_job(store), ASSESS_TASK)
        # each may take 31 more (32 at once), but takes its half of those due: 38 after two fetches
        assert len(first.take(31)) == 19
        assert len(second.take(31)) == 10  # half of the 19 left, rounded up
        third = TakenJobs(store.engine, fetch_job(store), ASSESS_TASK)
        assert len(third.take(31)) == 8  # the 8 left: at least SHARE_FLOOR of those waiting
    assert _statuses(store) == ["doing"] * 40  # 3 fetched, 19 + 10 + 8 taken


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_slots_of_one_process_share_as_two_workers_do(store: Any, store_url: str) -> None:
    _fleet_of_jobs(store, store_url)
    with present(store_url, 2):  # aaaf worker --concurrency 2
        assert _live_slots(store) == 2
        fetch_job(store)
        assert len(TakenJobs(store.engine, fetch_job(store), ASSESS_TASK).take(31)) == 19


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_live_workers_are_counted_and_a_killed_one_is_not(store: Any, store_url: str, tmp_path: Path) -> None:
    first = start_worker(store_url, tmp_path, concurrency=2)
    second = start_worker(store_url, tmp_path)
    try:
        wait_for(lambda: _live_slots(store) == 3, timeout=60, what="the workers' presence")
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=30)
        # the server ends the killed process's sessions, and their locks with them
        wait_for(lambda: _live_slots(store) == 1, timeout=30, what="the killed worker to be forgotten")
        with present(store_url, 1), psycopg.connect(conninfo(store_url), autocommit=True) as other:
            assert _live_slots(store) == 2
            other.execute("SET search_path = public")  # another schema counts its own workers
            assert other.execute(LIVE_SLOTS).fetchone() == (0,)
    finally:
        first.stop()
        second.stop()
