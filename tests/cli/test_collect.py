"""`aaaf collect` as a tester uses it (issue 21): bad input is exit 2 with the line named,
never exit 1; `--db` does not create folders; a fuzz test on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.store import open_store
from tests.cli.events_factory import agent_log, write_jsonl

runner = CliRunner()


def aaaf(db: str, *args: str, input: str | None = None) -> Any:
    return runner.invoke(app, [*args, "--db", db], input=input)


def test_why9_a_mistyped_db_path_creates_no_folder(tmp_path: Path) -> None:
    """Why 9: `--db` in a missing folder silently created folders and an empty database
    and then said the agent does not exist (SCORING.md §7 "Databases")."""
    wrong = tmp_path / "typo" / "deeper" / "aaaf.db"
    result = aaaf(str(wrong), "collect", "a1", str(write_jsonl(tmp_path / "l.jsonl", agent_log(None, 1))))
    assert result.exit_code == 2
    assert str(tmp_path / "typo" / "deeper") in " ".join(result.stderr.split())
    assert not (tmp_path / "typo").exists()


def test_a_new_database_is_said_once(tmp_path: Path) -> None:
    db = str(tmp_path / "aaaf.db")
    first = aaaf(db, "enroll", "first")  # a command that writes creates it (one that reads refuses)
    assert first.exit_code == 0 and f"created a new database at {db}" in first.stderr
    second = aaaf(db, "agents")
    assert second.exit_code == 0 and "created a new database" not in second.stderr


def test_why1_a_lone_surrogate_is_exit_2_with_its_line(tmp_path: Path) -> None:
    """Why 1: exit 1 with `TypeError: str is not valid UTF-8` and no line number."""
    db = str(tmp_path / "aaaf.db")
    aaaf(db, "enroll", "a1")
    events = agent_log(None, 3)
    lines = [json.dumps(e) for e in events]
    lines[2] = lines[2].replace('"domain": "', '"domain": "\\ud800', 1)
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines) + "\n")
    result = aaaf(db, "collect", "a1", str(log))
    assert result.exit_code == 2, result.output
    assert "accepted 5, rejected 1" in result.stdout
    assert "line 3: [INVALID_REQUEST] data.domain: is not valid Unicode" in result.stdout


def test_why4_the_readmes_manual_example_is_stored_once(tmp_path: Path) -> None:
    """Why 4: an event without `id` (the README's manual example) was stored on every send."""
    db = str(tmp_path / "aaaf.db")
    aaaf(db, "enroll", "a1")
    event = {k: v for k, v in agent_log(None, 1)[0].items() if k != "id"}
    first = aaaf(db, "collect", "a1", "--source", "manual", input=json.dumps(event))
    again = aaaf(db, "collect", "a1", "--source", "manual", input=json.dumps(event, indent=2))
    assert first.exit_code == again.exit_code == 0
    assert "accepted 1, rejected 0" in first.stdout
    assert "1 already stored" in again.stdout and "accepted 0, rejected 0" in again.stdout
    too_big = aaaf(db, "collect", "a1", "--source", "manual", input=" " * 1_048_577)
    assert too_big.exit_code == 2 and "over 1048576 bytes" in too_big.stderr


def test_why3_the_error_list_says_first_100_of_n(tmp_path: Path) -> None:
    db = str(tmp_path / "aaaf.db")
    aaaf(db, "enroll", "a1")
    log = tmp_path / "log.jsonl"
    log.write_text("{oops\n" * 150 + json.dumps(agent_log(None, 1)[0]) + "\n")
    text = aaaf(db, "collect", "a1", str(log))
    assert text.exit_code == 2
    assert "errors (first 100 of 150):" in text.stdout
    assert text.stdout.count("[INVALID_REQUEST]") == 100
    body = json.loads(aaaf(db, "collect", "a1", str(log), "--json").stdout)
    assert len(body["errors"]) == 100 and body["errors_total"] == 150
    assert body["errors_note"] == "first 100 of 150"


def test_why5_agent_mismatch_on_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "aaaf.db")
    aaaf(db, "enroll", "a1")
    aaaf(db, "enroll", "b2")
    events = agent_log(None, 1)
    events[1] = {**events[1], "agent": "b2"}
    result = aaaf(db, "collect", "a1", str(write_jsonl(tmp_path / "l.jsonl", events)), "--json")
    assert result.exit_code == 2
    body = json.loads(result.stdout)
    assert body["accepted"] == 1
    assert [(e["line"], e["code"], e["field"]) for e in body["errors"]] == [(2, "AGENT_MISMATCH", "agent")]


