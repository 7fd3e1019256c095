"""``aaaf serve`` when its Redis (shared rate limits) hangs or dies (issue 34 §7), with a
``redis-server`` of the test's own: a hung Redis (SIGSTOP) delays requests by at most
``AAAF_REDIS_TIMEOUT_MS`` (asked again at most once a second), a dead one (SIGKILL) is let
through too; each outage is logged once — one warning when it starts, one line when Redis
answers again — never a trace per request."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.api.conftest import LiveServer, free_port, start_server


@pytest.fixture
def own_redis(tmp_path: Path):  # type: ignore[no-untyped-def]
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port, socket_timeout=1)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    try:
        yield process, f"redis://127.0.0.1:{port}/0"
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGCONT)
            process.kill()
            process.wait(10)


def test_a_hung_or_dead_redis_delays_no_request_and_is_logged_once_per_outage(
    own_redis: tuple[subprocess.Popen[bytes], str], tmp_path: Path, sqlite_at_head: Path
) -> None:
    process, url = own_redis
    server = start_server(
        f"sqlite:///{sqlite_at_head}",
        tmp_path,
        extra_env={"AAAF_REDIS_URL": url, "AAAF_RATE_LIMIT_PREFIX": "outage-test"},
    )
    live = LiveServer(server, "sqlite", f"sqlite:///{sqlite_at_head}")
    try:
        org = live.organization()

        def requests(count: int) -> list[float]:
            took = []
            for _ in range(count):
                started = time.monotonic()
                assert org.client.get("/api/v1/agents").status_code == 200
                assert live.anonymous.get("/health").status_code == 200
                took.append(time.monotonic() - started)
            return took

        requests(5)
        os.kill(process.pid, signal.SIGSTOP)  # hung: connections accepted, nothing answered
        hung = requests(40)
        os.kill(process.pid, signal.SIGCONT)
        time.sleep(1.2)  # Redis is asked again after a second
        requests(5)
        process.kill()  # dead: connections refused
        process.wait(10)
        requests(40)
        log = server.log_path.read_text(errors="replace")
        # two request per round, each delayed by at most one 200 ms timeout per second of outage
        assert max(hung) < 2.0, hung
        assert sum(hung) < 20.0, sum(hung)
        assert log.count("unreachable") == 2, log[-3000:]  # one per outage
        assert log.count("answers again") == 1, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
    finally:
        live.close()
        server.stop()
