"""The ``bubblewrap`` sandbox provider for inspect_ai (docs/stress-tests.md "Sandbox").

One sample (one stress task) gets a *holder*: a process that owns a user and a mount
namespace (``unshare``) in which the task's working directory is a tmpfs of ``disk_mib`` — so the
agent's files live in memory the size of its quota, never on the host's disk, and the host
never follows a link the agent planted.  Each ``exec`` then enters the holder's namespaces
(``nsenter``) and starts a fresh bubblewrap sandbox inside them:

* its own user (uid 65534 inside), PID, network (loopback only, nothing of the host's),
  IPC, UTS and cgroup namespaces, no further user namespaces, a new session;
* no environment of the server (``--clearenv``; ``PATH``, ``HOME=/work``, ``LANG``, ``TMPDIR``);
* read-only ``/usr`` (interpreters and libraries; ``/usr/local`` hidden) and the few ``/etc``
  files programs need, ``/proc`` of its own PID namespace, a minimal ``/dev``, a fresh
  ``/tmp``, and ``/work`` — the task's directory — read-write;
* limits set by ``prlimit`` inside the namespace: CPU time, address space, processes
  (counted in that namespace only), file size, open files; the wall-clock limit kills it all.

When the server runs as root, the holder and every command run as ``AAAF_SANDBOX_UID``
(default 65534) on the host too: never as root, never as the server's user.  Otherwise they
keep the server's user id outside their namespaces, where they can reach nothing of it.

When a command ends, its PID namespace ends with it: nothing an agent starts outlives its
call.  When the sample ends the holder is killed and the tmpfs is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import shutil
import subprocess
import tempfile
import time
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any, Literal, overload

from inspect_ai.util import (
    ExecResult,
    OutputLimitExceededError,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    SandboxUnavailableError,
    SandboxUserUnsupportedError,
    sandboxenv,
)
from pydantic import BaseModel, ConfigDict

from aaaf.stress.bounded_process import OUTPUT_LIMIT_BYTES, Finished, Limits, prlimit_argv, run_bounded

WORK = "/work"
SANDBOX_UID = 65534
DEFAULT_TIMEOUT = 60
HOST_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "mime.types")
"""What of the host's ``/etc`` a sandbox sees (read-only): what the dynamic linker and
Debian's alternatives need, the time zone; no users, hosts, keys or services."""
READ_LIMIT_BYTES = 64 * 1024 * 1024
TMP_BYTES = 16 * 1024 * 1024
# how long a call waits for the kernel to end what it left running in its PID namespace
NAMESPACE_EXIT_SECONDS = 5.0
"""The size of a sandbox's own ``/tmp`` and ``/dev/shm`` (memory, gone when the call ends)."""


