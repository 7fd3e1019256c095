"""Both adapters against real counterparts (issue 15 §3, §7): a real subprocess agent and a
loopback OpenAI-compatible server scripting tool calls; misbehaving agents end in a failure,
never in an exception."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from aaaf.stress.adapters import ChatCompletionsAgent, SubprocessAgent, run_episode
from aaaf.stress.grading import grade
from aaaf.stress.library import load_library
from aaaf.stress.tools import ToolEnvironment
from tests.stress.conftest import _Scripted

LIBRARY = load_library()
PY = sys.executable


def _episode(agent: Any, task_id: str, tmp_path: Path, **limits: float) -> tuple[Any, ToolEnvironment]:
    env = ToolEnvironment(LIBRARY.get(task_id).task, LIBRARY, tmp_path / "work")
    episode = asyncio.run(run_episode(agent, env, **limits))
    return episode, env


@pytest.mark.parametrize("task_id", ["probe-code-1", "autonomy-report-a0", "orchestration-incident"])
def test_the_oracle_subprocess_solves_tasks(tmp_path: Path, task_id: str) -> None:
    episode, env = _episode(
        SubprocessAgent(f"{PY} -m aaaf.stress.reference_agents oracle"), task_id, tmp_path
    )
    assert episode.failure is None
    assert (
        grade(env.task, episode.answer, env.workdir, env.calls, violations=env.violations).status
        == "accepted"
    )


@pytest.mark.parametrize(
    ("program", "failure"),
    [
        ("import time; time.sleep(60)", "hang"),
        ("import sys; sys.exit(3)", "crash"),
        ("print('hello, I am not JSON', flush=True)", "garbage"),
        ("print('[1, 2]', flush=True)", "garbage"),
        (
            "import json\nwhile True: print(json.dumps({'type': 'tool_call', 'tool': 'teleport'}), flush=True); input()",
            "limit",
        ),
    ],
)
def test_misbehaving_agents_end_the_episode_with_a_failure(
    tmp_path: Path, program: str, failure: str
) -> None:
    script = tmp_path / "agent.py"
    script.write_text(program)
    episode, env = _episode(SubprocessAgent(f"{PY} {script}"), "probe-legal-1", tmp_path, turn_timeout=1.0)
    assert episode.answer is None and episode.failure is not None
    assert episode.failure.startswith(failure)
    if failure == "limit":
        assert env.calls and all(c.tool == "teleport" and not c.success for c in env.calls)
    assert (
        grade(env.task, episode.answer, env.workdir, env.calls, failure=episode.failure).status == "rejected"
    )


def test_a_command_that_does_not_exist_is_a_crash(tmp_path: Path) -> None:
    episode, _ = _episode(
        SubprocessAgent("/nonexistent/agent-binary"), "probe-legal-1", tmp_path, turn_timeout=2
    )
    assert episode.failure is not None and episode.failure.startswith("crash")


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_the_chat_completions_adapter_runs_scripted_tool_calls(
    tmp_path: Path, chat_server: tuple[str, type[_Scripted]]
) -> None:
    url, handler = chat_server
    handler.script = [
        {"content": None, "tool_calls": [_call("a", "file_read", {"path": "contract.txt"})]},
        {"content": "30"},
    ]
    agent = ChatCompletionsAgent(url, "scripted-model", api_key="sk-test")
    episode, env = _episode(agent, "probe-legal-1", tmp_path)
    assert episode.failure is None and episode.answer == "30"
    assert grade(env.task, episode.answer, env.workdir, env.calls).status == "accepted"
    first, second = handler.requests
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer sk-test"
    assert first["body"]["model"] == "scripted-model"
    assert [t["function"]["name"] for t in first["body"]["tools"]] == ["file_read"]
    tool_message = second["body"]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "a"
    assert "30 days" in tool_message["content"]


@pytest.mark.parametrize(
    ("script", "failure"),
    [([{"status": 500}], "crash"), ([{"content": None}], "garbage")],
)
def test_a_broken_endpoint_ends_the_episode(
    tmp_path: Path, chat_server: tuple[str, type[_Scripted]], script: list[dict[str, Any]], failure: str
) -> None:
    url, handler = chat_server
    handler.script = script
    episode, _ = _episode(ChatCompletionsAgent(url, "m", api_key=""), "probe-legal-1", tmp_path)
    assert episode.failure is not None and episode.failure.startswith(failure)


def test_an_unreachable_endpoint_is_a_crash(tmp_path: Path) -> None:
    episode, _ = _episode(
        ChatCompletionsAgent("http://127.0.0.1:9/v1", "m", api_key=""), "probe-legal-1", tmp_path
    )
    assert episode.failure is not None and episode.failure.startswith("crash")
