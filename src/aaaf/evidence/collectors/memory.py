"""Read agent memory files into ``memory_operation`` events (document 004 §8, phase 1
"memory_collector"; the format is specified in docs/memory-format.md).

Why: document 004's review checklist asks whether the agent searched its memory before
work and wrote to it after (``memory_search_performed``, ``memory_written``).  An agent
that keeps its memory as Markdown notes leaves that evidence in files; this collector
turns it into events the scorer reads — a ``search`` entry for a task is evidence for
that task's ``memory_search_performed``, a ``write`` entry for its ``memory_written``.

The format — a directory of Markdown files (``.md``/``.markdown``, searched recursively,
hidden files and directories skipped), each holding one or more entries::

    # Optional preamble: ignored until the first '---' line

    ---
    task: task-42
    time: 2026-04-16T14:30:00Z
    kind: search
    agent: security-auditor
    ---
    Looked up earlier OWASP findings for this service.
    Anything else in the body is the note itself.

    ---
    task: task-42
    time: 2026-04-16T15:10:00+02:00
    kind: write
    ---
    Recorded the two new findings.

* An entry opens with a line ``---``, followed by ``key: value`` lines (front matter),
  closed by another ``---`` line.  The body runs to the next ``---`` line (which opens
  the next entry) or to the end of the file, so a body cannot itself contain a line
  that is exactly ``---`` (use ``***`` for a horizontal rule).
* Keys: ``task`` (the task id), ``time`` (RFC 3339 with offset), ``kind`` (``search`` or
  ``write``) are required; ``agent`` is optional (else the agent given to the collector).
  Other keys are ignored.  Blank lines and lines starting with ``#`` inside front matter
  are ignored.  A value may be wrapped in single or double quotes, which are removed.
* Each entry becomes ``{"id", "agent", "type": "memory_operation", "timestamp": time,
  "data": {"task_id": task, "operation": kind, "path": file path relative to the
  directory, "summary": first non-blank line of the body}}``.  The ``id`` is derived
  from the path, task, time and kind, so collecting the same directory twice stores
  nothing new (SCORING.md §1 idempotency).
* A malformed entry (front matter not closed, a line that is not ``key: value``, a
  repeated key, a missing or invalid ``task``/``time``/``kind``) becomes an
  ``EventError`` whose message names the file and line; the other entries are kept.

No YAML library: front matter is deliberately only ``key: value`` lines, which keeps the
format readable by people and by a ten-line parser.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.evidence.models import EventError, EventValidationError, ValidEvent
from aaaf.evidence.payloads import show_value
from aaaf.evidence.timestamps import parse_rfc3339, timestamp_problem
from aaaf.evidence.validation import DEFAULT_FUTURE_TOLERANCE_SECONDS, validate_event
from aaaf.evidence.vocabulary import MEMORY_OPERATION, MEMORY_OPERATIONS

MEMORY_FILE_SUFFIXES: tuple[str, ...] = (".md", ".markdown")
ENTRY_DELIMITER = "---"
REQUIRED_KEYS: tuple[str, ...] = ("task", "time", "kind")
# the event field each front-matter key becomes (what an error's ``field`` names)
KEY_FIELDS: dict[str, str] = {"task": "data.task_id", "time": "timestamp", "kind": "data.operation"}

_KEY_VALUE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)")


# One memory entry as collectors yield it: (line of its opening '---' or of its problem,
# raw event or EventError) — the protocol of ``task_logs.read_jsonl``.
MemoryItem = tuple[int, dict[str, Any] | EventError]


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _event_key(path: str, task: str, time: str, kind: str) -> str:
    digest = hashlib.sha256("\x1f".join((path, task, time, kind)).encode("utf-8")).hexdigest()
    return f"memory-{digest[:32]}"


@dataclass
class _Entry:
    opened_at: int
    header: dict[str, tuple[str, int]] = field(default_factory=dict)  # key -> (value, line)
    body: list[str] = field(default_factory=list)
    problem: tuple[int, str] | None = None  # (line, message)


def _split_entries(lines: list[str]) -> list[_Entry]:
    """Cut a file into entries; a front-matter problem is recorded on its entry."""
    entries: list[_Entry] = []
    position = 0
    while position < len(lines) and lines[position].rstrip() != ENTRY_DELIMITER:
        position += 1  # preamble
    while position < len(lines):
        entry = _Entry(opened_at=position + 1)
        entries.append(entry)
        position += 1
        closed = False
        while position < len(lines):
            text = lines[position].strip()
            line_number = position + 1
            position += 1
            if text == ENTRY_DELIMITER:
                closed = True
                break
            if not text or text.startswith("#") or entry.problem is not None:
                continue
            match = _KEY_VALUE.fullmatch(text)
            if match is None:
                entry.problem = (
                    line_number,
                    f"expected a 'key: value' line in the front matter, got {text!r}",
                )
                continue
            key, value = match.group(1).lower(), _unquote(match.group(2).strip())
            if key in entry.header:
                entry.problem = (
                    line_number,
                    f"key {key!r} repeated (first given at line {entry.header[key][1]})",
                )
                continue
            entry.header[key] = (value, line_number)
        if not closed:
            entry.problem = (
                entry.opened_at,
                f"front matter opened at line {entry.opened_at} is not closed by '---'",
            )
            break
        while position < len(lines) and lines[position].rstrip() != ENTRY_DELIMITER:
            entry.body.append(lines[position])
            position += 1
    return entries


def _entry_problem(entry: _Entry) -> tuple[int, str, str | None] | None:
    """(line, message, field) for a malformed entry, else None."""
    if entry.problem is not None:
        return entry.problem[0], entry.problem[1], None
    for key in REQUIRED_KEYS:
        if key not in entry.header or not entry.header[key][0]:
            return entry.opened_at, f"missing required key {key!r} in the front matter", KEY_FIELDS[key]
    time_value, time_line = entry.header["time"]
    try:
        parse_rfc3339(time_value)
    except ValueError as reason:
        return (
            time_line,
            "time: " + timestamp_problem(show_value(time_value), str(reason)),
            KEY_FIELDS["time"],
        )
    kind_value, kind_line = entry.header["kind"]
    if kind_value not in MEMORY_OPERATIONS:
        return (
            kind_line,
            f"kind: must be 'search' or 'write', got {show_value(kind_value)}",
            KEY_FIELDS["kind"],
        )
    return None


def parse_memory_text(
    text: str, path: str, *, agent: str | None = None, first_index: int = 0
) -> list[MemoryItem]:
    """The entries of one memory file's text (``path`` is how the file is named in events
    and messages).  ``first_index`` is the index the first entry's error gets (entries
    are numbered across a whole directory)."""
    items: list[MemoryItem] = []
    for offset, entry in enumerate(_split_entries(text.splitlines())):
        index = first_index + offset
        problem = _entry_problem(entry)
        if problem is not None:
            line, message, key = problem
            error = EventError(
                index=index,
                line=line,
                code="INVALID_REQUEST",
                field=key,
                message=f"{path} line {line}: {message}",
            )
            items.append((line, error))
            continue
        task, time, kind = (entry.header[key][0] for key in REQUIRED_KEYS)
        summary = next((line.strip() for line in entry.body if line.strip()), "")
        event: dict[str, Any] = {
            "id": _event_key(path, task, time, kind),
            "type": MEMORY_OPERATION,
            "timestamp": time,
            "data": {"task_id": task, "operation": kind, "path": path, "summary": summary},
        }
        entry_agent = entry.header.get("agent", ("", 0))[0] or agent
        if entry_agent:
            event["agent"] = entry_agent
        items.append((entry.opened_at, event))
    return items


def _memory_files(root: Path) -> list[tuple[str, Path]]:
    if root.is_file():
        return [(root.name, root)]
    found: list[tuple[str, Path]] = []
    for candidate in root.rglob("*"):
        relative = candidate.relative_to(root)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if candidate.is_file() and candidate.suffix.lower() in MEMORY_FILE_SUFFIXES:
            found.append((relative.as_posix(), candidate))
    return sorted(found)


def read_memory_dir(root: str | Path, *, agent: str | None = None) -> Iterator[MemoryItem]:
    """``(line, raw event)`` for every entry of every memory file under ``root`` (or of
    the single file ``root``), files in path order, entries in file order; a malformed
    entry as ``(line, EventError)`` whose message names file and line.  The same protocol
    as ``task_logs.read_jsonl``; a valid entry's file is its event's ``data.path``.
    An ``EventError``'s ``index`` is the entry's position among the items yielded."""
    directory = Path(root)
    if not directory.exists():
        raise AAAFError(
            "INVALID_REQUEST", f"Memory path {directory} does not exist.", {"path": str(directory)}
        )
    index = 0
    for relative, file in _memory_files(directory):
        try:
            text = file.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as problem:
            message = f"{relative} line 1: not UTF-8 text ({problem.reason})"
            yield 1, EventError(index, 1, "INVALID_REQUEST", None, message)
            index += 1
            continue
        items = parse_memory_text(text, relative, agent=agent, first_index=index)
        index += len(items)
        yield from items


def collect_memory_events(
    root: str | Path,
    *,
    now: datetime,
    agent: str | None = None,
    future_tolerance_seconds: float = DEFAULT_FUTURE_TOLERANCE_SECONDS,
) -> tuple[list[ValidEvent], list[EventError]]:
    """Read and validate a memory directory: the valid ``memory_operation`` events, and
    an error naming file and line for every entry that is malformed or fails validation
    (SCORING.md §1, e.g. a time in the future)."""
    events: list[ValidEvent] = []
    errors: list[EventError] = []
    for index, (line, raw) in enumerate(read_memory_dir(root, agent=agent)):
        if isinstance(raw, EventError):
            errors.append(raw)
            continue
        try:
            events.append(
                validate_event(
                    raw, now=now, default_agent=agent, future_tolerance_seconds=future_tolerance_seconds
                )
            )
        except EventValidationError as problem:
            where = f"{raw['data']['path']} line {line}"
            errors.append(EventError(index, line, problem.code, problem.field, f"{where}: {problem.message}"))
    return events, errors
