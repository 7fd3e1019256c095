"""Read task logs: JSON Lines of events, or a JSON document holding events (document 004 §8,
phase 1 "task_log_collector"; SCORING.md §1 "A task log file is JSON Lines of such events").

The reader only turns text into raw events, each with the file line it starts on, so that
validation (``aaaf.evidence.validation.validate_stream``) can name the line of every bad
event.  A JSON Lines file is streamed a line at a time: a log of millions of events is
never held in memory.  A line that is not JSON becomes an ``EventError`` naming its line;
the lines after it are still read (SCORING.md §1: the rest of a batch is kept).

Lines are decoded with orjson (fast, strict JSON).  When orjson refuses a line, the
standard library gets a second look: it accepts ``NaN``/``Infinity`` tokens that some
producers (Python's ``json.dumps``) write, so that validation can reject them by field
name instead of the line being reported as garbage.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from aaaf.errors import AAAFError
from aaaf.evidence.limits import DEFAULT_LINE_BYTES
from aaaf.evidence.models import EventError

_BOM = b"\xef\xbb\xbf"
_WHITESPACE = " \t\r\n"
_SKIP_CHUNK = 1 << 20


def _decode_line(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line.decode("utf-8"))


def _not_json(index: int, line: int, reason: str) -> EventError:
    return EventError(
        index=index,
        line=line,
        code="INVALID_REQUEST",
        field=None,
        message=f"line {line}: not valid JSON ({reason})",
    )


def _too_long(index: int, line: int, size: int, limit: int) -> EventError:
    return EventError(
        index=index,
        line=line,
        code="INVALID_REQUEST",
        field=None,
        message=f"line {line}: {size} bytes long; an event may be at most {limit} bytes (1 MiB by default)",
    )


def _skip_rest_of_line(stream: BinaryIO, size: int) -> int:
    """Read past the rest of an over-long line, a chunk at a time; its size without the
    line break."""
    while True:
        chunk = stream.readline(_SKIP_CHUNK)
        size += len(chunk.rstrip(b"\r\n"))
        if not chunk or chunk.endswith(b"\n"):
            return size


def _read_json_lines(path: Path, max_line_bytes: int) -> Iterator[tuple[int, Any | EventError]]:
    index = 0
    with path.open("rb") as stream:
        line_number = 0
        while True:
            # never more than the limit in memory: a 50 MB line is skipped, not read whole
            line = stream.readline(max_line_bytes + 2)
            if not line:
                return
            line_number += 1
            if line_number == 1 and line.startswith(_BOM):
                line = line[len(_BOM) :]
            item: Any | EventError
            if not line.endswith(b"\n") and len(line) > max_line_bytes:
                item = _too_long(index, line_number, _skip_rest_of_line(stream, len(line)), max_line_bytes)
            elif len(line.rstrip(b"\r\n")) > max_line_bytes:
                item = _too_long(index, line_number, len(line.rstrip(b"\r\n")), max_line_bytes)
            elif not line.strip() or line.lstrip().startswith(b"#"):
                continue  # blank lines and comment lines (`aaaf init`'s example file) are skipped
            else:
                try:
                    item = _decode_line(line)
                except (ValueError, UnicodeDecodeError, RecursionError) as problem:
                    item = _not_json(index, line_number, str(problem).split("\n")[0])
            yield line_number, item
            index += 1


class _DocumentScanner:
    """Walks a JSON document already known to be valid, to find the line each event of it
    starts on (``json.loads`` gives values, not positions)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.decoder = json.JSONDecoder()
        self.position = 0
        self.line = 1
        self._counted_to = 0
        self.last_start = 0
        self.last_span = 0

    def skip_whitespace(self) -> None:
        while self.position < len(self.text) and self.text[self.position] in _WHITESPACE:
            self.position += 1

    def line_here(self) -> int:
        self.line += self.text.count("\n", self._counted_to, self.position)
        self._counted_to = self.position
        return self.line

    def value(self) -> Any:
        start = self.position
        found, self.position = self.decoder.raw_decode(self.text, self.position)
        self.last_start, self.last_span = start, self.position - start
        return found

    def last_text(self) -> str:
        """The text of the last value read (the whole document for a single event)."""
        if self.last_start == 0 and self.last_span == 0:
            return self.text
        return self.text[self.last_start : self.last_start + self.last_span]

    def expect(self, character: str) -> None:
        self.skip_whitespace()
        if self.text[self.position] != character:  # cannot happen: the document parsed
            raise ValueError(f"expected {character!r} at offset {self.position}")
        self.position += 1

    def array_items(self) -> Iterator[tuple[int, Any]]:
        """(line, item) for each item of the array starting at the current position."""
        self.expect("[")
        self.skip_whitespace()
        if self.text[self.position] == "]":
            self.position += 1
            return
        while True:
            self.skip_whitespace()
            line = self.line_here()
            yield line, self.value()
            self.skip_whitespace()
            separator = self.text[self.position]
            self.position += 1
            if separator == "]":
                return

    def events_of_batch_object(self) -> Iterator[tuple[int, Any]]:
        """The items of the ``events`` array of a batch body ``{"events": [...]}``."""
        self.expect("{")
        while True:
            self.skip_whitespace()
            if self.text[self.position] == "}":
                return
            key = self.value()
            self.expect(":")
            self.skip_whitespace()
            if key == "events" and self.text[self.position] == "[":
                yield from self.array_items()
            else:
                self.value()
            self.skip_whitespace()
            separator = self.text[self.position]
            self.position += 1
            if separator == "}":
                return


