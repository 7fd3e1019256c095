"""A live ``aaaf serve`` per database dialect, shared by the API tests (issue 13 §7).

The server is a real subprocess (the installed ``aaaf`` console script) on a free loopback
port, on a SQLite file and on a PostgreSQL schema of its own; tests talk to it with httpx.
One server per dialect serves the whole session (start-up costs a few seconds), so tests
isolate themselves by creating their own organizations (:meth:`LiveServer.organization`).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from tests.conftest import DIALECTS, _PostgresSchema, _require_postgres, copy_sqlite_template

T = TypeVar("T")
ADMIN_KEY = "admin-" + uuid.uuid4().hex
START_TIMEOUT_S = 180.0  # a loaded 2-core machine can take over a minute to import and migrate


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def aaaf_script() -> str:
    return str(Path(sys.executable).with_name("aaaf"))


@dataclass
class Server:
    """A running ``aaaf serve`` subprocess."""

    process: subprocess.Popen[bytes]
    base_url: str
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)


# the shared servers' per-address limit of public routes, raised: every test's anonymous
# requests come from 127.0.0.1 (tests/api/test_rate_limits.py checks the default on servers of its own)
TEST_PUBLIC_RATE_LIMIT = "1000000"
# what LiveServer.organization() sets, so that tests sending many requests are not refused;
# the rate-limit tests ask for the default (SCORING.md §7 "Rate limits")
TEST_RATE_LIMIT_PER_MINUTE = 1_000_000


def start_server(
    database_url: str,
    log_dir: Path,
    *,
    admin_key: str | None = ADMIN_KEY,
    extra_env: dict[str, str] | None = None,
    extra_args: tuple[str, ...] = (),
    without: tuple[str, ...] = (),
    host: str = "127.0.0.1",
    command_prefix: tuple[str, ...] = (),
) -> Server:
    """``aaaf serve`` on a free port of ``host`` (``extra_env`` added to its environment, the
    variables named in ``without`` removed from it, ``extra_args`` added to its command line,
    the whole run under ``command_prefix``, such as ``ip netns exec``); returns once
    ``/health`` answers 200."""
    port = free_port()
    env = {
        **os.environ,
        "AAAF_DATABASE_URL": database_url,
        "AAAF_PUBLIC_BASE_URL": f"http://{host}:{port}",
        "AAAF_PUBLIC_RATE_LIMIT_PER_MINUTE": TEST_PUBLIC_RATE_LIMIT,
        # the installation's cap, raised so that organizations may raise theirs (docs/security.md "Limits")
        "AAAF_MAX_RATE_LIMIT_PER_MINUTE": str(TEST_RATE_LIMIT_PER_MINUTE),
        # every test's wrong keys come from 127.0.0.1; the failed-authentication limit is tested
        # on a server of its own (tests/api/test_security_connections.py)
        "AAAF_AUTH_FAILURES_PER_MINUTE": TEST_PUBLIC_RATE_LIMIT,
        **(extra_env or {}),
    }
    env.pop("AAAF_ADMIN_KEY", None)
    for name in without:
        env.pop(name, None)
    for name in ("AAAF_REDIS_URL", "AAAF_RATE_LIMIT_PREFIX"):
        if name not in (extra_env or {}):
            env.pop(name, None)
    if admin_key is not None:
        env["AAAF_ADMIN_KEY"] = admin_key
    log_path = log_dir / f"serve-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                *command_prefix,
                aaaf_script(),
                "serve",
                "--host",
                host,
                "--port",
                str(port),
                "--log-level",
                "warning",
                *extra_args,
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=log_dir,  # files the server writes beside itself (a status list) stay out of the tree
        )
    server = Server(process, f"http://{host}:{port}", log_path)
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"aaaf serve exited with {process.returncode}:\n{server.log()}")
        try:
            if httpx.get(f"{server.base_url}/health", timeout=2.0).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(
                f"aaaf serve did not answer /health within {START_TIMEOUT_S} s:\n{server.log()}"
            )
        time.sleep(0.1)


def start_worker(
    database_url: str,
    log_dir: Path,
    *,
    concurrency: int = 1,
    env: dict[str, str] | None = None,
    command_prefix: tuple[str, ...] = (),
) -> Server:
    """``aaaf worker`` on ``database_url`` (PostgreSQL; issue 14), under ``command_prefix``
    when given; returns once it logs that it runs.  Its ``base_url`` is empty: a worker does
    not listen."""
    log_path = log_dir / f"worker-{uuid.uuid4().hex[:8]}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                *command_prefix,
                aaaf_script(),
                "worker",
                "--concurrency",
                str(concurrency),
                "--log-level",
                "info",
            ],
            env={**os.environ, "AAAF_DATABASE_URL": database_url, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=log_dir,
        )
    worker = Server(process, "", log_path)
    deadline = time.monotonic() + START_TIMEOUT_S
    while "Starting worker" not in log_path.read_text(
        errors="replace"
    ) and "worker on" not in log_path.read_text(errors="replace"):
        if process.poll() is not None:
            raise RuntimeError(f"aaaf worker exited with {process.returncode}:\n{worker.log()}")
        if time.monotonic() > deadline:
            worker.stop()
            raise RuntimeError(f"aaaf worker did not start within {START_TIMEOUT_S} s:\n{worker.log()}")
        time.sleep(0.1)
    return worker


@dataclass
class Org:
    """An organization created over HTTP, with a client holding its all-scopes key."""

    id: str
    name: str
    key: str
    client: httpx.Client


class LiveServer:
    """The server of one dialect, and helpers that create what tests need over HTTP."""

    def __init__(self, server: Server, dialect: str, database_url: str) -> None:
        self.server = server
        self.dialect = dialect
        self.database_url = database_url
        self.base_url = server.base_url
        self.anonymous = httpx.Client(base_url=server.base_url, timeout=30.0)
        self._clients: list[httpx.Client] = [self.anonymous]

    def client(self, key: str | None = None, *, header: str = "bearer") -> httpx.Client:
        headers = {}
        if key is not None:
            headers = {"Authorization": f"Bearer {key}"} if header == "bearer" else {"X-API-Key": key}
        client = httpx.Client(base_url=self.base_url, headers=headers, timeout=30.0)
        self._clients.append(client)
        return client

    def organization(
        self, *, rate_limit_per_minute: int | None = TEST_RATE_LIMIT_PER_MINUTE, **config: Any
    ) -> Org:
        """A new organization; its rate limit is raised unless ``rate_limit_per_minute=None``
        (the default limit, 100 per minute per key)."""
        name = f"org-{uuid.uuid4().hex[:10]}"
        response = self.anonymous.post(
            "/api/v1/organizations",
            json={"name": name, **config},
            headers={"Authorization": f"Bearer {ADMIN_KEY}"},
        )
        assert response.status_code == 201, response.text
        body = response.json()
        org = Org(body["id"], name, body["api_key"], self.client(body["api_key"]))
        if rate_limit_per_minute is not None:
            raised = org.client.patch(
                f"/api/v1/organizations/{org.id}/config",
                json={"rate_limit_per_minute": rate_limit_per_minute},
            )
            assert raised.status_code == 200, raised.text
        return org

    def close(self) -> None:
        for client in self._clients:
            client.close()


@contextlib.contextmanager
def serving(
    dialect: str, log_dir: Path, env: dict[str, str] | None = None, *, sqlite_template: Path | None = None
) -> Iterator[LiveServer]:
    """``aaaf serve`` on ``dialect`` (SQLite in ``log_dir`` — a copy of ``sqlite_template``
    when given, else a new file the server migrates — or a PostgreSQL schema of its own,
    dropped afterwards) with ``env``; on PostgreSQL the jobs (triggered assessments, badges)
    run in an ``aaaf worker`` beside it (issue 14), with the server's public URL: the badges
    it signs name it."""
    extra = env or {}
    schema = None
    if dialect == "sqlite":
        url = f"sqlite:///{log_dir / 'aaaf.db'}"
        if sqlite_template is not None:
            copy_sqlite_template(sqlite_template, log_dir / "aaaf.db")
    else:
        _require_postgres()
        schema = _PostgresSchema()
        url = schema.url
    server = start_server(url, log_dir, extra_env=extra)
    worker = (
        start_worker(url, log_dir, env={**extra, "AAAF_PUBLIC_BASE_URL": server.base_url})
        if dialect == "postgresql"
        else None
    )
    live_server = LiveServer(server, dialect, url)
    try:
        yield live_server
    finally:
        live_server.close()
        server.stop()
        if worker is not None:
            worker.stop()
        if schema is not None:
            schema.drop()


@pytest.fixture(scope="session", params=DIALECTS)
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``aaaf serve`` on SQLite, then on PostgreSQL (one server each for the session)."""
    log_dir = tmp_path_factory.mktemp(f"serve-{request.param}")
    template = request.getfixturevalue("_sqlite_template") if request.param == "sqlite" else None
    with serving(request.param, log_dir, sqlite_template=template) as live_server:
        yield live_server


