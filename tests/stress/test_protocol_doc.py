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
