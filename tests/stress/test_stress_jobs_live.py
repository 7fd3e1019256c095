"""Stress runs over HTTP as jobs, on a live ``aaaf serve`` with SQLite (the server's own
stress thread) and PostgreSQL (``aaaf worker`` processes) — docs/jobs.md "Stress runs":

* a run is answered 202 ``queued``, runs off the API process, finishes and its evidence is
  stored; the run's own key reaches the agent endpoint as ``Authorization: Bearer <key>`` and
  nowhere else — not in an API answer, not in clear in the database, not in a log or an
  inspect_ai log on disk; ``AAAF_AGENT_API_KEY`` in the server's environment is never sent; a
  proxy in the environment is not used; tasks that execute code without a sandbox are refused;
* a worker killed with SIGKILL mid-run (PostgreSQL) and a server killed mid-run (SQLite) leave
  the run resumed by the next worker or server, finished, never stuck ``running``;
* at most ``AAAF_STRESS_RUNS_PER_ORGANIZATION`` runs of one organization run at once; the rest
  wait ``queued`` (another organization's run does not) and start when a slot frees.

The agent endpoint is gated where a run must stay mid-run: it holds every request until the
test opens the gate.  Each run is one or two tasks that execute no code.
"""

from __future__ import annotations

import os
import signal
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import zipfile_zstd  # type: ignore[import-untyped]  # noqa: F401  (inspect_ai's logs are zstd zip archives)
from sqlalchemy import func, select, text

from aaaf.store import open_store
from aaaf.store import tables as t
from tests.api.conftest import (
    LiveServer,
    Org,
    Server,
    agent_evidence,
    assert_error,
    poll_until,
    start_server,
    start_worker,
    wait_for_status,
)
from tests.stress.endpoints import AgentEndpoint, agent_endpoint, proxy_listener

SERVICE_ENV = {
    "AAAF_WEBHOOK_ALLOW_LOOPBACK": "true",  # the agent endpoint is on loopback
    "AAAF_SANDBOX": "none",  # these tasks execute no code; a code task is refused (503)
    # a dead executor is noticed within seconds, not the production half-minute
    "AAAF_JOBS_HEARTBEAT_SECONDS": "0.5",
    "AAAF_JOBS_STALLED_AFTER_SECONDS": "3",
    "AAAF_JOBS_SWEEP_SECONDS": "1",
}
RUN_TIMEOUT_S = 300.0
ONE_TASK = ["probe-legal-1"]


def _dialect(store_url: str) -> str:
    return "postgresql" if store_url.startswith("postgresql") else "sqlite"


@contextmanager
def _service(
    store_url: str, tmp_path: Path, env: dict[str, str], *, workers: int = 1
) -> Iterator[tuple[LiveServer, list[Server]]]:
    """``aaaf serve`` on ``store_url`` and, on PostgreSQL, ``workers`` ``aaaf worker`` processes,
    all with ``env`` added to their environment."""
    env = {**SERVICE_ENV, **env}
    server = start_server(store_url, tmp_path, extra_env=env)
    started: list[Server] = []
    live = LiveServer(server, _dialect(store_url), store_url)
    try:
        if live.dialect == "postgresql":
            for _ in range(workers):
                started.append(
                    start_worker(store_url, tmp_path, env={**env, "AAAF_PUBLIC_BASE_URL": server.base_url})
                )
        yield live, started
    finally:
        live.close()
        server.stop()
        for worker in started:
            worker.stop()


