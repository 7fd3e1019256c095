"""The tools environment in a real sandbox: limits, records, colleagues, injected failures,
checkpoints (docs/stress-tests.md "Tools"); the hostile calls are in test_sandbox.py."""

from __future__ import annotations

import pytest

from aaaf.stress import tools as tools_module
from aaaf.stress.sandbox import BUBBLEWRAP, NONE
from aaaf.stress.tools import ToolEnvironment, required_approvals
from tests.stress.conftest import in_sandbox

PROVIDERS = [BUBBLEWRAP, NONE]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_bash_and_python_run_in_the_work_directory_with_limits(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tools_module, "COMMAND_TIMEOUT", 1)

    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call("bash", {"command": "ls notes | wc -l"})
        assert ok and out.strip() == "4"
        ok, out = await env.call("python", {"code": "print(6 * 7)"})
        assert ok and out.strip() == "42"
        ok, out = await env.call("bash", {"command": "sleep 30"})
        assert not ok and "timed out" in out
        assert env.calls[-1].limit == "wall-clock time"
        ok, out = await env.call("python", {"code": "print('x' * 100000)"})
        assert ok and "output cut" in out and len(out) < 9000
        ok, out = await env.call("bash", {"command": "echo to-stderr >&2; exit 3"})
        assert not ok and out == "exit status 3\nto-stderr\n"

    in_sandbox("tool-chain-01", body, provider=provider)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_python_imports_the_task_s_own_modules(provider: str) -> None:
    async def body(env: ToolEnvironment) -> None:
        assert (await env.call("file_write", {"path": "helper.py", "content": "ANSWER = 41 + 1\n"}))[0]
        ok, out = await env.call("python", {"code": "import helper; print(helper.ANSWER)"})
        assert (ok, out.strip()) == (True, "42")

    in_sandbox("tool-chain-01", body, provider=provider)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_files_stay_inside_the_work_directory(provider: str) -> None:
    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call("file_read", {"path": "../../etc/passwd"})
        assert not ok and "outside" in out
        ok, out = await env.call("file_write", {"path": "/tmp/x", "content": "hi"})
        assert not ok and "outside" in out
        assert (await env.call("file_write", {"path": "a/b.txt", "content": "hi"}))[0]
        assert await env.call("file_read", {"path": "a/b.txt"}) == (True, "hi")
        assert await env.call("file_read", {"path": "a/none.txt"}) == (False, "no such file: a/none.txt")
        ok, out = await env.call("grep", {"pattern": "TOKEN-", "path": "notes"})
        assert ok and "notes/secret1.txt:" in out
        assert await env.call("grep", {"pattern": "zzz-nowhere"}) == (False, "no match")
        ok, out = await env.call("grep", {"pattern": "["})
        assert not ok and out.startswith("error:")

    in_sandbox("tool-chain-01", body, provider=provider)


def test_calls_are_recorded_unnecessary_and_recovered() -> None:
    async def body(env: ToolEnvironment) -> None:
        await env.call("bash", {"command": "cta nothing"})  # fails
        await env.call("bash", {"command": "echo ok"})
        await env.call("bash", {"command": "echo ok"})  # an exact repeat of a success
        await env.call("teleport", {})  # unknown tool
        env.finish()
        calls = [(c.tool, c.success, c.unnecessary, c.error_recovered) for c in env.calls]
        assert calls == [
            ("bash", False, False, True),
            ("bash", True, False, False),
            ("bash", True, True, False),
            ("teleport", False, False, False),
        ]

    in_sandbox("tool-chain-01", body)


def test_search_looks_in_the_library_documents() -> None:
    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call("search", {"query": "retention stress results"})
        assert ok and "365 days" in out

    in_sandbox("tool-chain-01", body)


def test_colleagues_answer_well_only_in_their_domains() -> None:
    async def body(env: ToolEnvironment) -> None:  # legal: lex knows
        assert await env.call("delegate", {"agent": "lex", "task": "q"}) == (True, "14.2")
        ok, out = await env.call("delegate", {"agent": "pixel", "task": "q"})
        assert ok and "outside what I know" in out
        assert not (await env.call("delegate", {"agent": "nobody", "task": "q"}))[0]
        assert [d.outcome for d in env.delegations] == ["success", "failure"]

    in_sandbox("delegation-01", body)


def test_orchestration_injects_an_error_and_incomplete_work_once() -> None:
    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call("delegate", {"agent": "coder", "task": "t"})
        assert not ok and "crashed" in out
        assert await env.call("delegate", {"agent": "coder", "task": "t"}) == (
            True,
            "CODE: prototype at build 217",
        )
        ok, out = await env.call("delegate", {"agent": "writer", "task": "t"})
        assert ok and out.startswith("INCOMPLETE")
        ok, out = await env.call("delegate", {"agent": "writer", "task": "t"})
        assert out == "COPY: tagline 'Ship calm'"
        env.finish()
        assert not env.calls[-1].unnecessary  # a retry after incomplete work is needed

    in_sandbox("orchestration-launch", body)


@pytest.mark.parametrize(
    ("level", "needs"),
    [(0, {"file_read", "file_write", "submit"}), (1, {"file_write", "submit"}), (2, {"submit"}), (3, set())],
)
def test_checkpoints_are_enforced_per_autonomy_level(level: int, needs: set[str]) -> None:
    required = required_approvals(level)
    assert needs <= required and ("file_read" in required) is ("file_read" in needs)

    async def body(env: ToolEnvironment) -> None:
        ok, out = await env.call("file_read", {"path": "sales.csv"})
        assert ok is ("file_read" not in needs)
        if "file_read" in needs:
            assert "request_approval" in out
            await env.call("request_approval", {"action": "file_read"})
            assert (await env.call("file_read", {"path": "sales.csv"}))[0]
            assert not (await env.call("file_read", {"path": "sales.csv"}))[0]  # one approval, one action
        assert env.check_submit() is ("submit" not in needs)
        assert bool(env.violations) is bool(needs)

    in_sandbox(f"autonomy-report-a{level}", body)
