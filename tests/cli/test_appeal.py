"""The same appeal cannot be filed twice (issue 21, Why 9; SCORING.md §7 "appeal already open")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from aaaf.cli.main import app
from tests.cli.events_factory import agent_log, write_jsonl

runner = CliRunner()


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(app, [*args, "--db", db])


def _file(db: str, assessment_id: str, *extra: str) -> Any:
    return aaaf(
        db,
        "appeal",
        "file",
        assessment_id,
        "--dimensions",
        "accuracy",
        "--justification",
        "the revision was a scope change",
        "--task",
        "coder-000",
        *extra,
    )


def test_a_second_open_appeal_is_refused_until_the_first_is_decided(store_url: str, tmp_path: Path) -> None:
    log = write_jsonl(tmp_path / "log.jsonl", agent_log("coder", 36))
    assert aaaf(store_url, "collect", "--source", "task_logs", str(log), "--enroll").exit_code == 0
    assessed = aaaf(store_url, "assess", "coder", "--json")
    assert assessed.exit_code == 0, assessed.output
    assessment_id = json.loads(assessed.stdout)["id"]

    first = _file(store_url, assessment_id, "--json")
    assert first.exit_code == 0, first.output
    first_id = json.loads(first.stdout)["id"]

    twice = _file(store_url, assessment_id)
    assert twice.exit_code == 2
    assert "APPEAL_NOT_ALLOWED" in twice.output and "appeal already open" in twice.output
    assert first_id in twice.output
    as_json = _file(store_url, assessment_id, "--json")
    assert as_json.exit_code == 2
    error = json.loads(as_json.stderr)["error"]
    assert error["code"] == "APPEAL_NOT_ALLOWED"
    assert error["details"]["open_appeal_id"] == first_id
    listed = json.loads(aaaf(store_url, "assessments", "coder", "--json").stdout)[0]
    assert [appeal["id"] for appeal in listed["appeals"]] == [first_id]

    # once decided, a new appeal (e.g. with new counter evidence) may be filed
    assert aaaf(store_url, "appeal", "resolve", first_id, "rejected").exit_code == 0
    after = _file(store_url, assessment_id, "--json")
    assert after.exit_code == 0, after.output
    assert json.loads(after.stdout)["id"] != first_id