def _assessment(org: Org) -> str:
    """An agent with enough evidence and a completed assessment (what a stress test is of)."""
    agent = org.client.post("/api/v1/agents", json={"name": "endpoint-agent"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"})
    assert started.status_code == 202, started.text
    return str(wait_for_status(org.client, started.json()["id"], timeout=RUN_TIMEOUT_S)["id"])


def _request(org: Org, assessment_id: str, endpoint: AgentEndpoint, model: str, **fields: Any) -> dict:
    response = org.client.post(
        f"/api/v1/assessments/{assessment_id}/stress-test",
        json={"agent_url": endpoint.url, "model": model, "task_ids": ONE_TASK, **fields},
    )
    assert response.status_code == 202, response.text
    run = response.json()["stress_run"]
    assert run["status"] == "queued" and run["started_at"] is None and "log_path" not in run
    return response.json()


def _run(org: Org, run_id: str) -> dict:
    response = org.client.get(f"/api/v1/stress-runs/{run_id}")
    assert response.status_code == 200, response.text
    return response.json()


def _wait(
    org: Org, run_id: str, *, status: tuple[str, ...] = ("finished", "failed"), log: Any = None
) -> dict:
    run = poll_until(lambda: _run(org, run_id), lambda body: body["status"] in status, timeout=RUN_TIMEOUT_S)
    assert run["status"] in status, f"{run}\n{log() if log else ''}"
    return run


def _kill(server: Server) -> None:
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=30)


def _run_events(store_url: str, run_id: str) -> int:
    with open_store(store_url) as store, store.engine.connect() as connection:
        return int(
            connection.execute(
                select(func.count())
                .select_from(t.events)
                .where(t.events.c.task_id.like(f"stress-{run_id}-%"))
            ).scalar_one()
        )


def _stored_text(store_url: str, tmp_path: Path) -> bytes:
    """Everything the database holds, as text (PostgreSQL: every row of every table of the
    test's schema; SQLite: the database files)."""
    if _dialect(store_url) == "sqlite":
        database = Path(store_url.removeprefix("sqlite:///"))
        return b"".join(p.read_bytes() for p in database.parent.glob(database.name + "*"))
    with open_store(store_url) as store, store.engine.connect() as connection:
        tables = connection.execute(
            text("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        ).scalars()
        return "\n".join(
            str(row[0])
            for table in list(tables)
            for row in connection.execute(text(f'SELECT CAST(x AS text) FROM "{table}" x'))
        ).encode()


def _files_holding(directory: Path, secret: bytes) -> list[str]:
    """Files under ``directory`` (server and worker logs, inspect_ai logs — zip archives read
    member by member — and temporary files) that hold ``secret``."""
    holding = []
    for path in directory.rglob("*"):
        if not path.is_file():
            continue
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                if any(secret in archive.read(name) for name in archive.namelist()):
                    holding.append(str(path))
        elif secret in path.read_bytes():
            holding.append(str(path))
    return holding


def test_a_run_over_http_is_a_job_and_its_key_goes_to_its_endpoint_only(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_key = "sk-run-" + os.urandom(12).hex()
    server_key = "sk-server-" + os.urandom(12).hex()
    for name in ("NO_PROXY", "no_proxy"):  # nothing may exempt the endpoint from the proxy
        monkeypatch.delenv(name, raising=False)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    with proxy_listener() as proxy, agent_endpoint() as endpoint:
        env = {
            "AAAF_AGENT_API_KEY": server_key,  # the CLI's variable: the service never sends it
            "TMPDIR": str(temporary),  # the jobs' inspect_ai logs, searched below
            **{name: proxy.url for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")},
            **{name.lower(): proxy.url for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")},
        }
        with _service(store_url, tmp_path, env) as (live, workers):
            org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
            assessment_id = _assessment(org)
            refused = org.client.post(
                f"/api/v1/assessments/{assessment_id}/stress-test",
                json={
                    "agent_url": endpoint.url,
                    "model": "m",
                    "task_ids": ["probe-code-1"],
                    "agent_api_key": run_key,
                },
            )
            assert assert_error(refused, 503, "SANDBOX_UNAVAILABLE")["details"]["setting"] == "AAAF_SANDBOX"
            answers = [refused.text]
            with_key = _request(org, assessment_id, endpoint, "with-key", agent_api_key=run_key, task_ids=["probe-legal-1", "probe-legal-2"])  # fmt: skip
            without_key = _request(org, assessment_id, endpoint, "without-key")
            answers += [str(with_key), str(without_key)]
            logs = lambda: "\n".join(s.log() for s in [live.server, *workers])  # noqa: E731
            finished = _wait(org, with_key["stress_run"]["id"], log=logs)
            other = _wait(org, without_key["stress_run"]["id"], log=logs)
            answers += [
                str(finished),
                str(other),
                org.client.get(f"/api/v1/assessments/{assessment_id}").text,
            ]
            log_text = logs()
        assert finished["status"] == "finished" and other["status"] == "finished", (finished, other, log_text)
        assert finished["attempts"] == 1 and "log_path" not in finished
        assert finished["request"]["task_ids"] == ["probe-legal-1", "probe-legal-2"]
        assert sorted(r["outcome"] for r in finished["results"]) == ["fail", "pass"]  # the evidence is stored
        assert finished["summary"]["events"]["accepted"] == _run_events(store_url, finished["id"]) > 0
        # the run's key reached its endpoint, on every request of that run; no other key did
        auth = {(r["body"]["model"], r["auth"]) for r in endpoint.requests}
        assert auth == {("with-key", f"Bearer {run_key}"), ("without-key", None)}, auth
        assert proxy.seen == []  # the proxy of the environment was not used
    assert not [a for a in answers if run_key in a]
    assert run_key.encode() not in _stored_text(store_url, tmp_path)
    assert _files_holding(tmp_path, run_key.encode()) == []
    assert list(temporary.rglob("*.eval")), "the jobs' inspect_ai logs were searched"


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_killed_mid_run_leaves_it_to_another(store_url: str, tmp_path: Path) -> None:
    with agent_endpoint(gated=True) as endpoint, _service(store_url, tmp_path, {}) as (live, workers):
        org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
        run_id = _request(org, _assessment(org), endpoint, "m")["stress_run"]["id"]
        assert endpoint.arrived.wait(RUN_TIMEOUT_S), workers[0].log()
        assert _run(org, run_id)["status"] == "running"  # mid-run: the agent has its first request
        _kill(workers[0])
        endpoint.gate.set()
        second = start_worker(store_url, tmp_path, env={**SERVICE_ENV, "AAAF_PUBLIC_BASE_URL": live.base_url})
        workers.append(second)
        done = _wait(org, run_id, log=second.log)
    assert done["status"] == "finished", (done, second.log())
    assert done["attempts"] == 2 and len(done["results"]) == len(ONE_TASK)
    assert done["summary"]["events"] == {"accepted": _run_events(store_url, run_id), "rejected": 0}


def test_a_sqlite_server_killed_mid_run_resumes_it_when_it_starts_again(
    tmp_path: Path, sqlite_at_head: Path
) -> None:
    store_url = f"sqlite:///{sqlite_at_head}"
    with agent_endpoint(gated=True) as endpoint:
        with _service(store_url, tmp_path, {}) as (live, _):
            org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
            run_id = _request(org, _assessment(org), endpoint, "m")["stress_run"]["id"]
            assert endpoint.arrived.wait(RUN_TIMEOUT_S), live.server.log()
            assert _run(org, run_id)["status"] == "running"
            _kill(live.server)
        endpoint.gate.set()
        with _service(store_url, tmp_path, {}) as (restarted, _):
            org.client = restarted.client(org.key)
            done = _wait(org, run_id, log=restarted.server.log)
    assert done["status"] == "finished" and done["attempts"] == 2, done
    assert len(done["results"]) == len(ONE_TASK)


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_an_organization_runs_at_most_its_limit_the_rest_wait(store_url: str, tmp_path: Path) -> None:
    """Limit 1, two workers: the organization's second run waits ``queued`` (its job ran and
    found no slot) while another organization's run finishes; it starts when the first ends."""
    env = {"AAAF_STRESS_RUNS_PER_ORGANIZATION": "1"}
    with (
        agent_endpoint(gated=True) as held,
        agent_endpoint() as free,
        _service(store_url, tmp_path, env, workers=2) as (live, workers),
    ):
        logs = lambda: "\n".join(w.log() for w in workers)  # noqa: E731
        org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
        other = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
        assessment_id, others_assessment = _assessment(org), _assessment(other)
        first = _request(org, assessment_id, held, "first")["stress_run"]["id"]
        assert held.arrived.wait(RUN_TIMEOUT_S), logs()
        second = _request(org, assessment_id, held, "second")["stress_run"]["id"]
        with open_store(store_url) as store:

            def second_job_ran() -> bool:
                with store.engine.connect() as connection:
                    statuses = connection.execute(
                        text("SELECT status::text FROM procrastinate_jobs WHERE args->>'run_id' = :run"),
                        {"run": second},
                    ).scalars()
                    return "succeeded" in list(statuses)

            poll_until(second_job_ran, bool, timeout=RUN_TIMEOUT_S)
            assert second_job_ran(), logs()
        assert _run(org, second)["status"] == "queued"  # its job found no slot
        theirs = _request(other, others_assessment, free, "theirs")["stress_run"]["id"]
        assert _wait(other, theirs, log=logs)["status"] == "finished"  # another organization's slot
        assert _run(org, first)["status"] == "running" and _run(org, second)["status"] == "queued"
        held.gate.set()
        done_first, done_second = _wait(org, first, log=logs), _wait(org, second, log=logs)
    assert done_first["status"] == done_second["status"] == "finished"
    assert done_second["started_at"] >= done_first["finished_at"]  # never both running
    assert {r["body"]["model"] for r in held.requests} == {"first", "second"}
