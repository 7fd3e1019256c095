"""docs/agent-protocol.md's example agent is real: it is examples/echo_agent.py and it solves a task."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from aaaf.stress.adapters import SubprocessAgent
from tests.stress.conftest import play

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_example_agent_is_the_shipped_one_and_solves_a_task() -> None:
    doc = (ROOT / "docs" / "agent-protocol.md").read_text(encoding="utf-8")
    match = re.search(r"## A complete agent in 30 lines.*?```python\n(.*?)```", doc, re.S)
    assert match is not None
    code = match.group(1)
    assert len(code.strip().splitlines()) <= 30
    assert code in (ROOT / "examples" / "echo_agent.py").read_text(encoding="utf-8")
    for task_id in ("probe-legal-2", "autonomy-config-a0"):
        agent = SubprocessAgent(f"{sys.executable} {ROOT / 'examples' / 'echo_agent.py'}")
        episode, _, graded = play(agent, task_id)
        assert episode.failure is None and episode.answer is not None
        if task_id == "probe-legal-2":
            assert graded.status == "accepted", episode.answer
        else:  # it asks approval before each action: the checkpoints are respected
            assert graded.milestones[-1] == {"name": "checkpoints respected", "passed": True}


def test_the_protocol_doc_says_what_the_harness_does() -> None:
    """Every tool is documented, the chat adapter's system message is quoted as it is sent,
    and the retry policy's numbers are the adapter's."""
    import asyncio

    from aaaf.stress import adapters
    from aaaf.stress.tools import TOOL_SPECS

    doc = (ROOT / "docs" / "agent-protocol.md").read_text(encoding="utf-8")
    flat = " ".join(doc.split())
    for tool in TOOL_SPECS:
        assert f"| `{tool}` |" in doc, tool
    agent = adapters.ChatCompletionsAgent("http://127.0.0.1:9/v1", "m", api_key="")
    task = {"prompt": "p", "files": [], "tools": [], "checkpoints": ["A", "B", "submit"]}

    async def start() -> str:
        await agent.start(task)
        await agent.close()
        return str(agent.messages[0]["content"])

    system = asyncio.run(start())
    plain, _, checkpoints = system.partition(" Before")
    assert " ".join(plain.split()) in flat and f"Before{checkpoints}" in flat
    assert f"up to **{adapters.RETRY_ATTEMPTS} attempts**" in flat
    assert (
        f"else {adapters.RETRY_BACKOFF:g} s" in flat and f"(at most {adapters.RETRY_BACKOFF_MAX:g} s)" in flat
    )
    assert f"**{adapters.PROVIDER_BUDGET:g} s** in all" in flat