class BubblewrapConfig(BaseModel):
    """The limits of one sandbox (defaults: the ``AAAF_SANDBOX_*`` settings)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    memory_mib: int = 1024
    processes: int = 64
    file_mib: int = 16
    open_files: int = 256
    disk_mib: int = 64
    host_uid: int | None = None
    """The host user commands run as (only a root server switches; None keeps its own)."""

    @classmethod
    def from_settings(cls) -> BubblewrapConfig:
        from aaaf.settings import get_settings

        settings = get_settings()
        return cls(
            memory_mib=settings.sandbox_memory_mib,
            processes=settings.sandbox_processes,
            file_mib=settings.sandbox_file_mib,
            open_files=settings.sandbox_open_files,
            disk_mib=settings.sandbox_disk_mib,
            host_uid=settings.sandbox_uid if os.geteuid() == 0 else None,
        )

    @property
    def limits(self) -> Limits:
        return Limits(self.memory_mib, self.processes, self.file_mib, self.open_files, self.disk_mib)


def _tool(name: str) -> str:
    found = shutil.which(name, path=HOST_PATH)
    if found is None:
        raise SandboxUnavailableError(f"{name} is not installed (Debian package: bubblewrap / util-linux)")
    return found


def holder_argv(directory: Path, config: BubblewrapConfig) -> list[str]:
    """The holder: a user and mount namespace in which ``directory`` is a tmpfs of the
    quota (it prints its pid, then sleeps; it dies with the process that started it)."""
    size = config.disk_mib * 1024 * 1024
    return [
        _tool("setpriv"), "--pdeathsig", "KILL", "--",
        _tool("unshare"), "--user", "--map-root-user", "--mount", "--propagation", "private",
        "/bin/sh", "-c", f'mount -t tmpfs -o size={size},mode=0755 tmpfs "$0" && echo $$ && exec sleep infinity',
        str(directory),
    ]  # fmt: skip


def sandbox_argv(
    holder_pid: int,
    directory: Path,
    config: BubblewrapConfig,
    cmd: list[str],
    *,
    cwd: str,
    env: dict[str, str],
    cpu_seconds: int,
    info_fd: int | None = None,
) -> list[str]:
    """One command in a fresh sandbox inside the holder's namespaces (module docstring);
    ``info_fd``: where bwrap writes its PID namespace's first process."""
    argv = [
        _tool("nsenter"), f"--target={holder_pid}", "--user", "--mount", "--preserve-credentials", "--",
        _tool("bwrap"),
        "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--disable-userns",
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
        "--hostname", "sandbox",
        *(() if info_fd is None else ("--info-fd", str(info_fd))),
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--ro-bind", "/usr", "/usr",
        "--tmpfs", "/usr/local", "--remount-ro", "/usr/local",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
        "--proc", "/proc", "--dev", "/dev",
        "--size", str(TMP_BYTES), "--tmpfs", "/dev/shm",
        "--size", str(TMP_BYTES), "--tmpfs", "/tmp",
        "--bind", str(directory), WORK,
    ]  # fmt: skip
    for name in ETC_FILES:
        if os.path.exists(f"/etc/{name}"):
            argv += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    # nothing else is writable: the sandbox's root and /dev are memory without a size
    argv += ["--remount-ro", "/dev", "--remount-ro", "/", "--clearenv"]
    fixed = {
        "PATH": "/usr/bin:/bin",
        "HOME": WORK,
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
        "PYTHONPYCACHEPREFIX": "/tmp/.pycache",  # compiled files never persist in /work
    }
    for name, value in {**fixed, **env}.items():
        argv += ["--setenv", name, value]
    argv += ["--chdir", cwd, "--", *prlimit_argv(config.limits, cpu_seconds), *cmd]
    return argv


def _as_user(uid: int | None) -> dict[str, Any]:
    """``subprocess`` arguments that run a child as host user ``uid`` (uid = gid, no groups)."""
    return {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}


def _work_path(path: str | None) -> str:
    """A path of the sandbox: relative ones are relative to ``/work``."""
    if path is None:
        return WORK
    posix = PurePosixPath(path)
    return str(posix if posix.is_absolute() else PurePosixPath(WORK) / posix)


def _host_env() -> dict[str, str]:
    return {"PATH": HOST_PATH, "LANG": "C.UTF-8"}


def _os_error(stderr: bytes, path: str) -> OSError:
    text = stderr.decode("utf-8", "replace").strip()
    for marker, kind in (
        ("No such file", FileNotFoundError),
        ("Is a directory", IsADirectoryError),
        ("Not a directory", NotADirectoryError),
        ("Permission denied", PermissionError),
        ("Read-only file system", PermissionError),
    ):
        if marker in text:
            return kind(errno.EIO, f"{path}: {marker.lower()}")
    if "No space left" in text:
        return OSError(errno.ENOSPC, "the working directory is full")
    return OSError(errno.EIO, f"{path}: {text.splitlines()[-1] if text else 'failed'}")


