"""``aaaf serve --workers 2`` (docs/api.md "Running it"): each server process accepts on a listening
socket of its own (``SO_REUSEPORT``), so that a burst of keep-alive connections is spread over the
processes instead of landing on whichever woke first; a killed process is replaced on its socket and
no connection is refused meanwhile; a port already taken is refused as it always was.

Linux only: which process holds which socket is read from ``/proc``.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from tests.api.conftest import Server, start_server

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

_LISTEN, _ESTABLISHED = "0A", "01"


def _children(pid: int) -> list[int]:
    """The server processes (the supervisor's children other than multiprocessing's tracker)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            if b"resource_tracker" not in command:
                found.append(int(child))
    return found


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def _server_sockets(port: int, state: str) -> set[str]:
    """Inodes of the IPv4 TCP sockets on local ``port`` in ``state``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == state:
            inodes.add(fields[9])
    return inodes


def _port(server: Server) -> int:
    return int(server.base_url.rsplit(":", 1)[1])


def _listening(server: Server) -> dict[int, set[str]]:
    """Each server process's listening sockets on the server's port."""
    listening = _server_sockets(_port(server), _LISTEN)
    return {pid: _socket_inodes(pid) & listening for pid in _children(server.process.pid)}


def _wait_until_both_listen(server: Server) -> dict[int, set[str]]:
    deadline = time.monotonic() + 120
    while True:
        held = _listening(server)
        if len(held) == 2 and all(held.values()):
            return held
        assert time.monotonic() < deadline, (held, server.log())
        time.sleep(0.2)


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log_dir = tmp_path_factory.mktemp("serve-processes")
    server = start_server(f"sqlite:///{log_dir / 'aaaf.db'}", log_dir, extra_args=("--workers", "2"))
    try:
        _wait_until_both_listen(server)  # the second may start after /health answered
        yield server
    finally:
        server.stop()


def test_each_process_listens_on_a_socket_of_its_own(two_processes: Server) -> None:
    held = list(_listening(two_processes).values())
    assert len(held) == 2
    assert all(len(inodes) == 1 for inodes in held), held
    assert held[0] != held[1]  # uvicorn's own supervisor gives both one shared socket


def test_a_burst_of_keep_alive_connections_reaches_both_processes(two_processes: Server) -> None:
    clients = [httpx.Client(base_url=two_processes.base_url, timeout=60) for _ in range(32)]
    start_line = threading.Barrier(len(clients))

    def connect(client: httpx.Client) -> None:
        start_line.wait()
        client.get("/health").raise_for_status()

    try:
        threads = [threading.Thread(target=connect, args=(client,)) for client in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        established = _server_sockets(_port(two_processes), _ESTABLISHED)
        per_process = [len(_socket_inodes(pid) & established) for pid in _children(two_processes.process.pid)]
        # each of 32 connections lands on either socket by a hash: all on one has odds 2^-31
        assert sum(per_process) == len(clients), per_process
        assert min(per_process) > 0, per_process
    finally:
        for client in clients:
            client.close()


def test_a_killed_process_is_replaced_and_no_connection_is_refused_meanwhile(two_processes: Server) -> None:
    before = _children(two_processes.process.pid)
    os.kill(before[0], signal.SIGKILL)
    answers = []
    for _ in range(20):  # half of them wait in the dead process's socket for its replacement
        with httpx.Client(base_url=two_processes.base_url, timeout=120) as client:
            answers.append(client.get("/health").status_code)
    assert answers == [200] * 20
    after = _wait_until_both_listen(two_processes)
    assert before[0] not in after
    assert before[1] in after
    assert all(len(inodes) == 1 for inodes in after.values()), after


def test_a_port_another_server_shares_by_reuse_port_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aaaf.settings import get_settings

    monkeypatch.delenv("AAAF_ADMIN_KEY", raising=False)
    monkeypatch.setenv("AAAF_DATABASE_URL", f"sqlite:///{tmp_path / 'aaaf.db'}")
    with socket.socket() as other:  # another ``aaaf serve --workers N`` of the same user
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        try:
            done = CliRunner().invoke(
                app, ["serve", "--db", str(tmp_path / "aaaf.db"), "--port", str(port), "--workers", "2"]
            )
        finally:
            get_settings.cache_clear()
    assert done.exit_code == 2, done.output
    assert f"Cannot listen on 127.0.0.1:{port}" in done.output
