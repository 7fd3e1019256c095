"""What an event may hold (issue 21 scope 1): checked before any database sees it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from aaaf.evidence.collectors.task_logs import read_jsonl
from aaaf.evidence.limits import EventLimits, data_problem, printable, text_problem
from aaaf.evidence.models import EventError, EventValidationError
from aaaf.evidence.payloads import show_value
from aaaf.evidence.validation import validate_event

NOW = datetime(2026, 11, 20, tzinfo=UTC)


def _event(**overrides: object) -> dict[str, object]:
    event: dict[str, object] = {
        "agent": "a1",
        "type": "task_assigned",
        "timestamp": "2026-11-19T10:00:00Z",
        "data": {
            "task_id": "t",
            "complexity_level": 2,
            "domain": "code",
            "assigned_at": "2026-11-19T10:00:00Z",
        },
    }
    event.update(overrides)
    return event


def test_text_problems() -> None:
    assert text_problem("plain") is None
    assert text_problem("a\x00b") == "contains a NUL character (\\u0000) at character 1"
    assert text_problem("ab\udc00") == "is not valid Unicode: a lone surrogate \\udc00 at character 2"
    assert text_problem("x" * 257, max_chars=256) == "is 257 characters long; the limit is 256"
    assert text_problem("x" * 256, max_chars=256) is None
    # bytes of UTF-8, not characters: 3 × "€" is 9 bytes
    assert text_problem("€€€", max_bytes=8) == "is 9 bytes long; the limit is 8 bytes"
    assert text_problem("€€€", max_bytes=9) is None


def test_data_problem_names_the_path() -> None:
    limits = EventLimits()
    assert data_problem({"a": [{"b": 1}, {"c": "x\x00"}]}, limits) == (
        "data.a[1].c",
        "contains a NUL character (\\u0000) at character 1",
    )
    assert data_problem({"ok": -(2**53 - 1), "big": [2**53]}, limits) is not None
    assert data_problem({"flag": True, "n": 2**53 - 1, "f": 1e300}, limits) is None


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (_event(id=""), "id"),
        (_event(id="k" * 257), "id"),
        (_event(agent="n" * 257), "agent"),
        (_event(agent=None, agent_id="a\x00"), "agent_id"),
        (_event(agent="\ud800"), "agent"),
    ],
)
def test_envelope_limits(event: dict[str, object], field: str) -> None:
    with pytest.raises(EventValidationError) as caught:
        validate_event(event, now=NOW)
    assert caught.value.field == field and caught.value.code == "INVALID_REQUEST"


def test_messages_never_carry_unprintable_or_huge_input() -> None:
    shown = show_value("\ud800" + "x" * 1000)
    shown.encode("utf-8")  # printable: no lone surrogate left
    assert shown.startswith('"\\ud800') and len(shown) < 120
    error = EventError(0, 1, "INVALID_REQUEST", "data.\ud800", "data.\ud800: bad \x00")
    assert error.message == "data.\\ud800: bad \\u0000" and error.field == "data.\\ud800"
    assert printable("y" * 2000, 10) == "yyyyyyyyyy… (2000 characters)"


def test_a_line_over_the_limit_is_rejected_without_being_read_whole(tmp_path: Path) -> None:
    good = json.dumps(_event())
    log = tmp_path / "log.jsonl"
    big = json.dumps(_event(data={"task_id": "t", "blob": "z" * 5000}))
    log.write_text("\n".join([good, big, good, "x" * 3000 + "\n" + good]) + "\n")
    items = list(read_jsonl(log, max_line_bytes=2048))
    assert [line for line, _ in items] == [1, 2, 3, 4, 5]
    errors = {line: item for line, item in items if isinstance(item, EventError)}
    assert sorted(errors) == [2, 4]
    assert (
        errors[2].message
        == f"line 2: {len(big)} bytes long; an event may be at most 2048 bytes (1 MiB by default)"
    )
    assert errors[4].index == 3
    exactly = tmp_path / "exact.jsonl"
    exactly.write_text(good + "\n")
    assert not isinstance(next(iter(read_jsonl(exactly, max_line_bytes=len(good))))[1], EventError)


def test_an_event_over_the_limit_in_a_json_document(tmp_path: Path) -> None:
    document = tmp_path / "events.json"
    document.write_text(json.dumps([_event(), _event(data={"blob": "z" * 5000}), _event()], indent=1))
    items = list(read_jsonl(document, max_line_bytes=2048))
    assert [isinstance(item, EventError) for _, item in items] == [False, True, False]


def test_deep_nesting_is_a_line_error_not_a_crash(tmp_path: Path) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    [(line, item)] = list(read_jsonl(log))
    assert line == 1 and isinstance(item, EventError)
