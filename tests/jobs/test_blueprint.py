"""The jobs declared once (issue 31 §6): the blueprint's tasks, bound to an app over
procrastinate's ``InMemoryConnector`` where a database queue is not the point, run the real task
functions with the resources handed to them; the retry options and the periodic schedule are the
declared ones, and the SQLite runner runs that same schedule."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import procrastinate
import pytest
from procrastinate.testing import InMemoryConnector
from sqlalchemy.exc import OperationalError

from aaaf.jobs import blueprint, inprocess, tasks
from aaaf.jobs.blueprint import (
    ASSESS_TASK,
    BADGE_TASK,
    COMPARE_TASK,
    QUEUE,
    STRESS_TASK,
    JobResources,
    bind,
)
from aaaf.services.assessment_jobs import trigger_assessment
from aaaf.settings import Settings
from tests.jobs.helpers import RecordingQueue, assessable_agent

PERIODIC = {
    "aaaf.sweep": "* * * * * */30",
    "aaaf.duties": "* * * * *",
    "aaaf.retention": "17 3 * * *",
    "aaaf.benchmarks": "23 * * * *",
}


async def _none_stalled() -> int:
    return 0


def _app(store: Any, queue: Any, settings: Settings | None = None) -> procrastinate.App:
    resources = JobResources(
        store=store,
        queue=queue,
        settings=settings or Settings(),
        clock=lambda: datetime.now(UTC),
        taken=lambda job_id, task_name: inprocess.NothingTaken(),
        retry_stalled=_none_stalled,
    )
    return bind(procrastinate.App(connector=InMemoryConnector()), resources)


def _work(app: procrastinate.App) -> None:
    async def run() -> None:
        async with app.open_async():
            await app.run_worker_async(queues=[QUEUE], wait=False, install_signal_handlers=False)

    asyncio.run(run())


def test_the_app_has_the_declared_tasks_retries_and_schedule() -> None:
    app = _app(None, RecordingQueue())
    ours = {name: task for name, task in app.tasks.items() if name.startswith("aaaf.")}
    assert (
        set(ours)
        == set(blueprint.blueprint.tasks)
        == {
            ASSESS_TASK,
            BADGE_TASK,
            STRESS_TASK,
            COMPARE_TASK,
            *PERIODIC,
        }
    )
    declared = procrastinate.RetryStrategy(max_attempts=10, wait=1, exponential_wait=2)
    assert ours[ASSESS_TASK].retry_strategy == declared
    assert ours[BADGE_TASK].retry_strategy == declared
    assert ours[STRESS_TASK].retry_strategy is None
    assert ours[COMPARE_TASK].retry_strategy is None
    assert (ours[ASSESS_TASK].queue, ours[BADGE_TASK].priority) == ("aaaf", -1)
    assert ours[STRESS_TASK].queue == "aaaf-stress" and ours["aaaf.sweep"].queue == "aaaf-sweep"
    # the periodic duties have a queue of their own: neither the assessments wait behind them
    # nor the sweep (its own queue) behind either
    assert {ours[name].queue for name in PERIODIC if name != "aaaf.sweep"} == {"aaaf-periodic"}
    periodic = {p.task.name: p.cron for p in app.periodic_registry.periodic_tasks.values()}
    assert periodic == PERIODIC
    # the tasks are the app's own: the blueprint's stay unbound (a second app changes nothing)
    assert all(app.tasks[name] is not task for name, task in blueprint.blueprint.tasks.items())
    other = _app(None, RecordingQueue(), Settings(jobs_sweep_seconds=5))
    assert ours[ASSESS_TASK].blueprint is app and other.tasks[ASSESS_TASK].blueprint is other
    assert {p.cron for p in other.periodic_registry.periodic_tasks.values()} >= {"* * * * * */5"}


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_a_deferred_assessment_runs_the_assessment_task(store: Any) -> None:
    org = store.scope(store.default_organization().id)
    now = datetime.now(UTC)
    record = trigger_assessment(org, assessable_agent(org, "coder", now=now), RecordingQueue(), now=now)
    queue = RecordingQueue()
    app = _app(store, queue)
    app.configure_task(ASSESS_TASK).defer(
        organization_id=str(org.organization_id), assessment_id=str(record.id)
    )
    _work(app)
    connector = app.connector
    assert isinstance(connector, InMemoryConnector)
    assessing = [job["status"] for job in connector.jobs.values() if job["task_name"] == ASSESS_TASK]
    assert assessing == ["succeeded"]
    assert org.get_assessment(record.id).status == "completed"
    assert queue.badges == [record.id]  # its badge queued by the task, through the queue handed to it


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_a_failing_assessment_job_is_retried_as_declared(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def lost(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError(
            "SELECT 1", {}, Exception("terminating connection due to administrator command")
        )

    monkeypatch.setattr(tasks, "assessment_jobs_at_once", lost)
    app = _app(store, RecordingQueue())
    app.configure_task(ASSESS_TASK).defer(
        organization_id=str(store.default_organization().id), assessment_id="0" * 32
    )
    before = datetime.now(UTC)
    _work(app)
    connector = app.connector
    assert isinstance(connector, InMemoryConnector)
    (job,) = (job for job in connector.jobs.values() if job["task_name"] == ASSESS_TASK)
    assert (job["status"], job["attempts"]) == ("todo", 1)  # back in the queue, once tried
    wait = (job["scheduled_at"] - before).total_seconds()
    assert 3 <= wait < 4  # the declared backoff: 1 + 2**1 seconds


def test_the_sqlite_runner_runs_the_declared_schedule() -> None:
    runner = inprocess.InProcessQueue(None, Settings())
    schedule = {p.task.name: p.cron for p in runner.app.periodic_registry.periodic_tasks.values()}
    assert schedule == PERIODIC
    start = datetime(2026, 3, 2, 3, 20, 10, tzinfo=UTC).timestamp()  # 3 minutes after retention's tick
    last: dict[str, float] = {}
    assert dict(runner.due(start, last)) == {
        "aaaf.sweep": int(start) - 10,
        "aaaf.duties": int(start) - 10,
        "aaaf.retention": int(start) - 190,  # at most procrastinate's MAX_DELAY late: run at start
    }  # benchmarks' tick (02:23) is older than MAX_DELAY: it waits for 03:23
    assert runner.due(start + 5, last) == []  # no new tick
    assert dict(runner.due(start + 51, last)) == {
        "aaaf.sweep": int(start) + 50,
        "aaaf.duties": int(start) + 50,
    }
    assert dict(runner.due(start + 60 * 3 + 1, last)) == {
        "aaaf.sweep": int(start) + 170,
        "aaaf.duties": int(start) + 170,
        "aaaf.benchmarks": int(start) + 170,  # 03:23
    }
