"""`aaaf init` writes a commented example events file that `aaaf collect` stores as it is (no
error, no warning) and the configuration file with every default, which `aaaf config apply`
applies: unchanged, nothing recorded; edited, exactly the edits; an unknown key refused by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.scoring.defaults import AAAFConfig

runner = CliRunner()


def aaaf(*args: str) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def test_init_writes_files_that_collect_and_config_apply_take(tmp_path: Path) -> None:
    db = str(tmp_path / "aaaf.db")
    made = aaaf("init", "--dir", tmp_path, "--json")
    assert made.exit_code == 0, made.output
    events, config = tmp_path / "aaaf-events.jsonl", tmp_path / "aaaf-config.toml"
    assert json.loads(made.stdout)["written"] == [str(events), str(config)]
    assert events.read_text().startswith("# AAAF evidence")
    assert aaaf("enroll", "my-agent", "--domains", "code,testing", "--db", db).exit_code == 0
    collected = aaaf("collect", "my-agent", events, "--db", db, "--json")
    assert collected.exit_code == 0, collected.output
    body = json.loads(collected.stdout)
    assert body["accepted"] == 6 and body["rejected"] == 0 and body["warnings_total"] == 0
    # the defaults: applying the file as written changes nothing
    unchanged = aaaf("config", "apply", config, "--db", db, "--json")
    assert unchanged.exit_code == 0 and json.loads(unchanged.stdout)["changed"] is False
    assert "minimum_tasks_capability = 30" in config.read_text()
    assert f"minimum_tasks_performance = {AAAFConfig().min_tasks_performance}" in config.read_text()
    # an edit is applied, and only it
    config.write_text(
        config.read_text().replace("minimum_tasks_capability = 30", "minimum_tasks_capability = 10")
    )
    applied = aaaf("config", "apply", config, "--db", db, "--json")
    assert applied.exit_code == 0, applied.output
    assert json.loads(applied.stdout)["change"]["changes"] == {
        "minimum_tasks_capability": {"before": 30, "after": 10}
    }
    # existing files are kept unless --force
    again = aaaf("init", "--dir", tmp_path)
    assert again.exit_code == 0 and "kept" in again.stdout
    assert "minimum_tasks_capability = 10" in config.read_text()


def test_config_apply_refuses_an_unknown_key_by_name(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("minimum_taks_capability = 10\n")
    done = aaaf("config", "apply", path, "--db", tmp_path / "aaaf.db")
    assert done.exit_code == 2 and "minimum_taks_capability" in done.output