# evidence ---------------------------------------------------------------------------------
def task_events(agent_id: str, task_id: str, completed_at: datetime, *, domain: str = "code") -> list[dict]:
    """One completed task: a ``task_assigned`` and a ``task_completed`` with client ids."""
    assigned_at = completed_at - timedelta(seconds=1800)
    return [
        {
            "id": f"{task_id}-a",
            "agent_id": agent_id,
            "type": "task_assigned",
            "timestamp": assigned_at.isoformat(),
            "data": {
                "task_id": task_id,
                "complexity_level": 2,
                "domain": domain,
                "assigned_at": assigned_at.isoformat(),
            },
        },
        {
            "id": f"{task_id}-c",
            "agent_id": agent_id,
            "type": "task_completed",
            "timestamp": completed_at.isoformat(),
            "data": {
                "task_id": task_id,
                "completion_status": "accepted",
                "time_to_complete_seconds": 1800,
                "revision_count": 0,
                "errors": [],
                "review_checklist": {
                    "memory_search_performed": True,
                    "output_format_correct": True,
                    "verification_evidence_provided": True,
                    "memory_written": False,
                },
            },
        },
    ]


def agent_evidence(agent_id: str, tasks: int) -> list[dict]:
    """``tasks`` completed tasks over the last days (inside the default 30-day window)."""
    now = datetime.now(UTC)
    events: list[dict] = []
    for index in range(tasks):
        events += task_events(
            agent_id,
            f"task-{index:03d}",
            now - timedelta(hours=2 + 12 * index),
            domain=("code", "testing")[index % 2],
        )
    return events


def wait_for_status(client: httpx.Client, assessment_id: str, *, timeout: float = 60.0) -> dict:
    """Poll an assessment until it is no longer in progress (no sleeping test: a deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/v1/assessments/{assessment_id}")
        assert response.status_code == 200, response.text
        body = response.json()
        if body["status"] not in ("pending", "in_progress"):
            return body
        if time.monotonic() > deadline:
            raise AssertionError(f"assessment {assessment_id} still {body['status']} after {timeout} s")
        time.sleep(0.05)


def poll_until(fetch: Callable[[], T], done: Callable[[T], bool], *, timeout: float = 30.0) -> T:
    """``fetch()`` until ``done`` says so (a deadline, not a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def assert_error(response: httpx.Response, status: int, code: str) -> dict:
    """The response is document 004 §6.4's error with this status and code; its body."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["details"], dict)
    return body["error"]
