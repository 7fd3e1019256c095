"""The ``none`` choice (``--sandbox none``): tool calls and graders on the host, in a
throw-away directory (docs/stress-tests.md "Sandbox").

Only for the CLI on a user's own machine, chosen explicitly (the service refuses it for any
task that runs code): commands run as the user, with a fixed environment (not the user's),
in the task's temporary directory, under the same CPU, memory, file-size and wall-clock
limits as in the bubblewrap sandbox — but with the user's files, processes and network in
reach, and nothing stops a command that leaves its session.  File tools resolve paths inside
the directory and refuse links that lead out of it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Literal, overload

from inspect_ai.util import (
    ExecResult,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    SandboxUserUnsupportedError,
    sandboxenv,
)

from aaaf.stress.bounded_process import Limits, prlimit_argv, run_bounded

DEFAULT_TIMEOUT = 60


@sandboxenv(name="aaaf_host")
class HostSandboxEnvironment(SandboxEnvironment):
    """A stress task's directory on the host (module docstring)."""

    def __init__(self, limits: Limits) -> None:
        super().__init__()
        self.limits = limits
        self.directory = Path(tempfile.mkdtemp(prefix="aaaf-host-")).resolve()

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        return {"default": await cls.start()}

    @classmethod
    async def start(cls) -> HostSandboxEnvironment:
        from aaaf.settings import get_settings

        settings = get_settings()
        return cls(
            Limits(
                memory_mib=settings.sandbox_memory_mib,
                processes=settings.sandbox_processes,
                file_mib=settings.sandbox_file_mib,
                open_files=settings.sandbox_open_files,
                disk_mib=settings.sandbox_disk_mib,
            )
        )

    async def stop(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        for environment in environments.values():
            await environment.as_type(HostSandboxEnvironment).stop()

    def _inside(self, name: str) -> Path:
        path = (self.directory / name).resolve()
        if path != self.directory and self.directory not in path.parents:
            raise PermissionError(f"{name!r} is outside the working directory")
        return path

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
            raise SandboxUserUnsupportedError("--sandbox none runs commands as the current user")
        seconds = timeout if timeout is not None else DEFAULT_TIMEOUT
        fixed = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.directory),
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        finished = await run_bounded(
            [*prlimit_argv(self.limits, max(1, int(seconds))), *cmd],
            input=input.encode() if isinstance(input, str) else input,
            timeout=seconds,
            env={**fixed, **(env or {})},
            cwd=str(self._inside(cwd or ".")),
        )
        if finished.timed_out:
            raise TimeoutError(f"timed out after {seconds} s")
        return ExecResult(
            success=finished.returncode == 0,
            returncode=finished.returncode,
            stdout=finished.stdout.decode("utf-8", "replace"),
            stderr=finished.stderr.decode("utf-8", "replace"),
        )

    async def write_file(self, file: str, contents: str | bytes) -> None:
        target = self._inside(file)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(contents.encode() if isinstance(contents, str) else contents)

    @overload
    async def read_file(self, file: str, text: Literal[True] = True) -> str: ...

    @overload
    async def read_file(self, file: str, text: Literal[False]) -> bytes: ...

    async def read_file(self, file: str, text: bool = True) -> str | bytes:
        data = self._inside(file).read_bytes()
        return data.decode("utf-8") if text else data

    @classmethod
    def config_deserialize(cls, config: dict[str, Any]) -> Any:
        return None
