"""``examples/python_agent_loop.py`` runs against the live server (issue 18 §3), SQLite and
PostgreSQL: its events arrive and an assessment scores the agent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from sdk_helpers import stored_event_keys

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "python_agent_loop.py"


def test_the_example_agent_loop_reports_its_work_and_is_assessed(live: Any) -> None:
    org = live.organization()
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--tasks", "40", "--assess"],
        env={**os.environ, "AAAF_BASE_URL": live.base_url, "AAAF_API_KEY": org.key},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    agent_id = re.search(r"agent (\S+): 120 events accepted, 0 duplicates, 0 rejected", done.stdout)
    assert agent_id, done.stdout
    keys = stored_event_keys(org.client, agent_id.group(1))
    assert len(keys) == 120  # 40 tasks x (assigned, one tool call, completed)
    assert sum(key.endswith("-tool-1") for key in keys) == 40
    assessed = re.search(r"assessment (\S+): completed, performance ([0-9.]+) \((\w+)\)", done.stdout)
    assert assessed, done.stdout
    body = org.client.get(f"/api/v1/assessments/{assessed.group(1)}").json()
    assert body["agent_id"] == agent_id.group(1) and body["status"] == "completed"
    assert body["performance"]["composite_score"] == float(assessed.group(2))
    assert body["performance"]["dimensions"]["task_completion_rate"]["sample_size"] == 40


def test_the_example_refuses_to_run_without_its_settings() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("AAAF_BASE_URL", "AAAF_API_KEY")}
    done = subprocess.run([sys.executable, str(EXAMPLE)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "AAAF_BASE_URL" in done.stderr
