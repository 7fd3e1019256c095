"""Output for pipes and CI logs (issue 21, Why 8): tables are never cut.

When stdout is not a terminal, a table is as wide as its content, whatever ``COLUMNS`` says:
ids and numbers come out whole.  On a terminal it fits the terminal's width and a cell too
wide for its column folds (no "…").
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from rich.table import Table
from typer.testing import CliRunner

from aaaf.cli.context import CliConsole
from aaaf.cli.main import app
from tests.cli.events_factory import NOW, agent_log, write_jsonl
from tests.workflow.conftest import run_event

runner = CliRunner()
ELLIPSIS = "…"


@pytest.fixture(autouse=True)
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The case of the issue: a narrow COLUMNS, and nothing that pretends to be a terminal."""
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(app, [*args, "--db", db])


def _assessed(db: str, tmp_path: Path, name: str = "a-rather-long-agent-name-for-a-narrow-log") -> str:
    log = write_jsonl(tmp_path / "fleet.jsonl", agent_log(name, 36))
    assert aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll").exit_code == 0
    first = aaaf(db, "assess", name, "--window-end", NOW.isoformat())
    assert first.exit_code == 0, first.output
    second = aaaf(db, "assess", name, "--window-end", NOW.isoformat())
    assert second.exit_code == 0, second.output
    return name


def test_assessments_piped_prints_every_id_whole(store_url: str, tmp_path: Path) -> None:
    name = _assessed(store_url, tmp_path)
    listed = json.loads(aaaf(store_url, "assessments", name, "--json").stdout)
    ids = [row["id"] for row in listed]
    assert len(ids) == 2
    table = aaaf(store_url, "assessments", name)
    assert table.exit_code == 0, table.output
    for assessment_id in ids:
        assert assessment_id in table.stdout
    assert ELLIPSIS not in table.stdout
    # one row per assessment: the id is on one line with its status and scores
    rows = [line for line in table.stdout.splitlines() if any(i in line for i in ids)]
    assert len(rows) == 2 and all("completed" in row and "passive_only" in row for row in rows)


def test_assess_and_agents_piped_are_whole(store_url: str, tmp_path: Path) -> None:
    name = _assessed(store_url, tmp_path)
    shown = aaaf(store_url, "assess", name, "--window-end", NOW.isoformat())
    assert shown.exit_code == 0, shown.output
    assert ELLIPSIS not in shown.stdout
    assert "task_completion_rate" in shown.stdout and "review_compliance" in shown.stdout
    agents = aaaf(store_url, "agents")
    assert name in agents.stdout and ELLIPSIS not in agents.stdout


def test_workflow_score_piped_prints_numbers_whole(tmp_path: Path) -> None:
    runs = write_jsonl(
        tmp_path / "runs.jsonl",
        [
            # S = 0.6575 (tests/workflow/test_workflow_cli.py works it out): shown 0.657
            run_event(
                "alice",
                "t1",
                "2026-11-01T10:00:00Z",
                steps_completed=3,
                actual_cost=0.5,
                max_budget=2.0,
                actual_seconds=30.0,
                declared_retry_budget=2,
                actual_retries=3,
                timeouts=1,
                hard_failures=1,
            ),
            run_event("alice", "t2", "2026-11-01T11:00:00Z"),
        ],
    )
    result = runner.invoke(app, ["workflow", "score", str(runs)])
    assert result.exit_code == 0, result.output
    assert ELLIPSIS not in result.stdout
    row = next(line for line in result.stdout.splitlines() if "t1" in line)
    # S, succ, cost, lat, rel — each whole, on the run's own line
    for number in ("0.657", "0.750", "0.500"):
        assert number in row
    weights = runner.invoke(app, ["workflow", "weights", str(runs)])
    assert weights.exit_code == 0 and ELLIPSIS not in weights.stdout
    assert "100.00 %" in weights.stdout


def test_real_pipe_of_the_console_script(tmp_path: Path) -> None:
    """The installed entry point with stdout a pipe (not CliRunner's capture)."""
    db = str(tmp_path / "pipe.db")
    name = "an-agent-with-a-name-longer-than-forty-columns"
    env = {**os.environ, "COLUMNS": "40"}
    env.pop("FORCE_COLOR", None)
    command = [sys.executable, "-m", "aaaf.cli.main"]
    enrolled = subprocess.run(
        [*command, "enroll", name, "--db", db], capture_output=True, text=True, env=env, check=False
    )
    assert enrolled.returncode == 0, enrolled.stderr
    listed = subprocess.run(
        [*command, "agents", "--db", db], capture_output=True, text=True, env=env, check=False
    )
    assert listed.returncode == 0, listed.stderr
    assert name in listed.stdout and ELLIPSIS not in listed.stdout


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_tables_fit_and_fold_instead_of_cutting() -> None:
    ids = [str(uuid.uuid4()) for _ in range(3)]
    table = Table(title="Assessments")
    for column in ("id", "type", "status", "score"):
        table.add_column(column)
    table.add_column("precise", no_wrap=True, justify="right")
    for assessment_id in ids:
        table.add_row(assessment_id, "passive_only", "completed", "0.71 Proficient", "0.712345678")
    screen = _Terminal()
    CliConsole(file=screen, width=40, color_system=None, highlight=False, soft_wrap=True).print(table)
    text = screen.getvalue()
    assert ELLIPSIS not in text
    assert max(len(line) for line in text.splitlines()) <= 40
    # every character of every id is on the screen, folded over lines of its column
    id_column = "".join(line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│"))
    for assessment_id in ids:
        assert assessment_id in id_column


def test_on_a_narrow_terminal_no_wrap_columns_fold_rather_than_vanish() -> None:
    headers = ("agent", "task", "S", "succ", "cost", "lat", "rel")
    values = ("wf-eridanus-long", "task-000123", "0.657", "0.750", "0.750", "0.500", "0.199")
    table = Table(box=None)  # as `aaaf workflow score` draws its runs
    for header in headers:
        table.add_column(header, no_wrap=True, justify="right")
    table.add_row(*values)
    screen = _Terminal()
    CliConsole(file=screen, width=30, color_system=None, highlight=False, soft_wrap=True).print(table)
    text = screen.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 30
    # folded, every character is still there (cropping would lose the right-hand columns)
    shown = "".join(text.split())
    assert len(shown) == sum(len(item) for item in (*headers, *values))
    assert ELLIPSIS not in text


def test_not_a_terminal_ignores_columns() -> None:
    value = "9" * 120
    table = Table()
    table.add_column("n", no_wrap=True)
    table.add_row(value)
    out = io.StringIO()
    CliConsole(file=out, width=40, highlight=False, soft_wrap=True).print(table)
    assert value in out.getvalue()
