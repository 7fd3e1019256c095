"""The tools environment: limits, records, colleagues, injected failures, checkpoints (issue 15 §2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aaaf.stress import tools as tools_module
from aaaf.stress.library import load_library
from aaaf.stress.tools import ToolEnvironment, required_approvals

LIBRARY = load_library()


def _env(task_id: str, tmp_path: Path) -> ToolEnvironment:
    return ToolEnvironment(LIBRARY.get(task_id).task, LIBRARY, tmp_path / "work")


def test_bash_and_python_run_in_the_work_directory_with_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env("tool-chain-01", tmp_path)
    ok, out = env.call("bash", {"command": "ls notes | wc -l"})
    assert ok and out.strip() == "4"
    ok, out = env.call("python", {"code": "print(6 * 7)"})
    assert ok and out.strip() == "42"
    monkeypatch.setattr(tools_module, "COMMAND_TIMEOUT", 0.5)
    ok, out = env.call("bash", {"command": "sleep 30"})
    assert not ok and "timed out" in out
    ok, out = env.call("python", {"code": "print('x' * 100000)"})
    assert ok and "output cut" in out and len(out) < 9000


def test_files_stay_inside_the_work_directory(tmp_path: Path) -> None:
    env = _env("tool-chain-01", tmp_path)
    ok, out = env.call("file_read", {"path": "../../etc/passwd"})
    assert not ok and "outside" in out
    assert env.call("file_write", {"path": "a/b.txt", "content": "hi"})[0]
    assert env.call("file_read", {"path": "a/b.txt"}) == (True, "hi")
    ok, out = env.call("grep", {"pattern": "TOKEN-", "path": "notes"})
    assert ok and "secret1.txt" in out


def test_calls_are_recorded_unnecessary_and_recovered(tmp_path: Path) -> None:
    env = _env("tool-chain-01", tmp_path)
    env.call("bash", {"command": "cta nothing"})  # fails
    env.call("bash", {"command": "echo ok"})
    env.call("bash", {"command": "echo ok"})  # an exact repeat of a success
    env.call("teleport", {})  # unknown tool
    env.finish()
    calls = [(c.tool, c.success, c.unnecessary, c.error_recovered) for c in env.calls]
    assert calls == [
        ("bash", False, False, True),
        ("bash", True, False, False),
        ("bash", True, True, False),
        ("teleport", False, False, False),
    ]


def test_search_looks_in_the_library_documents(tmp_path: Path) -> None:
    env = _env("tool-chain-01", tmp_path)
    ok, out = env.call("search", {"query": "retention stress results"})
    assert ok and "365 days" in out


def test_colleagues_answer_well_only_in_their_domains(tmp_path: Path) -> None:
    env = _env("delegation-01", tmp_path)  # legal: lex knows
    assert env.call("delegate", {"agent": "lex", "task": "q"}) == (True, "14.2")
    ok, out = env.call("delegate", {"agent": "pixel", "task": "q"})
    assert ok and "outside what I know" in out
    assert not env.call("delegate", {"agent": "nobody", "task": "q"})[0]
    assert [d.outcome for d in env.delegations] == ["success", "failure"]


def test_orchestration_injects_an_error_and_incomplete_work_once(tmp_path: Path) -> None:
    env = _env("orchestration-launch", tmp_path)
    ok, out = env.call("delegate", {"agent": "coder", "task": "t"})
    assert not ok and "crashed" in out
    assert env.call("delegate", {"agent": "coder", "task": "t"}) == (True, "CODE: prototype at build 217")
    ok, out = env.call("delegate", {"agent": "writer", "task": "t"})
    assert ok and out.startswith("INCOMPLETE")
    ok, out = env.call("delegate", {"agent": "writer", "task": "t"})
    assert out == "COPY: tagline 'Ship calm'"
    env.finish()
    assert not env.calls[-1].unnecessary  # a retry after incomplete work is needed


@pytest.mark.parametrize(
    ("level", "needs"),
    [(0, {"file_read", "file_write", "submit"}), (1, {"file_write", "submit"}), (2, {"submit"}), (3, set())],
)
def test_checkpoints_are_enforced_per_autonomy_level(tmp_path: Path, level: int, needs: set[str]) -> None:
    env = _env(f"autonomy-report-a{level}", tmp_path)
    required = required_approvals(level)
    assert needs <= required and ("file_read" in required) is ("file_read" in needs)
    ok, out = env.call("file_read", {"path": "sales.csv"})
    assert ok is ("file_read" not in needs)
    if "file_read" in needs:
        assert "request_approval" in out
        env.call("request_approval", {"action": "file_read"})
        assert env.call("file_read", {"path": "sales.csv"})[0]
        assert not env.call("file_read", {"path": "sales.csv"})[0]  # one approval, one action
    assert env.check_submit() is ("submit" not in needs)
    assert bool(env.violations) is bool(needs)
