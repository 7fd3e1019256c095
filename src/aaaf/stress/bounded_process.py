"""One process run with bounds the sandbox providers share (docs/stress-tests.md "Sandbox"):
a wall-clock limit after which its whole process group is killed, a cap on what it may print,
a fixed environment, and optionally another host user.

Resource limits (CPU, memory, processes, file size, open files) are applied by
``prlimit`` *inside* whatever the command runs in (:func:`prlimit_argv`): placed after
bubblewrap has made the sandbox's user namespace, the process limit counts that namespace's
processes only (Linux ≥ 5.14 counts RLIMIT_NPROC per user namespace), so one sandbox's fork
bomb neither sees the server's processes nor starves another sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
from dataclasses import dataclass

OUTPUT_LIMIT_BYTES = 1_048_576
"""Bytes of each stream (stdout, stderr) kept; the rest is read and dropped."""


@dataclass(frozen=True)
class Limits:
    """What one command may use (docs/stress-tests.md "Sandbox"; the ``AAAF_SANDBOX_*`` settings)."""

    memory_mib: int = 1024
    processes: int = 64
    file_mib: int = 16
    open_files: int = 256
    disk_mib: int = 64
    """The task's working directory as a whole (bubblewrap: a tmpfs of this size)."""


@dataclass(frozen=True)
class Finished:
    """A command that ended (by itself or killed at its time limit: ``timed_out``)."""

    returncode: int
    stdout: bytes
    stderr: bytes
    truncated: bool = False
    timed_out: bool = False


def prlimit_argv(limits: Limits, cpu_seconds: int) -> list[str]:
    """``prlimit`` with the limits, to put before a command (the CPU limit: SIGXCPU at
    ``cpu_seconds``, SIGKILL a second later)."""
    prlimit = shutil.which("prlimit", path="/usr/bin:/bin") or "/usr/bin/prlimit"
    mib = 1024 * 1024
    return [
        prlimit,
        f"--cpu={cpu_seconds}:{cpu_seconds + 1}",
        f"--as={limits.memory_mib * mib}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_mib * mib}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


async def _read_bounded(stream: asyncio.StreamReader | None, limit: int) -> tuple[bytes, bool]:
    if stream is None:
        return b"", False
    kept = bytearray()
    cut = False
    while chunk := await stream.read(65536):
        room = limit - len(kept)
        if room > 0:
            kept += chunk[:room]
        if len(chunk) > max(room, 0):
            cut = True
    return bytes(kept), cut


async def _feed(stdin: asyncio.StreamWriter | None, data: bytes | None) -> None:
    if stdin is None:
        return
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        if data:
            stdin.write(data)
            await stdin.drain()
        stdin.close()
        await stdin.wait_closed()


def _kill_group(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


async def run_bounded(
    argv: list[str],
    *,
    input: bytes | None = None,
    timeout: float | None,
    env: dict[str, str],
    cwd: str | None = None,
    user: int | None = None,
    output_limit: int = OUTPUT_LIMIT_BYTES,
    pass_fds: tuple[int, ...] = (),
) -> Finished:
    """Run ``argv`` in a session of its own; at ``timeout`` seconds the whole group is
    killed and the result says ``timed_out``.  ``user`` runs it as that host user (uid and
    gid alike, no supplementary groups; only a root process can).  Never raises for what the
    command does; cancelling the caller kills the group too.  ``pass_fds``: descriptors the
    command inherits (as :class:`subprocess.Popen`'s)."""
    process = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE if input is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        env=env,
        cwd=cwd,
        pass_fds=pass_fds,
        **({} if user is None else {"user": user, "group": user, "extra_groups": []}),  # type: ignore[arg-type]
    )
    work = asyncio.ensure_future(
        asyncio.gather(
            _read_bounded(process.stdout, output_limit),
            _read_bounded(process.stderr, output_limit),
            _feed(process.stdin, input),
            process.wait(),
        )
    )
    try:
        done, _ = await asyncio.wait({work}, timeout=timeout)
    except BaseException:
        _kill_group(process)
        work.cancel()
        raise
    if not done:
        _kill_group(process)
        # the pipes close with the group; a process that left the session may hold them
        _, pending = await asyncio.wait({work}, timeout=5)
        for left in pending:
            left.cancel()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        return Finished(returncode=-signal.SIGKILL, stdout=b"", stderr=b"", timed_out=True)
    (out, out_cut), (err, err_cut), _, code = work.result()
    _kill_group(process)  # whatever it left running in its session ends with it
    return Finished(code, out, err, truncated=out_cut or err_cut)