@sandboxenv(name="bubblewrap")
class BubblewrapSandboxEnvironment(SandboxEnvironment):
    """A stress task's sandbox (module docstring)."""

    def __init__(self, config: BubblewrapConfig, directory: Path, holder: asyncio.subprocess.Process) -> None:
        super().__init__()
        self.config = config
        self.directory = directory
        self.holder = holder
        self.holder_pid = 0

    # -- availability ------------------------------------------------------------------------

    @classmethod
    def aaaf_problem(cls) -> str | None:
        """Why a sandbox cannot be made here (None when one can): tried once per process."""
        return _probe(BubblewrapConfig.from_settings())

    @classmethod
    def config_deserialize(cls, config: dict[str, Any]) -> BaseModel:
        return BubblewrapConfig(**config)

    @classmethod
    async def task_init(cls, task_name: str, config: SandboxEnvironmentConfigType | None) -> None:
        problem = _probe(_config(config))
        if problem is not None:
            raise SandboxUnavailableError(f"bubblewrap sandbox: {problem}")

    # -- one sample --------------------------------------------------------------------------

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        return {"default": await cls.start(_config(config))}

    @classmethod
    async def start(cls, config: BubblewrapConfig) -> BubblewrapSandboxEnvironment:
        """A new sandbox with an empty working directory (its holder started)."""
        base = Path(tempfile.mkdtemp(prefix="aaaf-sandbox-"))
        directory = base / "work"
        directory.mkdir()
        if config.host_uid is not None:
            os.chown(base, config.host_uid, config.host_uid)
            os.chown(directory, config.host_uid, config.host_uid)
        holder = await asyncio.create_subprocess_exec(
            *holder_argv(directory, config),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=_host_env(),
            start_new_session=True,
            **_as_user(config.host_uid),
        )
        environment = cls(config, directory, holder)
        assert holder.stdout is not None
        try:
            line = await asyncio.wait_for(holder.stdout.readline(), 10)
            environment.holder_pid = int(line)
        except (TimeoutError, ValueError):
            error = b""
            with contextlib.suppress(Exception):
                holder.kill()
                error = await asyncio.wait_for(holder.stderr.read(), 2) if holder.stderr else b""
            await environment.stop()
            raise SandboxUnavailableError(
                "bubblewrap could not start: " + error.decode("utf-8", "replace").strip()
            ) from None
        return environment

    async def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.holder.kill()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.holder.wait(), 10)
        shutil.rmtree(self.directory.parent, ignore_errors=True)

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        for environment in environments.values():
            await environment.as_type(BubblewrapSandboxEnvironment).stop()

    # -- the interface -----------------------------------------------------------------------

    async def _run(
        self,
        cmd: list[str],
        *,
        input: bytes | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: int | None = None,
        output_limit: int | None = None,
    ) -> Finished:
        if self.holder.returncode is not None:
            raise SandboxUnavailableError("the sandbox's holder process has ended")
        seconds = timeout if timeout is not None else DEFAULT_TIMEOUT
        # bwrap answers for the command once it ends, while the kernel may still be killing what
        # the command left in its PID namespace: the call ends when that namespace's first
        # process is gone (the kernel lets it go only after every other one)
        info_read, info_write = os.pipe()
        try:
            argv = sandbox_argv(
                self.holder_pid,
                self.directory,
                self.config,
                cmd,
                cwd=_work_path(cwd),
                env=env or {},
                cpu_seconds=max(1, int(seconds)),
                info_fd=info_write,
            )
            finished = await run_bounded(
                argv,
                input=input,
                timeout=seconds,
                env=_host_env(),
                user=self.config.host_uid,
                output_limit=OUTPUT_LIMIT_BYTES if output_limit is None else output_limit,
                pass_fds=(info_write,),
            )
            os.close(info_write)
            info_write = -1
            await _namespace_gone(_first_process(info_read))
        finally:
            os.close(info_read)
            if info_write >= 0:
                os.close(info_write)
        return finished

    async def exec(
        self,
        cmd: list[str],
        input: str | bytes | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        user: str | None = None,
        timeout: int | None = None,
        timeout_retry: bool = True,
        concurrency: bool = True,
    ) -> ExecResult[str]:
        if user is not None:
            raise SandboxUserUnsupportedError("the bubblewrap sandbox runs every command as its own user")
        data = input.encode() if isinstance(input, str) else input
        finished = await self._run(cmd, input=data, cwd=cwd, env=env, timeout=timeout)
        if finished.timed_out:
            raise TimeoutError(f"timed out after {timeout or DEFAULT_TIMEOUT} s")
        return ExecResult(
            success=finished.returncode == 0,
            returncode=finished.returncode,
            stdout=finished.stdout.decode("utf-8", "replace"),
            stderr=finished.stderr.decode("utf-8", "replace"),
        )

    async def write_file(self, file: str, contents: str | bytes) -> None:
        data = contents.encode() if isinstance(contents, str) else contents
        path = _work_path(file)
        script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"'
        finished = await self._run(["/bin/sh", "-c", script, "sh", path], input=data, timeout=30)
        if finished.timed_out:
            raise TimeoutError(f"writing {file} timed out")
        if finished.returncode in (153, -25):  # SIGXFSZ: over the file size limit
            raise OSError(errno.EFBIG, f"{file}: over the file size limit of {self.config.file_mib} MiB")
        if finished.returncode != 0:
            raise _os_error(finished.stderr, file)

    @overload
    async def read_file(self, file: str, text: Literal[True] = True) -> str: ...

    @overload
    async def read_file(self, file: str, text: Literal[False]) -> bytes: ...

    async def read_file(self, file: str, text: bool = True) -> str | bytes:
        path = _work_path(file)
        finished = await self._run(["/bin/cat", "--", path], timeout=30, output_limit=READ_LIMIT_BYTES)
        if finished.timed_out:
            raise TimeoutError(f"reading {file} timed out")
        if finished.returncode != 0:
            raise _os_error(finished.stderr, file)
        if finished.truncated:
            raise OutputLimitExceededError(f"{READ_LIMIT_BYTES // (1024 * 1024)} MiB", None)
        return finished.stdout.decode("utf-8") if text else finished.stdout


