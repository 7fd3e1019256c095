"""Memory files → memory_operation events (docs/memory-format.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.evidence import EventError, validate_event
from aaaf.evidence.collectors.memory import collect_memory_events, parse_memory_text, read_memory_dir
from tests.evidence.events import NOW

NOTES = """# Notes of security-auditor
Anything before the first entry is ignored.

---
task: task-42
time: 2026-04-16T14:30:00Z
kind: search
---
Looked up earlier OWASP findings.
A second line of the note.

---
task: task-42
time: "2026-04-16T16:10:00+02:00"
kind: write
agent: doc-synthesizer
# a comment line in the front matter
---

Recorded the two new findings.
"""

MORE_NOTES = """---
task: task-43
kind: delete
time: 2026-04-16T14:00:00Z
---
not a memory operation
---
task: 'task-44'
time: 2026-04-16T14:05:00Z
kind: write
---
"""


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    (tmp_path / "projects").mkdir()
    (tmp_path / "security.md").write_text(NOTES, encoding="utf-8")
    (tmp_path / "projects" / "more.markdown").write_text(MORE_NOTES, encoding="utf-8")
    (tmp_path / "projects" / "readme.txt").write_text("---\ntask: x\n---\n", encoding="utf-8")
    (tmp_path / ".trash").mkdir()
    (tmp_path / ".trash" / "old.md").write_text("---\ntask: x\n", encoding="utf-8")
    return tmp_path


def test_two_files_give_their_entries_in_path_order_with_a_malformed_one_reported(memory_dir: Path) -> None:
    items = list(read_memory_dir(memory_dir, agent="security-auditor"))
    assert [line for line, _ in items] == [3, 7, 4, 12]  # a problem is reported at its own line
    (_, bad), (_, task44), (_, search), (_, write) = items
    assert isinstance(bad, EventError)
    assert (bad.index, bad.line, bad.code, bad.field) == (0, 3, "INVALID_REQUEST", "data.operation")
    assert bad.message == "projects/more.markdown line 3: kind: must be 'search' or 'write', got \"delete\""
    assert isinstance(search, dict)
    assert search == {
        "id": search["id"],
        "agent": "security-auditor",
        "type": "memory_operation",
        "timestamp": "2026-04-16T14:30:00Z",
        "data": {
            "task_id": "task-42",
            "operation": "search",
            "path": "security.md",
            "summary": "Looked up earlier OWASP findings.",
        },
    }
    assert isinstance(write, dict) and isinstance(task44, dict)
    assert write["agent"] == "doc-synthesizer"  # the entry's own agent wins
    assert write["timestamp"] == "2026-04-16T16:10:00+02:00"  # quotes removed
    assert write["data"]["summary"] == "Recorded the two new findings."
    assert task44["data"] == {
        "task_id": "task-44",
        "operation": "write",
        "path": "projects/more.markdown",
        "summary": "",
    }


def test_line_numbers_point_at_each_entrys_opening_delimiter(memory_dir: Path) -> None:
    lines = (memory_dir / "security.md").read_text().splitlines()
    assert lines[4 - 1] == "---" and lines[12 - 1] == "---"


def test_entries_validate_as_memory_operation_events(memory_dir: Path) -> None:
    events, errors = collect_memory_events(memory_dir, now=NOW, agent="security-auditor")
    assert [(e.task_id, e.data["operation"], e.agent) for e in events] == [
        ("task-44", "write", "security-auditor"),
        ("task-42", "search", "security-auditor"),
        ("task-42", "write", "doc-synthesizer"),
    ]
    assert events[2].timestamp == datetime(2026, 4, 16, 14, 10, tzinfo=UTC)
    assert [(e.index, e.line, e.field) for e in errors] == [(0, 3, "data.operation")]


def test_ids_are_stable_across_reads_and_distinct_per_entry(memory_dir: Path) -> None:
    first = [raw["id"] for _, raw in read_memory_dir(memory_dir) if isinstance(raw, dict)]
    second = [raw["id"] for _, raw in read_memory_dir(memory_dir) if isinstance(raw, dict)]
    assert first == second
    assert len(set(first)) == len(first) == 3
    assert all(key.startswith("memory-") for key in first)


def test_without_any_agent_the_validator_asks_for_one(memory_dir: Path) -> None:
    events, errors = collect_memory_events(memory_dir, now=NOW)
    assert [e.agent for e in events] == ["doc-synthesizer"]
    assert sorted(e.field or "" for e in errors) == ["agent_id", "agent_id", "data.operation"]
    located = [e for e in errors if e.field == "agent_id"]
    assert located[0].message.startswith("projects/more.markdown line 7: agent_id: Missing required field")


def test_an_entry_in_the_future_is_rejected_naming_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text(
        "---\ntask: t\ntime: 2026-04-16T16:00:00Z\nkind: search\n---\n", encoding="utf-8"
    )
    events, errors = collect_memory_events(tmp_path, now=NOW, agent="a")
    assert events == []
    assert (errors[0].line, errors[0].field) == (1, "timestamp")
    assert errors[0].message.startswith("n.md line 1: timestamp: Timestamp in future")


@pytest.mark.parametrize(
    ("text", "line", "field", "fragment"),
    [
        ("---\ntask: t\ntime: 2026-04-16T14:00:00Z\nkind: search\n", 1, None, "is not closed by '---'"),
        (
            "---\ntask t\ntime: 2026-04-16T14:00:00Z\nkind: search\n---\n",
            2,
            None,
            "expected a 'key: value' line",
        ),
        ("---\ntask: a\ntask: b\ntime: 2026-04-16T14:00:00Z\nkind: search\n---\n", 3, None, "repeated"),
        (
            "---\ntime: 2026-04-16T14:00:00Z\nkind: search\n---\n",
            1,
            "data.task_id",
            "missing required key 'task'",
        ),
        ("---\ntask: t\nkind: search\n---\n", 1, "timestamp", "missing required key 'time'"),
        (
            "---\ntask: t\ntime: 2026-04-16T14:00:00Z\n---\n",
            1,
            "data.operation",
            "missing required key 'kind'",
        ),
        ("---\ntask: t\ntime: 2026-04-16 14:00\nkind: search\n---\n", 3, "timestamp", "RFC 3339"),
        ("---\ntask: t\ntime: 2026-04-16T14:00:00\nkind: search\n---\n", 3, "timestamp", "no UTC offset"),
        (
            "---\ntask:\ntime: 2026-04-16T14:00:00Z\nkind: search\n---\n",
            1,
            "data.task_id",
            "missing required key",
        ),
    ],
)
def test_malformed_entries(text: str, line: int, field: str | None, fragment: str) -> None:
    ((at, error),) = parse_memory_text(text, "notes/x.md")
    assert isinstance(error, EventError)
    assert (at, error.line, error.field, error.code) == (line, line, field, "INVALID_REQUEST")
    assert error.message.startswith(f"notes/x.md line {line}: ")
    assert fragment in error.message


def test_a_malformed_entry_does_not_hide_the_next_one() -> None:
    text = "---\ntask t\n---\nbody\n---\ntask: u\ntime: 2026-04-16T14:00:00Z\nkind: write\n---\nnote\n"
    (_, first), (_, second) = parse_memory_text(text, "x.md", agent="a", first_index=5)
    assert isinstance(first, EventError) and first.index == 5
    assert isinstance(second, dict) and second["data"]["task_id"] == "u"
    assert validate_event(second, now=NOW).data["summary"] == "note"


def test_a_file_without_entries_gives_nothing() -> None:
    assert parse_memory_text("# Just notes\n\nNo front matter here.\n", "x.md") == []


def test_a_single_file_may_be_given_instead_of_a_directory(memory_dir: Path) -> None:
    items = list(read_memory_dir(memory_dir / "security.md", agent="a"))
    assert len(items) == 2 and all(isinstance(raw, dict) for _, raw in items)


def test_missing_memory_path_is_an_aaaf_error(tmp_path: Path) -> None:
    with pytest.raises(AAAFError) as caught:
        list(read_memory_dir(tmp_path / "absent"))
    assert caught.value.code == "INVALID_REQUEST"


def test_a_file_that_is_not_utf8_is_reported_and_the_others_read(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"---\ntask: \xff\n---\n")
    (tmp_path / "b.md").write_text(
        "---\ntask: t\ntime: 2026-04-16T14:00:00Z\nkind: write\n---\n", encoding="utf-8"
    )
    (_, first), (_, second) = read_memory_dir(tmp_path, agent="x")
    assert isinstance(first, EventError) and first.message.startswith("a.md line 1: not UTF-8")
    assert isinstance(second, dict)
