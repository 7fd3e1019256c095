"""A hostile agent's tool calls in the bubblewrap sandbox, as a tester would make them
(docs/stress-tests.md "Sandbox"): every attempt is contained, recorded as the agent's failed
call with the limit it hit, and nothing of it reaches the host; an honest call still works."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from aaaf.stress import tools as tools_module
from aaaf.stress.tools import ToolEnvironment
from tests.stress.conftest import in_sandbox

SECRET = f"secret-{uuid.uuid4().hex}"


@pytest.fixture()
def server_secret(monkeypatch: pytest.MonkeyPatch) -> str:
    """A secret in this (the "server's") environment, as AAAF_SECRET_KEY would be."""
    monkeypatch.setenv("AAAF_TEST_SERVER_SECRET", SECRET)
    return SECRET


@pytest.fixture()
def listener() -> Iterator[tuple[int, list[str]]]:
    """A TCP listener on the host's loopback that records every connection it gets."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    seen: list[str] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, address = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            seen.append(str(address))
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], seen
    finally:
        stop.set()
        server.close()
        thread.join(5)


@pytest.fixture()
def marker() -> str:
    """A name the test's sandboxed processes carry (one per test: tests run side by side)."""
    return f"aaaf-hostile-{uuid.uuid4().hex[:12]}"


def _sandbox_processes(marker: str) -> list[str]:
    """Host processes started by a sandbox that carry ``marker``."""
    found = subprocess.run(["pgrep", "-af", marker], capture_output=True, text=True)
    return [line for line in found.stdout.splitlines() if "pgrep" not in line]


def _running_with(marker: str) -> list[str]:
    """Host processes alive (not zombies) whose command line carries ``marker``: read from /proc
    at once, without starting a program (pgrep's own start-up would hide a late exit)."""
    found = []
    # the newest first: the processes looked for are among them
    for pid in sorted((int(name) for name in os.listdir("/proc") if name.isdigit()), reverse=True):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline, open(f"/proc/{pid}/stat", "rb") as stat:
                if marker.encode() in cmdline.read() and stat.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                    found.append(str(pid))
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    return found


def test_the_server_s_environment_and_processes_are_out_of_reach(server_secret: str) -> None:
    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call(
            "bash",
            {
                "command": "env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; "
                "cat /proc/$PPID/environ; ps -eo pid,user,args 2>/dev/null || ls /proc"
            },
        )
        assert server_secret not in out and "AAAF" not in out
        ok, out = await env.call("python", {"code": "import os; print(sorted(os.environ))"})
        assert ok and out.strip() == "['HOME', 'LANG', 'PATH', 'PWD', 'PYTHONPYCACHEPREFIX', 'TMPDIR']"
        ok, out = await env.call("bash", {"command": "ls /proc | grep -c '^[0-9]'; id -u"})
        processes, uid = out.split()
        assert ok and int(processes) <= 4 and uid == "65534"  # its own PID namespace, not the server's user

    in_sandbox("tool-chain-01", body)


def test_files_of_the_host_are_neither_readable_nor_writable(tmp_path: Path) -> None:
    host_file = tmp_path / "server-secret.txt"
    host_file.write_text(SECRET)
    target = tmp_path / "planted.txt"

    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call(
            "bash",
            {
                "command": f"cat {host_file} /etc/shadow /etc/hostname ~root/.bashrc; ls /root /home /var /srv; "
                f"echo pwned > {target}; echo pwned > /usr/bin/pwned; echo pwned > /etc/pwned; "
                "ln -s / rootlink; ls rootlink/"
            },
        )
        assert SECRET not in out and "Read-only file system" in out and "No such file" in out
        # a link to the host's files, planted in the work directory, leads nowhere: the file tools
        # and the graders follow it inside the sandbox
        assert (await env.call("bash", {"command": f"ln -s {host_file} leak.txt"}))[0]
        ok, out = await env.call("file_read", {"path": "leak.txt"})
        assert not ok and SECRET not in out
        ok, out = await env.call("grep", {"pattern": "secret", "path": "."})
        assert SECRET not in out

    in_sandbox("tool-chain-01", body)
    assert not target.exists() and not Path("/usr/bin/pwned").exists() and not Path("/etc/pwned").exists()


def test_nothing_but_the_work_directory_and_bounded_scratch_space_is_writable() -> None:
    """The sandbox's root and ``/dev`` are memory with no size: read-only, or an agent could
    fill the host's memory in the seconds of one call; ``/tmp`` and ``/dev/shm`` are bounded."""

    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call(
            "bash", {"command": "for p in /x /dev/x /etc/x /usr/x /proc/x; do echo x > $p; done"}
        )
        assert not ok and out.count("Read-only file system") + out.count("No such file") == 5
        for scratch in ("/tmp", "/dev/shm"):
            ok, out = await env.call("bash", {"command": f"head -c 15000000 /dev/zero > {scratch}/a; "
                                                         f"head -c 15000000 /dev/zero > {scratch}/b"})  # fmt: skip
            assert not ok and env.calls[-1].limit == "disk quota", out

    in_sandbox("tool-chain-01", body)


