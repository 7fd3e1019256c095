"""Issue 19's "Done when": an agent loop instrumented only with the OpenTelemetry SDK
(examples/otel_agent.py), pointed at ``aaaf serve`` by the standard exporter environment,
produces tasks and tool calls that ``aaaf assess`` scores — on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from tests.api.conftest import wait_for_status
from tests.otlp.conftest import agent_events

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "otel_agent.py"
TASKS = 40


def test_the_example_agent_is_assessed(live) -> None:
    org = live.organization()
    name = f"otel-agent-{uuid.uuid4().hex[:6]}"
    env = {
        **os.environ,
        "OTEL_EXPORTER_OTLP_ENDPOINT": live.base_url,
        "OTEL_EXPORTER_OTLP_HEADERS": f"Authorization=Bearer%20{org.key}",
    }
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--agent", name, "--tasks", str(TASKS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert not [
        line for line in EXAMPLE.read_text().splitlines() if line.startswith(("import aaaf", "from aaaf"))
    ]

    events = agent_events(org.client, name)
    kinds = [event["type"] for event in events]
    assert kinds.count("task_completed") == TASKS
    assert kinds.count("task_assigned") == TASKS
    assert kinds.count("tool_invoked") >= TASKS
    assert any(e["type"] == "tool_invoked" and e["data"]["error_recovered"] for e in events)

    # the CLI on the server's database (its organization by name)
    assessed = subprocess.run(
        [
            str(Path(sys.executable).parent / "aaaf"),
            "--org",
            org.name,
            "assess",
            name,
            "--type",
            "full",
            "--db",
            live.database_url,
            "--json",
            "--no-uncertainty",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "AAAF_DATABASE_URL": live.database_url},
    )
    assert assessed.returncode == 0, assessed.stdout + assessed.stderr
    result = json.loads(assessed.stdout)
    assert result["status"] == "completed", result
    assert result["performance"]["dimensions"]["task_completion_rate"]["sample_size"] == TASKS
    assert result["capability"]["dimensions"]["tool_proficiency"]["score"] is not None

    # and the API's trigger
    agent_id = org.client.get(f"/api/v1/agents/{name}").json()["id"]
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "full"})
    assert started.status_code == 202, started.text
    done = wait_for_status(org.client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    performance, capability = done["performance"], done["capability"]
    assert performance["dimensions"]["task_completion_rate"]["sample_size"] == TASKS
    assert performance["composite_score"] is not None
    assert capability["dimensions"]["tool_proficiency"]["score"] is not None
    assert capability["composite_score"] is not None

    # the evaluations are the trust scheme's accuracy observations (SCORING.md §3)
    trust = org.client.get(f"/api/v1/agents/{agent_id}/trust")
    assert trust.status_code == 200, trust.text
    accuracy = trust.json()["dimensions"]["accuracy"]
    assert accuracy["source"] == "eval_result"
    assert accuracy["observations"] == TASKS
    assert 0 < accuracy["score"] <= 100
