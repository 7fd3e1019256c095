"""Shared helpers for the workflow CLI, service and determinism tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from aaaf.cli.commands import workflow as workflow_commands
from aaaf.demo.workflow import sample_events

DEMO_NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)


def workflow_cli() -> typer.Typer:
    """A Typer app holding only `aaaf workflow` (the command module as main.py registers it)."""
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """aaaf"""

    workflow_commands.register(app)
    return app


def run_event(agent: str, task_id: str, timestamp: str, **data: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "task_id": task_id,
        "dag_steps": 4,
        "steps_completed": 4,
        "output_quality": 1.0,
        "actual_cost": 0.0,
        "max_budget": 1.0,
        "actual_seconds": 0.0,
        "max_latency_seconds": 60.0,
        "declared_retry_budget": 0,
        "actual_retries": 0,
        "timeouts": 0,
        "hard_failures": 0,
    }
    payload.update(data)
    return {"agent": agent, "type": "workflow_run", "timestamp": timestamp, "data": payload}


def write_jsonl(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    return path


@pytest.fixture
def cli() -> Callable[..., Any]:
    runner = CliRunner()
    app = workflow_cli()

    def invoke(*args: str) -> Any:
        return runner.invoke(app, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture(scope="session")
def demo_events() -> list[dict[str, Any]]:
    return sample_events(now=DEMO_NOW, seed=0)