def test_no_network_not_even_the_host_s_loopback(listener: tuple[int, list[str]]) -> None:
    port, seen = listener

    async def body(env: ToolEnvironment) -> None:
        code = (
            "import socket\n"
            f"for host, port in [('127.0.0.1', {port}), ('127.0.0.1', 5432), ('10.0.0.1', 80), ('1.1.1.1', 53)]:\n"
            "    try:\n"
            "        socket.create_connection((host, port), timeout=2); print('REACHED', host, port)\n"
            "    except OSError as error:\n"
            "        print('refused', host, port, error.errno)\n"
        )
        ok, out = await env.call("python", {"code": code})
        assert ok and "REACHED" not in out
        ok, out = await env.call("bash", {"command": "cat /etc/resolv.conf; getent hosts pypi.org"})
        assert not ok

    in_sandbox("tool-chain-01", body)
    assert seen == []


def test_a_fork_bomb_ends_at_the_process_limit_and_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch, marker: str
) -> None:
    monkeypatch.setattr(tools_module, "COMMAND_TIMEOUT", 4)

    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call(
            "bash", {"command": "bomb() { bomb | bomb & }; bomb; exec -a " + marker + " sleep 2"}
        )
        assert not ok and env.calls[-1].limit in ("processes", "wall-clock time")
        ok, out = await env.call("bash", {"command": "echo still fine"})  # the next call works
        assert (ok, out) == (True, "still fine\n")

    in_sandbox("tool-chain-01", body)
    assert _sandbox_processes(marker) == []


def test_memory_cpu_file_size_and_disk_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools_module, "COMMAND_TIMEOUT", 3)

    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call("python", {"code": "x = bytearray(8 * 1024 ** 3)"})
        assert not ok and env.calls[-1].limit == "memory" and "[limit reached: memory]" in out
        ok, _ = await env.call("python", {"code": "while True: pass"})
        assert not ok and env.calls[-1].limit in ("CPU time", "wall-clock time")
        ok, _ = await env.call("bash", {"command": "head -c 100000000 /dev/zero > big.bin"})
        assert not ok and env.calls[-1].limit == "file size"
        ok, _ = await env.call(
            "bash",
            {"command": "for i in $(seq 1 10); do head -c 15000000 /dev/zero > f$i.bin || exit 1; done"},
        )
        assert not ok and env.calls[-1].limit == "disk quota"
        ok, out = await env.call("file_write", {"path": "more.txt", "content": "x" * 20_000_000})
        assert not ok and env.calls[-1].limit in ("disk quota", "file size")
        ok, out = await env.call(
            "bash", {"command": "rm -f *.bin more.txt; echo ok > small.txt; cat small.txt"}
        )
        assert (ok, out) == (True, "ok\n")  # freeing space makes room again
        assert env.summary()["limits_hit"] == [
            "CPU time",
            "disk quota",
            "file size",
            "memory",
        ] or env.summary()["limits_hit"] == ["disk quota", "file size", "memory", "wall-clock time"]

    in_sandbox("tool-chain-01", body)


def test_nothing_outlives_its_call(monkeypatch: pytest.MonkeyPatch, marker: str) -> None:
    monkeypatch.setattr(tools_module, "COMMAND_TIMEOUT", 2)

    async def body(env: ToolEnvironment) -> None:
        # gone when the call answers, not a moment later: the kernel ends a PID namespace's
        # processes after bwrap has answered for the command (seen in about half of the calls)
        for _ in range(10):
            ok, _ = await env.call(
                "bash",
                {"command": f"(setsid nohup bash -c 'exec -a {marker} sleep 300' >/dev/null 2>&1 &); "
                 f"nohup bash -c 'exec -a {marker} sleep 301' >/dev/null 2>&1 & echo started"},
            )  # fmt: skip
            assert ok
            assert _running_with(marker) == []
        ok, out = await env.call("bash", {"command": "sleep 60"})
        assert not ok and "timed out after 2 s" in out and env.calls[-1].limit == "wall-clock time"

    in_sandbox("tool-chain-01", body)
    assert _sandbox_processes(marker) == []


def test_the_sandbox_s_processes_are_not_the_server_s_user(marker: str) -> None:
    """Seen from the host, while it runs: a root server's sandbox runs as AAAF_SANDBOX_UID."""
    if os.geteuid() != 0:
        pytest.skip("a server that is not root keeps its own user id outside the namespaces")

    async def body(env: ToolEnvironment) -> None:
        import asyncio

        call = asyncio.create_task(env.call("bash", {"command": f"exec -a {marker} sleep 3"}))
        owners: set[int] = set()
        for _ in range(50):
            await asyncio.sleep(0.05)
            for line in _sandbox_processes(marker):
                owners.add(os.stat(f"/proc/{line.split()[0]}").st_uid)
            if owners:
                break
        await call
        assert owners == {65534}

    in_sandbox("tool-chain-01", body)


def test_an_honest_agent_s_calls_still_work() -> None:
    async def body(env: ToolEnvironment) -> None:
        assert (await env.call("file_write", {"path": "src/app.py", "content": "print('hello')\n"}))[0]
        ok, out = await env.call(
            "bash", {"command": "python3 src/app.py && ls -R | head -5 && wc -l notes/*"}
        )
        assert ok and out.startswith("hello\n")
        ok, out = await env.call(
            "python", {"code": "import json, pathlib; print(len(list(pathlib.Path('notes').iterdir())))"}
        )
        assert (ok, out.strip()) == (True, "4")
        assert env.summary()["limits_hit"] == []

    in_sandbox("tool-chain-01", body)
