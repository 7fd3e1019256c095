"""docs/agent-protocol.md's example agent is real: it is examples/echo_agent.py and it solves a task."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

from aaaf.stress.adapters import SubprocessAgent, run_episode
from aaaf.stress.grading import grade
from aaaf.stress.library import load_library
from aaaf.stress.tools import ToolEnvironment

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_example_agent_is_the_shipped_one_and_solves_a_task(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "agent-protocol.md").read_text(encoding="utf-8")
    match = re.search(r"## A complete agent in 30 lines.*?```python\n(.*?)```", doc, re.S)
    assert match is not None
    code = match.group(1)
    assert len(code.strip().splitlines()) <= 30
    assert code in (ROOT / "examples" / "echo_agent.py").read_text(encoding="utf-8")
    library = load_library()
    for task_id in ("probe-legal-2", "autonomy-config-a0"):
        env = ToolEnvironment(library.get(task_id).task, library, tmp_path / task_id)
        agent = SubprocessAgent(f"{sys.executable} {ROOT / 'examples' / 'echo_agent.py'}")
        episode = asyncio.run(run_episode(agent, env))
        assert episode.failure is None and episode.answer is not None
        graded = grade(env.task, episode.answer, env.workdir, env.calls, violations=env.violations)
        if task_id == "probe-legal-2":
            assert graded.status == "accepted", episode.answer
        else:  # it asks approval before each action: the checkpoints are respected
            assert graded.milestones[-1] == {"name": "checkpoints respected", "passed": True}