def _read_json_document(path: Path, max_event_bytes: int) -> Iterator[tuple[int, Any | EventError]]:
    """A ``.json`` file: a list of events, a batch body ``{"events": [...]}`` (document 004
    §6.2), or a single event object."""
    raw = path.read_bytes()
    if raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    try:
        text = raw.decode("utf-8")
        document = json.loads(text)
    except UnicodeDecodeError as problem:
        yield 1, EventError(0, 1, "INVALID_REQUEST", None, f"line 1: not UTF-8 text ({problem})")
        return
    except json.JSONDecodeError as problem:
        yield problem.lineno, _not_json(0, problem.lineno, problem.msg)
        return
    scanner = _DocumentScanner(text)
    scanner.skip_whitespace()
    if isinstance(document, list):
        items = scanner.array_items()
    elif isinstance(document, dict) and isinstance(document.get("events"), list):
        items = scanner.events_of_batch_object()
    else:
        items = iter([(scanner.line_here(), document)])
        scanner.last_span = len(raw)
    for index, (line, item) in enumerate(items):
        span = scanner.last_span
        if (
            span > max_event_bytes // 4
            and (size := len(scanner.last_text().encode("utf-8"))) > max_event_bytes
        ):
            yield line, _too_long(index, line, size, max_event_bytes)
        else:
            yield line, item


def read_jsonl(
    path: str | Path, *, max_line_bytes: int = DEFAULT_LINE_BYTES
) -> Iterator[tuple[int, Any | EventError]]:
    """Yield ``(line, raw event)`` for each event of a task log, or ``(line, EventError)``
    for a line that is not JSON.

    Lines are 1-based; blank lines and lines starting with ``#`` (comments) are skipped.  A ``.json`` file is read as one JSON
    document (a list of events, a batch body ``{"events": [...]}`` or a single event),
    each event reported with the line it starts on; any other file is JSON Lines,
    streamed; a line over ``max_line_bytes`` (an event over it, in a ``.json`` document) is
    an ``EventError`` and is never held in memory whole.  An ``EventError``'s ``index`` is
    its position among the items yielded, the same position ``validate_stream`` gives the
    events around it.
    """
    file = Path(path)
    if not file.is_file():
        raise AAAFError(
            "INVALID_REQUEST", f"Task log {file} does not exist or is not a file.", {"path": str(file)}
        )
    if file.suffix.lower() == ".json":
        return _read_json_document(file, max_line_bytes)
    return _json_lines_or_one_document(file, max_line_bytes)


_DOCUMENT_SNIFF_BYTES = 64 * 1024 * 1024  # a larger JSON document in a .jsonl file is not re-read


def _json_lines_or_one_document(path: Path, max_line_bytes: int) -> Iterator[tuple[int, Any | EventError]]:
    """JSON Lines; but a file whose first line is not JSON and which is one JSON document (a
    pretty-printed array saved as ``.jsonl``) is one error saying so, not one per line."""
    lines = _read_json_lines(path, max_line_bytes)
    first = next(lines, None)
    if first is None:
        return
    line, item = first
    if isinstance(item, EventError) and item.message.startswith(f"line {line}: not valid JSON"):
        document = _one_document(path)
        if document is not None:
            count = f"a list of {len(document)} events" if isinstance(document, list) else "one JSON value"
            yield (
                1,
                EventError(
                    0,
                    1,
                    "INVALID_REQUEST",
                    None,
                    f"this file is one JSON document ({count}), not JSON Lines (one event object per "
                    f"line): name it {path.stem}.json to collect it as it is, or write one event per line",
                ),
            )
            return
    yield first
    yield from lines


def _one_document(path: Path) -> Any | None:
    """The file's JSON document, or None when it is not one (or too large to try)."""
    if path.stat().st_size > _DOCUMENT_SNIFF_BYTES:
        return None
    raw = path.read_bytes()
    if raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
