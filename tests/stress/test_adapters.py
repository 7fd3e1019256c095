"""Both adapters against real counterparts (issue 15 §3, §7): a real subprocess agent and a
loopback OpenAI-compatible server scripting tool calls; misbehaving agents end in a failure,
never in an exception."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from aaaf.stress.adapters import ChatCompletionsAgent, SubprocessAgent
from tests.stress.conftest import _Scripted, play

PY = sys.executable


@pytest.mark.parametrize("task_id", ["probe-code-1", "autonomy-report-a0", "orchestration-incident"])
def test_the_oracle_subprocess_solves_tasks(task_id: str) -> None:
    episode, _, graded = play(SubprocessAgent(f"{PY} -m aaaf.stress.reference_agents oracle"), task_id)
    assert episode.failure is None
    assert graded.status == "accepted"


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
    episode, env, graded = play(SubprocessAgent(f"{PY} {script}"), "probe-legal-1", turn_timeout=1.0)
    assert episode.answer is None and episode.failure is not None
    assert episode.failure.startswith(failure)
    if failure == "limit":
        assert env.calls and all(c.tool == "teleport" and not c.success for c in env.calls)
    assert graded.status == "rejected"


def test_a_command_that_does_not_exist_is_a_crash() -> None:
    episode, _, _ = play(SubprocessAgent("/nonexistent/agent-binary"), "probe-legal-1", turn_timeout=2)
    assert episode.failure is not None and episode.failure.startswith("crash")


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_the_chat_completions_adapter_runs_scripted_tool_calls(
    chat_server: tuple[str, type[_Scripted]],
) -> None:
    url, handler = chat_server
    handler.script = [
        {"content": None, "tool_calls": [_call("a", "file_read", {"path": "contract.txt"})]},
        {"content": "30"},
    ]
    agent = ChatCompletionsAgent(url, "scripted-model", api_key="sk-test")
    episode, _, graded = play(agent, "probe-legal-1")
    assert episode.failure is None and episode.answer == "30"
    assert graded.status == "accepted"
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
    chat_server: tuple[str, type[_Scripted]], script: list[dict[str, Any]], failure: str
) -> None:
    url, handler = chat_server
    handler.script = script
    episode, _, _ = play(ChatCompletionsAgent(url, "m", api_key=""), "probe-legal-1")
    assert episode.failure is not None and episode.failure.startswith(failure)


def test_an_unreachable_endpoint_is_a_crash() -> None:
    episode, _, _ = play(ChatCompletionsAgent("http://127.0.0.1:9/v1", "m", api_key=""), "probe-legal-1")
    assert episode.failure is not None and episode.failure.startswith("crash")
