"""Both adapters against real counterparts (issue 15 §3, §7): a real subprocess agent and a
loopback OpenAI-compatible server scripting tool calls; misbehaving agents end in a failure,
never in an exception."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from aaaf.stress import adapters
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


@pytest.fixture()
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Backoff in milliseconds: the retry policy is under test, not its waiting."""
    monkeypatch.setattr(adapters, "RETRY_BACKOFF", 0.01)
    monkeypatch.setattr(adapters, "RETRY_BACKOFF_MAX", 0.02)


@pytest.mark.parametrize(
    ("script", "failure"),
    [([{"status": 400}], "crash"), ([{"content": None}], "garbage")],
)
def test_a_broken_endpoint_ends_the_episode(
    chat_server: tuple[str, type[_Scripted]], script: list[dict[str, Any]], failure: str
) -> None:
    url, handler = chat_server
    handler.script = script
    episode, _, _ = play(ChatCompletionsAgent(url, "m", api_key=""), "probe-legal-1")
    assert episode.failure is not None and episode.failure.startswith(failure)
    assert not episode.infrastructure_failed
    assert len(handler.requests) == 1  # the agent's own errors are not retried


ANSWER = [
    {"content": None, "tool_calls": [_call("a", "file_read", {"path": "contract.txt"})]},
    {"content": "30"},
]


def test_a_provider_that_answers_429_twice_then_succeeds_leaves_the_grade_unchanged(
    chat_server: tuple[str, type[_Scripted]],
) -> None:
    url, handler = chat_server
    handler.script = list(ANSWER)
    _, plain_env, plain = play(ChatCompletionsAgent(url, "m", api_key=""), "probe-legal-1")
    handler.requests.clear()
    limited = {"status": 429, "headers": {"Retry-After": "0"}}
    handler.script = [limited, limited, *ANSWER]
    agent = ChatCompletionsAgent(url, "m", api_key="")
    episode, env, graded = play(agent, "probe-legal-1")
    assert episode.failure is None and not episode.infrastructure_failed
    assert graded.to_dict() == plain.to_dict() and graded.status == "accepted"
    assert len(handler.requests) == 4 and agent.provider_retries == 2
    # the same request was sent again, and nothing of the retries reached the tools' record
    assert handler.requests[0]["body"] == handler.requests[2]["body"]
    assert [c.to_dict() for c in env.calls] == [c.to_dict() for c in plain_env.calls]


def test_retry_after_is_honoured(chat_server: tuple[str, type[_Scripted]]) -> None:
    url, handler = chat_server
    handler.script = [{"status": 503, "headers": {"Retry-After": "0.3"}}, *ANSWER]
    agent = ChatCompletionsAgent(url, "m", api_key="")
    episode, _, graded = play(agent, "probe-legal-1")
    assert graded.status == "accepted" and agent.provider_retries == 1
    # the wait is the provider's, counted apart from the agent's time
    assert agent.provider_wait_seconds >= 0.3 and episode.provider_wait_seconds >= 0.3


@pytest.mark.parametrize(
    "step",
    [{"status": 503}, {"status": 429, "headers": {"Retry-After": "3600"}}],
    ids=["keeps-failing", "retry-after-beyond-budget"],
)
def test_a_provider_that_keeps_failing_makes_the_task_infrastructure_failed(
    chat_server: tuple[str, type[_Scripted]], quick_retries: None, step: dict[str, Any]
) -> None:
    url, handler = chat_server
    handler.script = [step]
    episode, _, _ = play(ChatCompletionsAgent(url, "m", api_key=""), "probe-legal-1")
    assert episode.infrastructure_failed and episode.answer is None
    assert episode.failure is not None and episode.failure.startswith("provider:")
    expected = 1 if "Retry-After" in step.get("headers", {}) else adapters.RETRY_ATTEMPTS
    assert len(handler.requests) == expected


def test_an_unreachable_endpoint_is_the_provider_s_failure(quick_retries: None) -> None:
    episode, _, _ = play(ChatCompletionsAgent("http://127.0.0.1:9/v1", "m", api_key=""), "probe-legal-1")
    assert episode.infrastructure_failed
    assert episode.failure is not None and "could not be reached" in episode.failure


def test_malformed_tool_call_arguments_are_a_failed_call_the_model_recovers_from(
    chat_server: tuple[str, type[_Scripted]],
) -> None:
    url, handler = chat_server
    broken = {"id": "x", "type": "function", "function": {"name": "file_read", "arguments": '{"path": '}}
    handler.script = [{"content": None, "tool_calls": [broken]}, *ANSWER]
    episode, env, graded = play(ChatCompletionsAgent(url, "m", api_key=""), "probe-legal-1")
    assert episode.failure is None and graded.status == "accepted"
    failed, good = env.calls
    assert failed.tool == "file_read" and not failed.success and failed.error_recovered
    assert "not valid JSON" in failed.output and good.success
    told = handler.requests[1]["body"]["messages"][-1]
    assert told["role"] == "tool" and told["tool_call_id"] == "x"
    assert told["content"].startswith("ERROR: bad arguments for file_read")
