"""A hostile tenant against a live ``aaaf serve`` with SQLite and PostgreSQL, as a security
tester would try it (docs/stress-tests.md "Sandbox"):

* an agent endpoint the tenant controls answers every turn with a tool call that reads the
  server's environment and ``/proc``, reads and writes outside its directory, opens network
  connections (the server's own port, PostgreSQL, Redis, a listener of the test's), forks
  without end, allocates without end, sleeps past its limit and leaves a process behind;
* a private library whose ``unit_tests`` check does the same when it grades.

Every attempt is contained: the run finishes and grades the agent, what came back to the
endpoint carries none of the server's secrets, no connection reached anything, no file appeared
on the host, no process outlived its call — and the same tool calls of an honest agent work.
"""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import ADMIN_KEY, LiveServer, Org, poll_until, start_server, start_worker
from tests.stress.endpoints import agent_endpoint

RUN_TIMEOUT_S = 300.0
SECRET_KEY = "aG9zdGlsZS10ZXN0LXNlY3JldC1rZXktb2YtdGhlLXNlcnZlci0zMmJ5dGVzIQ=="


@dataclass
class Listener:
    port: int
    seen: list[str] = field(default_factory=list)


@contextmanager
def listener() -> Iterator[Listener]:
    """A TCP port on the host's loopback recording every connection it gets."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    found = Listener(server.getsockname()[1])
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, address = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            found.seen.append(str(address))
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield found
    finally:
        stop.set()
        server.close()
        thread.join(5)


def _attacks(host_dir: Path, ports: list[int], mark: str) -> list[tuple[str, dict[str, str]]]:
    """The tool calls of the hostile agent, in order (its last call is an honest one)."""
    connect = (
        "import socket\n"
        f"for port in {ports!r}:\n"
        "    try:\n"
        "        socket.create_connection(('127.0.0.1', port), timeout=2); print('REACHED', port)\n"
        "    except OSError as error:\n"
        "        print('refused', port, error.errno)\n"
    )
    return [
        ("bash", {"command": "env; cat /proc/*/environ | tr '\\0' '\\n'; cat /proc/$PPID/environ; "
                             "cat /proc/*/cmdline | tr '\\0' ' '; ls -la /proc/*/cwd"}),
        ("bash", {"command": f"cat /etc/shadow /root/.bashrc; ls / /root /home /var; ls -la {host_dir}; "
                             f"cat {host_dir}/*.db | head -c 300; find / -name '*.db' -o -name '*.key' 2>/dev/null"}),
        ("bash", {"command": f"echo pwned > {host_dir}/{mark}.txt; echo pwned > /tmp/{mark}.txt; "
                             f"echo pwned > /usr/bin/{mark}; ln -s {host_dir} out; ls out/"}),
        ("python", {"code": connect}),
        ("bash", {"command": "bomb() { bomb | bomb & }; bomb; sleep 2"}),
        ("python", {"code": "blocks = []\nwhile True: blocks.append(bytearray(64 * 1024 * 1024))"}),
        ("bash", {"command": f"(setsid nohup bash -c 'exec -a {mark} sleep 600' >/dev/null 2>&1 &); sleep 60"}),
        ("file_read", {"path": "out/aaaf.db"}),
        ("bash", {"command": "ls notes | wc -l"}),
    ]  # fmt: skip


@dataclass
class HostileEndpoint:
    url: str
    results: list[str] = field(default_factory=list)
    """Every tool result the server sent back (the agent's loot)."""


@contextmanager
def hostile_endpoint(attacks: list[tuple[str, dict[str, str]]]) -> Iterator[HostileEndpoint]:
    """An OpenAI-compatible endpoint: on the k-th turn of a task it calls ``attacks[k]``, then
    answers; it keeps what every tool call returned."""
    endpoint = HostileEndpoint("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            tool_messages = [m for m in body["messages"] if m.get("role") == "tool"]
            if tool_messages:
                endpoint.results.append(str(tool_messages[-1]["content"]))
            step = len(tool_messages)
            if step < len(attacks):
                tool, arguments = attacks[step]
                call = {"id": f"c{step}", "type": "function",
                        "function": {"name": tool, "arguments": json.dumps(arguments)}}  # fmt: skip
                message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            else:
                message = {"role": "assistant", "content": "done"}
            payload = json.dumps({"choices": [{"message": message}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    endpoint.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()


HOSTILE_CHECK = """
import os, socket, subprocess
seen = sorted(k for k in os.environ if 'AAAF' in k or 'DATABASE' in k)
seen += [p for p in ('/etc/passwd', '/root', '/home', '/var/lib/postgresql', HOST_DIR) if os.path.exists(p)]
for port in PORTS:
    try:
        socket.create_connection(('127.0.0.1', port), timeout=2); seen.append(port)
    except OSError:
        pass
for path in (HOST_DIR + '/MARK-check.txt', '/usr/MARK-check.txt', '/MARK-check.txt'):
    try:
        open(path, 'w').write('pwned'); seen.append(path)  # the sandbox's own /tmp is its to write
    except OSError:
        pass
subprocess.Popen(['bash', '-c', "(setsid nohup bash -c 'exec -a MARK sleep 600' >/dev/null 2>&1 &)"]).wait()
try:
    subprocess.run(['bash', '-c', 'bomb() { bomb | bomb & }; bomb; sleep 1'], timeout=5,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
except Exception:
    pass
print('SEEN', seen)
raise SystemExit(1)
"""


def _hostile_library(host_dir: Path, ports: list[int], mark: str) -> dict[str, Any]:
    check = HOSTILE_CHECK.replace("HOST_DIR", repr(str(host_dir))).replace("PORTS", repr(ports))
    check = check.replace("MARK", mark)
    return {
        "name": f"hostile-{uuid.uuid4().hex[:6]}",
        "version": "1.0.0",
        "visibility": "private",
        "tasks": [
            {
                "id": f"hostile-check-{uuid.uuid4().hex[:6]}",
                "task_type": "domain_probe",
                "dimensions": ["domain_breadth"],
                "domain": "code",
                "complexity_level": 1,
                "prompt": "Answer 30.",
                "time_baseline_seconds": 60,
                "tools": ["bash"],
                "checks": [
                    {"kind": "answer_equals", "name": "answer", "value": "30"},
                    {"kind": "unit_tests", "name": "the library's tests", "tests": check},
                ],
                "reference": {"answer": "30"},
            }
        ],
    }


def _processes_left(mark: str) -> list[str]:
    found = subprocess.run(["pgrep", "-af", mark], capture_output=True, text=True)
    return [line for line in found.stdout.splitlines() if "pgrep" not in line]


@pytest.fixture()
def hostile_service(store_url: str, tmp_path: Path) -> Iterator[tuple[LiveServer, dict[str, str]]]:
    """``aaaf serve`` (and on PostgreSQL ``aaaf worker``) with secrets in its environment, the
    default sandbox (bubblewrap), agent endpoints on loopback allowed."""
    canary = f"canary-{uuid.uuid4().hex}"
    env = {
        "AAAF_SECRET_KEY": SECRET_KEY,
        "AAAF_TEST_CANARY": canary,  # any variable of the server's environment
        "AAAF_WEBHOOK_ALLOW_LOOPBACK": "true",
        "AAAF_JOBS_SWEEP_SECONDS": "1",
    }
    secrets = {"AAAF_SECRET_KEY": SECRET_KEY, "AAAF_ADMIN_KEY": ADMIN_KEY, "AAAF_TEST_CANARY": canary}
    server = start_server(store_url, tmp_path, extra_env=env)
    dialect = "postgresql" if store_url.startswith("postgresql") else "sqlite"
    worker = (
        start_worker(store_url, tmp_path, env={**env, "AAAF_PUBLIC_BASE_URL": server.base_url})
        if dialect == "postgresql"
        else None
    )
    live = LiveServer(server, dialect, store_url)
    try:
        yield live, {**secrets, "database": store_url, "server_dir": str(tmp_path)}
    finally:
        live.close()
        server.stop()
        if worker is not None:
            worker.stop()


def _assessment(org: Org) -> str:
    from tests.api.conftest import agent_evidence, wait_for_status

    agent = org.client.post("/api/v1/agents", json={"name": "target"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"})
    assert started.status_code == 202, started.text
    return str(wait_for_status(org.client, started.json()["id"], timeout=RUN_TIMEOUT_S)["id"])


def _finished(org: Org, run_id: str) -> dict[str, Any]:
    run = poll_until(
        lambda: org.client.get(f"/api/v1/stress-runs/{run_id}").json(),
        lambda body: body["status"] in ("finished", "failed"),
        timeout=RUN_TIMEOUT_S,
    )
    assert run["status"] == "finished", run
    return dict(run)


def _no_secret_in(texts: list[str], secrets: dict[str, str]) -> None:
    loot = "\n".join(texts)
    for name in ("AAAF_SECRET_KEY", "AAAF_ADMIN_KEY", "AAAF_TEST_CANARY", "database"):
        assert secrets[name] not in loot, f"{name} reached the agent"
    assert "AAAF_" not in loot


def test_a_hostile_agent_endpoint_and_a_hostile_library_are_contained(
    hostile_service: tuple[LiveServer, dict[str, str]],
) -> None:
    live, secrets = hostile_service
    host_dir = Path(secrets["server_dir"])
    mark = f"aaaf-hostile-{uuid.uuid4().hex[:12]}"  # what its processes and files are named
    org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
    assessment_id = _assessment(org)
    port = int(live.base_url.rsplit(":", 1)[1])
    with listener() as probe:
        ports = [probe.port, port, 5432, 6379]
        # the agent's tool calls
        attacks = _attacks(host_dir, ports, mark)
        with hostile_endpoint(attacks) as endpoint:
            answer = org.client.post(
                f"/api/v1/assessments/{assessment_id}/stress-test",
                json={"agent_url": endpoint.url, "model": "hostile", "task_ids": ["tool-chain-01"]},
            )
            assert answer.status_code == 202, answer.text
            run = _finished(org, answer.json()["stress_run"]["id"])
        # the library's grader
        library = _hostile_library(host_dir, ports, mark)
        published = org.client.post("/api/v1/stress-libraries", json=library)
        assert published.status_code in (200, 201), published.text
        installed = org.client.post(f"/api/v1/stress-libraries/{library['name']}/1.0.0/install")
        assert installed.status_code in (200, 201), installed.text
        task_id = library["tasks"][0]["id"]
        with agent_endpoint(answer="30") as honest:
            answer = org.client.post(
                f"/api/v1/assessments/{assessment_id}/stress-test",
                json={"agent_url": honest.url, "model": "honest", "task_ids": [task_id]},
            )
            assert answer.status_code == 202, answer.text
            graded = _finished(org, answer.json()["stress_run"]["id"])
        assert probe.seen == []

    # the agent: nothing of the server came back, nothing reached, nothing stayed
    assert len(endpoint.results) == len(attacks)
    _no_secret_in(endpoint.results, secrets)
    assert "REACHED" not in endpoint.results[3] and endpoint.results[3].count("refused") == 4
    assert "[limit reached: processes]" in endpoint.results[4]
    assert "[limit reached: memory]" in endpoint.results[5]
    assert "limit reached: wall-clock time" in endpoint.results[6]
    assert endpoint.results[-1].strip() == "4"  # the honest call after it all works
    assert run["summary"]["sandbox"] == "bubblewrap"
    assert set(run["summary"]["limits_hit"]) >= {"processes", "memory", "wall-clock time"}
    (result,) = run["results"]
    assert result["outcome"] in ("fail", "partial")  # graded as the agent's, not the harness's
    # the library: its check saw nothing and reached nothing
    (checked,) = graded["results"]
    messages = [error["message"] for error in checked["details"]["errors"]]
    assert messages == ["the library's tests: tests fail: SEEN []"]
    _no_secret_in(messages, secrets)
    # the host
    assert not any(host_dir.glob(f"{mark}*")) and not Path(f"/tmp/{mark}.txt").exists()
    assert not Path(f"/tmp/{mark}-check.txt").exists() and not Path(f"/usr/bin/{mark}").exists()
    assert _processes_left(mark) == []
    assert live.anonymous.get("/health").status_code == 200
