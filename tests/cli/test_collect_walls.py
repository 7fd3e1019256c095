"""Mistakes cost one clear sentence (README "A tour of the CLI"): an unknown agent is one error
naming the nearest agents, a JSON document saved as `.jsonl` is one error saying so, what is
stored but probably not meant gets a warning naming it, and a database that cannot be opened
is one plain sentence with exit 2 — on every database."""

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


def test_an_unknown_agent_is_one_error_with_the_nearest_name(store_url: str, tmp_path: Path) -> None:
    assert aaaf(store_url, "enroll", "security-auditor").exit_code == 0
    log = write_jsonl(tmp_path / "log.jsonl", agent_log("security-audtor", 28))
    done = aaaf(store_url, "collect", "--source", "task_logs", str(log), "--json")
    assert done.exit_code == 2
    body = json.loads(done.stdout)
    assert body["rejected"] == 56 and body["accepted"] == 0
    assert len(body["errors"]) == 1 and "errors_note" not in body
    assert "did you mean security-auditor?" in body["errors"][0]["error"]
    human = aaaf(store_url, "collect", "--source", "task_logs", str(log))
    assert human.stdout.count("unknown agent") == 1
    assert human.stdout.splitlines()[0] == "accepted 0, rejected 56"


def test_a_json_document_in_a_jsonl_file_is_one_error(store_url: str, tmp_path: Path) -> None:
    events = agent_log("coder", 3)
    path = tmp_path / "events.jsonl"
    path.write_text(json.dumps(events, indent=2), encoding="utf-8")
    done = aaaf(store_url, "collect", "--source", "task_logs", str(path), "--enroll", "--json")
    assert done.exit_code == 2
    body = json.loads(done.stdout)
    assert body["rejected"] == 1 and len(body["errors"]) == 1
    assert "one JSON document (a list of 6 events), not JSON Lines" in body["errors"][0]["error"]
    assert "events.json" in body["errors"][0]["error"]


def test_comment_lines_are_skipped(store_url: str, tmp_path: Path) -> None:
    lines = ["# a comment", *(json.dumps(event) for event in agent_log("coder", 2)), "  # another"]
    path = tmp_path / "commented.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = aaaf(store_url, "collect", str(path), "--enroll", "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["accepted"] == 4


def test_likely_mistakes_are_stored_with_a_warning_naming_them(store_url: str, tmp_path: Path) -> None:
    assigned, completed = agent_log("coder", 1)
    assigned["data"]["domain"] = "cooking"
    assigned["data"]["priorty"] = 3
    assigned["note"] = "top-level"
    completed["data"]["review_checklist"] = {"memory_written": True, "memroy_search_performed": True}
    path = write_jsonl(tmp_path / "odd.jsonl", [assigned, completed])
    done = aaaf(store_url, "collect", str(path), "--enroll", "--json")
    assert done.exit_code == 0, done.output
    body = json.loads(done.stdout)
    assert body["accepted"] == 2 and body["warnings_total"] == 4
    fields = sorted(warning["field"] for warning in body["warnings"])
    assert fields == ["data.domain", "data.priorty", "data.review_checklist.memroy_search_performed", "note"]
    human = aaaf(store_url, "collect", str(path), "--enroll")
    assert "'cooking' is not in the organization's taxonomy" in human.stdout
    assert human.stdout.splitlines()[0] == "accepted 0, rejected 0, 4 warning(s)"


def test_databases_that_cannot_be_opened_are_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    cases = {
        str(folder): "is a folder, not a database file",
        "mysql://user@localhost/aaaf": "AAAF does not store to mysql:// databases",
        str(tmp_path / "missing.db"): "There is no database at",
    }
    for db, said in cases.items():
        done = aaaf(db, "agents")
        assert done.exit_code == 2, (db, done.output)
        assert said in done.output and "Traceback" not in done.output
    assert not (tmp_path / "missing.db").exists()  # a read never creates an empty database


def test_a_missing_postgresql_database_is_one_sentence(store_url: str) -> None:
    if not store_url.startswith("postgresql"):
        return
    base = store_url.split("?", 1)[0].rsplit("/", 1)[0]
    done = aaaf(f"{base}/aaaf_no_such_database", "agents")
    assert done.exit_code == 2
    assert (
        "Cannot open the database" in done.output
        and 'database "aaaf_no_such_database" does not exist' in done.output
    )