def _first_process(info: int) -> int | None:
    """The host pid of a call's PID-namespace init, from what bwrap wrote to its ``--info-fd``
    as it started (None if it never did)."""
    os.set_blocking(info, False)
    text = b""
    with contextlib.suppress(BlockingIOError):  # all bwrap wrote is there: never wait for more
        while chunk := os.read(info, 4096):
            text += chunk
    try:
        pid = json.loads(text)["child-pid"]
    except (ValueError, KeyError, TypeError):
        return None
    return pid if isinstance(pid, int) else None


async def _namespace_gone(pid: int | None, seconds: float = NAMESPACE_EXIT_SECONDS) -> None:
    """Wait until ``pid`` has exited (gone or a zombie), at most ``seconds``."""
    if pid is None:
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    return
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return
        await asyncio.sleep(0.005)


def _config(config: SandboxEnvironmentConfigType | None) -> BubblewrapConfig:
    if isinstance(config, BubblewrapConfig):
        return config
    if config is None:
        return BubblewrapConfig.from_settings()
    raise SandboxUnavailableError(
        f"the bubblewrap sandbox takes its limits from the AAAF_SANDBOX_* settings, not {config!r}"
    )


@cache
def _probe(config: BubblewrapConfig) -> str | None:
    """Start a holder and run ``true`` in a sandbox, as a stress task would (once per process)."""
    try:
        for name in ("bwrap", "nsenter", "unshare", "setpriv"):
            _tool(name)
    except SandboxUnavailableError as error:
        return str(error)
    base = Path(tempfile.mkdtemp(prefix="aaaf-sandbox-probe-"))
    directory = base / "work"
    directory.mkdir()
    if config.host_uid is not None:
        os.chown(base, config.host_uid, config.host_uid)
        os.chown(directory, config.host_uid, config.host_uid)
    switch = _as_user(config.host_uid)
    holder = subprocess.Popen(
        holder_argv(directory, config),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_host_env(),
        start_new_session=True,
        **switch,
    )
    try:
        assert holder.stdout is not None
        line = holder.stdout.readline()
        if not line.strip().isdigit():
            holder.kill()
            _, said = holder.communicate(timeout=5)
            return f"no user namespace could be made here: {said.decode('utf-8', 'replace').strip()}"
        trial = subprocess.run(
            sandbox_argv(int(line), directory, config, ["/bin/true"], cwd=WORK, env={}, cpu_seconds=5),
            capture_output=True,
            env=_host_env(),
            timeout=30,
            **switch,
        )
        if trial.returncode != 0:
            return f"a trial command failed: {trial.stderr.decode('utf-8', 'replace').strip()}"
        return None
    except (OSError, subprocess.SubprocessError) as error:
        return f"a trial command failed: {error}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            holder.kill()
        with contextlib.suppress(Exception):
            holder.wait(5)
        shutil.rmtree(base, ignore_errors=True)
