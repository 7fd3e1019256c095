"""Choosing the sandbox (docs/stress-tests.md "Sandbox"): ``AAAF_SANDBOX`` selects an inspect_ai
provider by name — ours, inspect's, or one a test registers —; "no sandbox, no code": a run
whose tasks execute code is refused before anything runs when its sandbox is missing, and the
service never accepts ``none`` for it; the CLI's ``--sandbox none`` says what it means."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from inspect_ai.util import ExecResult, SandboxEnvironment, SandboxEnvironmentConfigType, sandboxenv

from aaaf.errors import AAAFError
from aaaf.settings import Settings
from aaaf.stress.host_sandbox import HostSandboxEnvironment
from aaaf.stress.library import load_library
from aaaf.stress.runner import AgentSpec, run_suite
from aaaf.stress.sandbox import (
    BUBBLEWRAP,
    HOST_PROVIDER,
    SandboxChoice,
    executes_code,
    require_sandbox,
)

LIBRARY = load_library()
CODE_TASK = "probe-code-1"
AAAF = str(Path(sys.executable).with_name("aaaf"))


def _tasks(*ids: str) -> list[Any]:
    return [LIBRARY.get(task_id).task for task_id in ids]


@sandboxenv(name="aaaf_test_recording")
class RecordingSandbox(HostSandboxEnvironment):
    """A second provider, registered by these tests: the host's, recording every command."""

    commands: ClassVar[list[list[str]]] = []

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        return {"default": await cls.start()}

    async def exec(self, cmd: list[str], *args: Any, **kwargs: Any) -> ExecResult[str]:
        type(self).commands.append(cmd)
        return await super().exec(cmd, *args, **kwargs)


@sandboxenv(name="aaaf_test_broken")
class BrokenSandbox(HostSandboxEnvironment):
    """A provider that says it cannot work here (as bubblewrap does without user namespaces)."""

    @classmethod
    def aaaf_problem(cls) -> str | None:
        return "no user namespaces on this kernel"


def test_which_tasks_execute_code() -> None:
    coding = {loaded.task.id for loaded in LIBRARY.tasks if executes_code(loaded.task)}
    assert CODE_TASK in coding and "tool-chain-01" in coding  # unit_tests check; bash tool
    assert "probe-legal-1" not in coding and "delegation-01" not in coding  # answers, files, colleagues


@pytest.mark.parametrize("name", ["none", "local"])  # inspect_ai's local provider is no sandbox either
def test_the_service_never_runs_code_without_a_sandbox(name: str) -> None:
    settings = Settings(sandbox=name)
    with pytest.raises(AAAFError) as refused:
        require_sandbox(_tasks("probe-legal-1", CODE_TASK), settings, service=True)
    assert refused.value.code == "SANDBOX_UNAVAILABLE" and refused.value.http_status == 503
    assert refused.value.details == {"setting": "AAAF_SANDBOX", "sandbox": "none", "tasks_executing_code": 1}
    assert "AAAF_SANDBOX" in refused.value.message
    # tasks that run no code may run without one; the CLI may choose none for any task
    assert require_sandbox(_tasks("probe-legal-1"), settings, service=True).provider == HOST_PROVIDER
    assert require_sandbox(_tasks(CODE_TASK), settings, service=False).on_host


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("aaaf_test_broken", "no user namespaces on this kernel"),
        ("no-such-provider", "SandboxEnvironment type 'no-such-provider' not recognized"),
    ],
)
def test_a_sandbox_that_cannot_run_here_refuses_code_before_anything_runs(name: str, problem: str) -> None:
    for service in (True, False):
        with pytest.raises(AAAFError) as refused:
            require_sandbox(_tasks(CODE_TASK), Settings(sandbox=name), service=service)
        assert refused.value.code == "SANDBOX_UNAVAILABLE"
        assert (
            refused.value.details["setting"] == "AAAF_SANDBOX" and problem in refused.value.details["problem"]
        )


def test_bubblewrap_is_the_default_and_works_here() -> None:
    choice = require_sandbox(_tasks(CODE_TASK), Settings(), service=True)
    assert choice == SandboxChoice(BUBBLEWRAP)


def test_a_provider_registered_by_name_runs_every_tool_call_and_grader(tmp_path: Path) -> None:
    """The selection path end to end: inspect_ai's eval, with the provider the setting names."""
    RecordingSandbox.commands.clear()
    choice = require_sandbox(_tasks(CODE_TASK), Settings(sandbox="aaaf_test_recording"), service=True)
    suite = run_suite(
        AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents oracle"),
        task_ids=[CODE_TASK],
        log_dir=tmp_path,
        sandbox=choice,
    )
    (record,) = suite.records
    assert record["grade"]["status"] == "accepted" and record["sandbox"] == "aaaf_test_recording"
    ran = [" ".join(command) for command in RecordingSandbox.commands]
    assert any("python3 -B -c" in command and "import sys" in command for command in ran)  # the unit tests
    assert len(ran) >= 2  # the agent's calls and the grader's, all through the provider


def _aaaf(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [AAAF, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1", **env},
    )


def test_the_cli_says_what_sandbox_none_means_and_refuses_a_missing_sandbox(
    tmp_path: Path, sqlite_at_head: Path
) -> None:
    db = str(sqlite_at_head)
    oracle = f"{AAAF} reference-agent oracle"
    run = _aaaf("stress-test", "me", "--agent-cmd", oracle, "--task", CODE_TASK, "--sandbox", "none", "--db", db, "--json", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "warning: --sandbox none: the agent's bash and python tool calls" in " ".join(run.stderr.split())
    assert json.loads(run.stdout)["summary"]["sandbox"] == "none"
    missing = _aaaf("stress-test", "me", "--agent-cmd", oracle, "--task", CODE_TASK, "--db", db, "--json", cwd=tmp_path, AAAF_SANDBOX="docker-nowhere")  # fmt: skip
    assert missing.returncode == 2
    error = json.loads(missing.stderr)["error"]
    assert error["code"] == "SANDBOX_UNAVAILABLE" and error["details"]["setting"] == "AAAF_SANDBOX"
    runs = _aaaf("stress-runs", "me", "--db", db, "--json", cwd=tmp_path)
    assert len(json.loads(runs.stdout)) == 1  # the refused run was never started
    default = _aaaf("stress-test", "me", "--agent-cmd", oracle, "--task", CODE_TASK, "--db", db, "--json", cwd=tmp_path)  # fmt: skip
    assert default.returncode == 0 and "warning" not in default.stderr
    summary = json.loads(default.stdout)["summary"]
    assert summary["sandbox"] == "bubblewrap" and summary["statuses"] == {"accepted": 1}
