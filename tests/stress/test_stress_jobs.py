"""Stress runs as jobs, at the service level on SQLite and PostgreSQL (docs/jobs.md "Stress
runs"): recorded ``queued`` with the job in one transaction and the agent's key sealed; the
organization's limit claimed atomically; the job re-checks the URL and the sandbox with its own
settings, runs once, resumes from scratch (nothing doubled) when its executor died, and fails
with the reason when it cannot run or was interrupted too often.  The live-server tests are in
test_stress_jobs_live.py."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from aaaf.errors import AAAFError
from aaaf.secret_box import SecretBox
from aaaf.services import stress_jobs
from aaaf.services.stress_jobs import (
    KEY_PURPOSE,
    MAX_ATTEMPTS,
    StressRequest,
    queue_stress_run,
    run_stress_job,
)
from aaaf.settings import Settings
from aaaf.store import tables as t
from aaaf.store.job_state import stress_runs_to_sweep
from aaaf.store.repositories.stress_runs import StressRunRepository
from tests.jobs.helpers import RecordingQueue
from tests.stress.conftest import _Scripted

KEY = "sk-run-" + uuid.uuid4().hex
LEGAL = ("probe-legal-1", "probe-legal-2")
SETTINGS = Settings(webhook_allow_loopback=True, sandbox="none", jobs_heartbeat_seconds=0.2)


def _org(store: Any) -> tuple[Any, Any]:
    org = store.scope(store.default_organization().id)
    return org, org.enroll_agent("endpoint-agent")


def _clock(offset: timedelta = timedelta(0)) -> Callable[[], datetime]:
    return lambda: datetime.now(UTC) + offset


def _job(
    store: Any, run: Any, box: SecretBox, queue: Any, *, settings: Settings = SETTINGS, **kw: Any
) -> Any:
    return run_stress_job(
        store,
        queue,
        store.default_organization().id,
        run.id,
        settings=settings,
        clock=kw.pop("clock", _clock()),
        box=lambda: box,
        logs=kw.pop("logs"),
    )


def _stored_row(store: Any, run_id: uuid.UUID) -> str:
    with store.engine.connect() as connection:
        row = connection.execute(select(t.stress_runs).where(t.stress_runs.c.id == run_id)).one()
    return repr(tuple(row))


def _run_events(store: Any, run_id: uuid.UUID) -> int:
    with store.engine.connect() as connection:
        return int(
            connection.execute(
                select(func.count())
                .select_from(t.events)
                .where(t.events.c.task_id.like(f"stress-{run_id}-%"))
            ).scalar_one()
        )


def test_a_request_is_recorded_queued_with_its_job_and_its_key_sealed(store) -> None:
    org, agent = _org(store)
    box, queue = SecretBox(os.urandom(32)), RecordingQueue()
    request = StressRequest("http://127.0.0.1:9/v1", "m", task_ids=LEGAL)
    run = queue_stress_run(
        org, agent, queue, box, request, api_key=KEY, settings=SETTINGS, now=datetime.now(UTC)
    )
    assert run.status == "queued" and run.started_at is None and queue.stress_runs == [run.id]
    assert run.request == request.to_dict() and KEY not in repr(run) and KEY not in str(run.to_dict())
    sealed = org.stress_run_sealed_key(run.id)
    assert sealed is not None and KEY not in sealed and KEY not in _stored_row(store, run.id)
    assert box.open(sealed, purpose=KEY_PURPOSE).decode() == KEY

    class Broken(RecordingQueue):
        def defer_stress_run(self, connection: Any, organization_id: Any, run_id: Any) -> None:
            raise RuntimeError("the queue is down")

    with pytest.raises(RuntimeError):
        queue_stress_run(
            org, agent, Broken(), box, request, api_key=None, settings=SETTINGS, now=datetime.now(UTC)
        )
    assert [r.id for r in org.stress_runs(agent.id)] == [run.id]  # the run and its job, or neither


@pytest.mark.parametrize(
    ("request_", "settings", "code", "field"),
    [
        (
            StressRequest("http://127.0.0.1:9/v1", "m", task_ids=LEGAL),
            Settings(),
            "INVALID_REQUEST",
            "agent_url",
        ),
        (
            StressRequest("http://127.0.0.1:9/v1", "m", task_ids=("no-such",)),
            SETTINGS,
            "INVALID_REQUEST",
            "task_ids",
        ),
        (
            StressRequest("http://127.0.0.1:9/v1", "m", task_ids=("probe-code-1",)),
            SETTINGS,
            "SANDBOX_UNAVAILABLE",
            None,
        ),
    ],
)
def test_what_cannot_run_is_refused_before_anything_is_recorded(
    store, request_: StressRequest, settings: Settings, code: str, field: str | None, monkeypatch
) -> None:
    monkeypatch.delenv("AAAF_WEBHOOK_ALLOW_LOOPBACK", raising=False)
    org, agent = _org(store)
    queue = RecordingQueue()
    with pytest.raises(AAAFError) as refused:
        queue_stress_run(
            org,
            agent,
            queue,
            SecretBox(os.urandom(32)),
            request_,
            api_key=None,
            settings=settings,
            now=datetime.now(UTC),
        )
    assert refused.value.code == code
    if field:
        assert refused.value.details["field"] == field
    else:
        assert refused.value.details["setting"] == "AAAF_SANDBOX"
    assert org.stress_runs(agent.id) == [] and queue.stress_runs == []


def _queued(org: Any, agent: Any, request: StressRequest, sealed: str | None = None) -> Any:
    return org.create_stress_run(
        agent.id,
        adapter="chat_completions",
        agent_reference=request.agent_url,
        library="aaaf-standard",
        library_version="v",
        queued=True,
        request=request.to_dict(),
        agent_api_key_sealed=sealed,
    )


def test_two_claims_never_take_the_last_slot(store) -> None:
    """Six jobs claim six runs of one organization at once, limit 2: exactly two run."""
    org, agent = _org(store)
    runs = [_queued(org, agent, StressRequest("http://a.example/v1", "m")) for _ in range(6)]
    barrier = threading.Barrier(len(runs))
    outcomes: list[str] = []
    now = datetime.now(UTC)

    def claim(run: Any) -> None:
        scoped = store.scope(org.organization_id)
        barrier.wait()
        outcomes.append(
            scoped.claim_stress_run(
                run.id,
                now=now,
                running_limit=2,
                lease_lapsed_before=now - timedelta(seconds=30),
                max_attempts=3,
            ).outcome
        )

    threads = [threading.Thread(target=claim, args=(run,)) for run in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["claimed"] * 2 + ["waiting"] * 4
    assert sorted(r.status for r in org.stress_runs(agent.id)) == ["queued"] * 4 + ["running"] * 2
    # another organization's runs do not count against this one's limit
    other = store.scope(store.create_organization("other").id)
    theirs = _queued(other, other.enroll_agent("x"), StressRequest("http://a.example/v1", "m"))
    claimed = other.claim_stress_run(
        theirs.id, now=now, running_limit=2, lease_lapsed_before=now - timedelta(seconds=30), max_attempts=3
    )
    assert claimed.outcome == "claimed"


def test_a_run_is_run_once_its_key_goes_to_its_url_and_is_wiped(
    store, chat_server: tuple[str, type[_Scripted]], tmp_path
) -> None:
    endpoint, handler = chat_server
    handler.script = [{"content": "30"}]
    org, agent = _org(store)
    box, queue = SecretBox(os.urandom(32)), RecordingQueue()
    run = queue_stress_run(
        org, agent, queue, box, StressRequest(endpoint, "scripted", task_ids=LEGAL), api_key=KEY,
        settings=SETTINGS, now=datetime.now(UTC),
    )  # fmt: skip
    done = _job(store, run, box, queue, logs=tmp_path)
    assert done.status == "finished" and done.attempts == 1, done.summary
    assert sorted(r["outcome"] for r in org.stress_run_results(run.id)) == ["fail", "pass"]
    assert handler.requests and {r["auth"] for r in handler.requests} == {f"Bearer {KEY}"}
    assert org.stress_run_sealed_key(run.id) is None and KEY not in _stored_row(store, run.id)
    events, asked = _run_events(store, run.id), len(handler.requests)
    again = _job(store, run, box, queue, logs=tmp_path)  # its job delivered twice
    assert again.status == "finished" and again.attempts == 1 and len(handler.requests) == asked
    assert _run_events(store, run.id) == events and len(org.stress_run_results(run.id)) == 2


class _Killed(BaseException):
    """The process dying: nothing in the job catches it."""


def test_an_interrupted_run_starts_over_and_stores_its_evidence_once(
    store, chat_server: tuple[str, type[_Scripted]], tmp_path, monkeypatch
) -> None:
    """Killed after its events were collected and before its results were stored: the run
    stays ``running``; once its lease lapsed, the next job discards what the interrupted
    attempt stored and runs it again — one set of events and results, two attempts."""
    endpoint, handler = chat_server
    handler.script = [{"content": "30"}]
    org, agent = _org(store)
    box, queue = SecretBox(os.urandom(32)), RecordingQueue()
    run = queue_stress_run(
        org, agent, queue, box, StressRequest(endpoint, "scripted", task_ids=LEGAL), api_key=None,
        settings=SETTINGS, now=datetime.now(UTC),
    )  # fmt: skip
    finish = StressRunRepository.finish_stress_run

    def killed(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise _Killed

    monkeypatch.setattr(StressRunRepository, "finish_stress_run", killed)
    with pytest.raises(_Killed):
        _job(store, run, box, queue, logs=tmp_path)
    monkeypatch.setattr(StressRunRepository, "finish_stress_run", finish)
    left = org.get_stress_run(run.id)
    one_attempt = _run_events(store, run.id)
    assert left.status == "running" and one_attempt > 0 and org.stress_run_results(run.id) == []
    # its lease is alive: another job leaves it alone
    assert _job(store, run, box, queue, logs=tmp_path).status == "running"
    later = _clock(timedelta(minutes=5))  # past AAAF_JOBS_STALLED_AFTER_SECONDS
    assert [r for _, r in stress_runs_to_sweep(store.engine, queued_before=later(), lease_lapsed_before=later() - timedelta(seconds=30))] == [run.id]  # fmt: skip
    done = _job(store, run, box, queue, logs=tmp_path, clock=later)
    assert done.status == "finished" and done.attempts == 2, done.summary
    assert _run_events(store, run.id) == one_attempt  # not doubled
    assert len(org.stress_run_results(run.id)) == len(LEGAL)
    assert done.summary["events"] == {"accepted": one_attempt, "rejected": 0}


def test_a_run_interrupted_too_often_fails_saying_why(store, tmp_path) -> None:
    org, agent = _org(store)
    run = _queued(org, agent, StressRequest("http://a.example/v1", "m"))
    start = datetime.now(UTC)
    for attempt in range(MAX_ATTEMPTS):
        now = start + timedelta(hours=attempt)
        claim = org.claim_stress_run(
            run.id,
            now=now,
            running_limit=2,
            lease_lapsed_before=now - timedelta(seconds=30),
            max_attempts=MAX_ATTEMPTS,
        )
        assert claim.outcome == ("claimed" if attempt == 0 else "resumed")
    failed = _job(
        store,
        run,
        SecretBox(os.urandom(32)),
        RecordingQueue(),
        logs=tmp_path,
        clock=_clock(timedelta(days=1)),
    )
    assert failed.status == "failed" and failed.summary["error"].startswith(
        f"interrupted {MAX_ATTEMPTS} times"
    )


@pytest.mark.parametrize(
    ("request_", "settings", "reason"),
    [
        # the worker's settings refuse what the server accepted: no sandbox for code
        (
            StressRequest("http://127.0.0.1:9/v1", "m", task_ids=("probe-code-1",)),
            SETTINGS,
            "SANDBOX_UNAVAILABLE: ",
        ),
        # the URL is checked again when the job starts
        (
            StressRequest("http://127.0.0.1:9/v1", "m", task_ids=LEGAL),
            Settings(),
            "INVALID_REQUEST: agent_url: ",
        ),
    ],
)
def test_the_job_checks_again_and_fails_with_the_reason(
    store, tmp_path, request_: StressRequest, settings: Settings, reason: str, monkeypatch
) -> None:
    monkeypatch.delenv("AAAF_WEBHOOK_ALLOW_LOOPBACK", raising=False)
    org, agent = _org(store)
    queue = RecordingQueue()
    waiting = _queued(org, agent, StressRequest("http://a.example/v1", "m"))
    run = org.create_stress_run(
        agent.id, adapter="chat_completions", agent_reference="x", library="aaaf-standard",
        library_version="v", queued=True, request=request_.to_dict(),
    )  # fmt: skip
    # one slot: the failing run takes it, the waiting run is queued again when it ends
    failed = _job(store, run, SecretBox(os.urandom(32)), queue, settings=settings.model_copy(update={"stress_runs_per_organization": 1}), logs=tmp_path)  # fmt: skip
    assert failed.status == "failed" and failed.summary["error"].startswith(reason), failed.summary
    assert failed.finished_at is not None and waiting.id in queue.stress_runs


def test_the_sweep_finds_waiting_runs_and_lapsed_leases_not_cli_runs(store) -> None:
    org, agent = _org(store)
    now = datetime.now(UTC)
    queued = _queued(org, agent, StressRequest("http://a.example/v1", "m"))
    running = _queued(org, agent, StressRequest("http://a.example/v1", "m"))
    org.claim_stress_run(running.id, now=now, running_limit=5, lease_lapsed_before=now, max_attempts=3)
    org.create_stress_run(
        agent.id, adapter="subprocess", agent_reference="cmd", library="l", library_version="v"
    )
    queue = RecordingQueue()
    assert stress_jobs.requeue_stress_runs(store, queue, now=now, grace=timedelta(minutes=2), lease=timedelta(seconds=30)) == []  # fmt: skip
    later = now + timedelta(minutes=5)
    swept = stress_jobs.requeue_stress_runs(store, queue, now=later, grace=timedelta(minutes=2), lease=timedelta(seconds=30))  # fmt: skip
    assert sorted(swept) == sorted([queued.id, running.id]) and sorted(queue.stress_runs) == sorted(swept)


def test_an_unexpected_error_before_the_run_starts_fails_it_at_once(store, tmp_path, monkeypatch) -> None:
    """Not left ``running`` to be resumed into the same error: failed with the reason."""
    org, agent = _org(store)
    run = _queued(org, agent, StressRequest("http://127.0.0.1:9/v1", "m", task_ids=LEGAL))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the library cannot be read")

    monkeypatch.setattr(stress_jobs, "chosen_tasks", broken)
    failed = _job(store, run, SecretBox(os.urandom(32)), RecordingQueue(), logs=tmp_path)
    assert failed.status == "failed" and failed.summary["error"] == "RuntimeError: the library cannot be read"
