"""What an event may hold, the same on SQLite and PostgreSQL (issue 21 scope 1, SCORING.md §1).

SQLite stores almost anything; PostgreSQL refuses a NUL character in text and JSON and an
index entry over ~2.7 KB, and no JSON encoder can write a lone surrogate.  So validation
refuses, per event and naming the field, before any database sees it:

* a string (key or value, anywhere) holding a NUL character (``\\u0000``) or a lone
  surrogate (``"\\ud800"``: not Unicode text);
* an ``id``, an agent reference or a ``data.task_id`` over ``id_chars`` characters (they
  are indexed);
* a string over ``string_bytes`` bytes of UTF-8;
* an integer beyond ±(2^53 − 1): RFC 8785 (the event id, SCORING.md §1) and I-JSON
  cannot hold it exactly — send it as a string;

and the task-log reader refuses a line over ``line_bytes`` bytes without reading it whole.
The defaults below are ``Settings.event_max_*`` (``AAAF_EVENT_MAX_LINE_BYTES``,
``AAAF_EVENT_MAX_ID_CHARS``, ``AAAF_EVENT_MAX_STRING_BYTES``; docs/cli.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from aaaf.evidence.canonical import MAX_SAFE_INTEGER

DEFAULT_LINE_BYTES = 1_048_576  # 1 MiB
DEFAULT_ID_CHARS = 256
DEFAULT_STRING_BYTES = 65_536  # 64 KiB


@dataclass(frozen=True, slots=True)
class EventLimits:
    """The size limits of one event (see the module docstring)."""

    line_bytes: int = DEFAULT_LINE_BYTES
    id_chars: int = DEFAULT_ID_CHARS
    string_bytes: int = DEFAULT_STRING_BYTES

    def __post_init__(self) -> None:
        for name in ("line_bytes", "id_chars", "string_bytes"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"EventLimits.{name} must be an integer ≥ 1, got {value!r}")


DEFAULT_LIMITS = EventLimits()


def _size_phrase(count: int) -> str:
    if count >= 1_048_576 and count % 1_048_576 == 0:
        return f"{count // 1_048_576} MiB"
    if count >= 1024 and count % 1024 == 0:
        return f"{count // 1024} KiB"
    return f"{count} bytes"


def text_problem(value: str, *, max_bytes: int | None = None, max_chars: int | None = None) -> str | None:
    """Why ``value`` cannot be stored (NUL, lone surrogate, too long), or None.

    The message completes "FIELD: …": ``contains a NUL character (\\u0000) at character 3``.
    """
    nul = value.find("\x00")
    if nul >= 0:
        return f"contains a NUL character (\\u0000) at character {nul}"
    if value.isascii():
        size = len(value)
    else:
        try:
            size = len(value.encode("utf-8"))
        except UnicodeEncodeError as error:
            code = ord(value[error.start])
            return f"is not valid Unicode: a lone surrogate \\u{code:04x} at character {error.start}"
    if max_chars is not None and len(value) > max_chars:
        return f"is {len(value)} characters long; the limit is {max_chars}"
    if max_bytes is not None and size > max_bytes:
        return f"is {size} bytes long; the limit is {_size_phrase(max_bytes)}"
    return None


def _key_text(key: str) -> str:
    """A key as it may appear in a field path: printable, short."""
    shown = key.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\u0000")
    return shown if len(shown) <= 40 else shown[:40] + "…"


def data_problem(data: dict[str, Any], limits: EventLimits) -> tuple[str, str] | None:
    """The first string or integer of ``data`` that cannot be stored: ``(field path, message)``.

    Keys and values at any depth; ``data.task_id`` also gets the id limit.  Values of
    other kinds are left to the payload validator.
    """
    return checked_data(data, limits)[0]


def checked_data(data: dict[str, Any], limits: EventLimits) -> tuple[tuple[str, str] | None, bytes | None]:
    """:func:`data_problem`'s answer, and ``data`` as orjson's JSON when the one orjson pass
    that proves most events fine wrote it (else None): the event writer stores that text
    instead of writing the document again."""
    task_id = data.get("task_id")
    if type(task_id) is str and not (
        len(task_id) <= limits.id_chars and task_id.isascii() and "\x00" not in task_id
    ):
        problem = text_problem(task_id, max_chars=limits.id_chars)
        if problem is not None:
            return ("data.task_id", problem), None
    text = _clearly_fine(data, limits.string_bytes)
    if text is not None:
        return None, text
    return _first_problem(data, "data", limits.string_bytes), None


_ALL_DIGITS_TO_9 = bytes.maketrans(b"012345678", b"999999999")
_SIXTEEN_DIGITS = b"9" * 16


def _clearly_fine(data: dict[str, Any], max_bytes: int) -> bytes | None:
    """The ingest path's shortcut: one orjson pass proves most events fine without a walk;
    the JSON it wrote when it does, else None.

    orjson refuses lone surrogates and integers beyond 64 bits; it writes NUL as
    ``\\u0000``; no string is longer than the whole document; an integer beyond 2^53 has
    16 digits or more.  Any doubt (also a match inside a string) goes to the exact walk.
    """
    try:
        text = orjson.dumps(data)
    except (orjson.JSONEncodeError, TypeError):
        return None
    if (
        len(text) <= max_bytes
        and b"\\u0000" not in text
        and _SIXTEEN_DIGITS not in text.translate(_ALL_DIGITS_TO_9)
    ):
        return text
    return None


def _first_problem(node: dict[str, Any] | list[Any], path: str, max_bytes: int) -> tuple[str, str] | None:
    if type(node) is dict:
        pairs: Any = node.items()
    else:
        pairs = enumerate(node)
    for key, value in pairs:
        if type(key) is str:
            problem = text_problem(key, max_bytes=max_bytes)
            if problem is not None:
                return f"{path}.{_key_text(key)}", f"key {problem}"
            here = f"{path}.{key}"
        else:
            here = f"{path}[{key}]"
        kind = type(value)
        if kind is str:
            problem = text_problem(value, max_bytes=max_bytes)
            if problem is not None:
                return here, problem
        elif kind is int:
            if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
                return here, (
                    f"integer {value} is outside ±{MAX_SAFE_INTEGER}, the range JSON numbers hold "
                    "exactly (RFC 8785 / I-JSON); send it as a string"
                )
        elif kind is dict or kind is list:
            found = _first_problem(value, here, max_bytes)
            if found is not None:
                return found
    return None


def printable(text: str, max_chars: int = 500) -> str:
    """``text`` safe to print and store in a message: lone surrogates and NUL escaped, cut
    to ``max_chars`` characters (a rejected 50 MB value must not become a 50 MB message)."""
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if "\x00" in text:
        text = text.replace("\x00", "\\u0000")
    if len(text) > max_chars:
        text = f"{text[:max_chars]}… ({len(text)} characters)"
    return text


__all__ = [
    "DEFAULT_ID_CHARS",
    "DEFAULT_LIMITS",
    "DEFAULT_LINE_BYTES",
    "DEFAULT_STRING_BYTES",
    "EventLimits",
    "checked_data",
    "data_problem",
    "printable",
    "text_problem",
]