# -- fuzz ---------------------------------------------------------------------------------

_VALID = agent_log(None, 4, prefix="fz")
_text = st.text(
    alphabet=st.characters(codec="utf-8") | st.sampled_from(["\x00", "\ud800", "\udfff"]), max_size=8
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def _mutated(draw: st.DrawFn, number: int) -> dict[str, Any]:
    """A valid event with one field replaced, removed or added, under an id of its own."""
    event = json.loads(json.dumps(draw(st.sampled_from(_VALID))))
    event["id"] = f"m{number}"
    target = event if draw(st.booleans()) else event["data"]
    key = draw(st.sampled_from([*target, "agent", "extra", "\x00"]))
    action = draw(st.sampled_from(["replace", "remove", "huge"]))
    if action == "remove":
        target.pop(key, None)
    elif action == "huge":
        target[key] = "h" * draw(st.sampled_from([65_537, 300]))
    else:
        target[key] = draw(_json)
    return event


def _lines(draw: st.DrawFn) -> tuple[list[bytes], list[int]]:
    """The log's lines, and which of them (0-based) are the valid events."""
    kinds = draw(st.lists(st.sampled_from(["valid", "keyless", "bytes", "json", "mutated"]), max_size=14))
    lines: list[bytes] = []
    valid: list[int] = []
    for number, kind in enumerate(kinds):
        if kind in ("valid", "keyless"):
            event = dict(draw(st.sampled_from(_VALID)))
            event["data"] = {**event["data"], "task_id": f"v{number}"}
            if kind == "valid":
                event["id"] = f"v{number}"
            else:
                event.pop("id")
            valid.append(len(lines))
            lines.append(json.dumps(event).encode())
        elif kind == "bytes":
            lines.append(draw(st.binary(max_size=40)).replace(b"\n", b"").replace(b"\r", b""))
        elif kind == "json":
            lines.append(json.dumps(draw(_json)).encode())
        else:
            lines.append(json.dumps(draw(_mutated(number))).encode())
    return lines, valid


@st.composite
def _logs(draw: st.DrawFn) -> tuple[list[bytes], list[int]]:
    return _lines(draw)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(log=_logs())
def test_fuzz_collect_never_exits_1_and_keeps_every_valid_line(
    store_url: str, tmp_path: Path, log: tuple[list[bytes], list[int]]
) -> None:
    """Random bytes, random JSON and mutated events around valid ones: exit 0 or 2, never
    1; every valid line stored exactly once; sending the file again stores nothing."""
    lines, valid = log
    name = f"fz-{uuid.uuid4().hex[:8]}"
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        agent = org.enroll_agent(name)
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    first = aaaf(store_url, "collect", name, str(path), "--json")
    assert first.exit_code in (0, 2), first.output
    report = json.loads(first.stdout)
    non_blank = sum(  # blank lines and comment lines (#) are skipped, every other line counted
        1 for raw in path.read_bytes().split(b"\n")[:-1] if raw.strip() and not raw.lstrip().startswith(b"#")
    )
    assert report["accepted"] + report["duplicates"] + report["rejected"] == non_blank
    rejected_lines = {error["line"] for error in report["errors"]}
    assert not rejected_lines & {index + 1 for index in valid}
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        stored = org.events(agent.id)
    stored_tasks = [event.data.get("task_id") for event in stored]
    for index in valid:
        assert stored_tasks.count(f"v{index}") == 1, (index, lines[index], report)
    again = aaaf(store_url, "collect", name, str(path), "--json")
    assert again.exit_code == first.exit_code, again.output
    repeat = json.loads(again.stdout)
    assert repeat["accepted"] == 0 and repeat["rejected"] == report["rejected"]
    with open_store(store_url) as store:
        assert store.scope(store.default_organization().id).count_events(agent.id) == len(stored)
