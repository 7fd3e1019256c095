"""Task-log reading (document 004 §8 phase 1; SCORING.md §1 "A task log file is JSON Lines")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.evidence import EventError, ValidEvent, validate_stream
from aaaf.evidence.collectors.task_logs import read_jsonl
from tests.evidence.events import NOW, event


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_jsonl_yields_events_with_line_numbers_skipping_blank_lines(tmp_path: Path) -> None:
    first, second = event("task_assigned"), event("task_completed")
    log = write_lines(tmp_path / "log.jsonl", [json.dumps(first), "", "   ", json.dumps(second)])
    assert list(read_jsonl(log)) == [(1, first), (4, second)]


def test_a_line_that_is_not_json_is_an_error_naming_its_line_and_the_rest_is_read(tmp_path: Path) -> None:
    good = event("task_completed")
    log = write_lines(
        tmp_path / "log.jsonl", [json.dumps(good), "", '{"type": "task_completed", ', json.dumps(good)]
    )
    items = list(read_jsonl(log))
    assert [line for line, _ in items] == [1, 3, 4]
    _, error = items[1]
    assert isinstance(error, EventError)
    assert (error.index, error.line, error.code, error.field) == (1, 3, "INVALID_REQUEST", None)
    assert error.message.startswith("line 3: not valid JSON")
    assert items[2] == (4, good)


def test_nan_tokens_are_read_so_that_validation_names_the_field(tmp_path: Path) -> None:
    log = write_lines(
        tmp_path / "log.jsonl",
        [
            '{"agent_id": "a", "type": "eval_result", "timestamp": "2026-04-16T14:30:00Z",'
            ' "data": {"dimension": "safety", "score": NaN}}'
        ],
    )
    ((line, raw),) = list(read_jsonl(log))
    results = list(validate_stream([(line, raw)], now=NOW))
    assert isinstance(results[0], EventError)
    assert (results[0].line, results[0].field) == (1, "data.score")


def test_invalid_utf8_line_is_an_error(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(b'{"type": "\xff"}\n' + json.dumps(event("task_completed")).encode() + b"\n")
    items = list(read_jsonl(log))
    assert isinstance(items[0][1], EventError) and items[0][1].line == 1
    assert items[1] == (2, event("task_completed"))


def test_byte_order_mark_and_crlf_are_tolerated(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + json.dumps(event("task_completed")).encode() + b"\r\n\r\n")
    assert list(read_jsonl(log)) == [(1, event("task_completed"))]


def test_jsonl_is_streamed_not_loaded_whole(tmp_path: Path) -> None:
    # Lines appended after reading has started are still read: the reader holds an open
    # file and a position, not a copy of the content.
    log = write_lines(
        tmp_path / "log.jsonl", [json.dumps(event("task_assigned")), json.dumps(event("task_revised"))]
    )
    items = read_jsonl(log)
    assert next(items)[0] == 1
    with log.open("a", encoding="utf-8") as appending:
        appending.write(json.dumps(event("tool_invoked")) + "\n")
    assert [line for line, _ in items] == [2, 3]


def test_read_then_validate_a_stream_reports_index_and_line(tmp_path: Path) -> None:
    lines = [
        json.dumps(event("task_assigned")),
        "not json",
        json.dumps(event("task_completed", type="task_done")),
        "",
        json.dumps(event("task_completed")),
    ]
    log = write_lines(tmp_path / "log.jsonl", lines)
    results = list(validate_stream(read_jsonl(log), now=NOW))
    assert isinstance(results[0], tuple) and results[0][0] == 0
    errors = [item for item in results if isinstance(item, EventError)]
    assert [(e.index, e.line, e.code) for e in errors] == [
        (1, 2, "INVALID_REQUEST"),
        (2, 3, "INVALID_EVENT_TYPE"),
    ]
    last = results[3]
    assert isinstance(last, tuple) and last[0] == 3 and isinstance(last[1], ValidEvent)


def test_json_document_list_gives_each_event_its_starting_line(tmp_path: Path) -> None:
    events = [event("task_assigned"), event("task_completed"), event("tool_invoked")]
    document = tmp_path / "events.json"
    document.write_text(json.dumps(events, indent=2), encoding="utf-8")
    items = list(read_jsonl(document))
    assert [raw for _, raw in items] == events
    text_lines = document.read_text().splitlines()
    for line, raw in items:
        assert text_lines[line - 1].strip() == "{"
        following = "\n".join(text_lines[line - 1 :])
        assert json.JSONDecoder().raw_decode(following.strip())[0] == raw


def test_json_document_compact_list_and_empty_list(tmp_path: Path) -> None:
    compact = tmp_path / "a.json"
    compact.write_text(json.dumps([event("task_assigned"), event("task_completed")]), encoding="utf-8")
    assert [line for line, _ in read_jsonl(compact)] == [1, 1]
    empty = tmp_path / "b.json"
    empty.write_text(" [ ] ", encoding="utf-8")
    assert list(read_jsonl(empty)) == []


def test_json_document_batch_body_and_single_event(tmp_path: Path) -> None:
    batch = tmp_path / "batch.json"
    batch.write_text(
        '{\n  "source": {"x": [1, 2]},\n  "events": [\n    '
        + json.dumps(event("task_assigned"))
        + ",\n\n    "
        + json.dumps(event("task_completed"))
        + "\n  ]\n}\n",
        encoding="utf-8",
    )
    assert list(read_jsonl(batch)) == [(4, event("task_assigned")), (6, event("task_completed"))]
    single = tmp_path / "one.json"
    single.write_text("\n\n" + json.dumps(event("task_revised")), encoding="utf-8")
    assert list(read_jsonl(single)) == [(3, event("task_revised"))]


def test_json_document_that_does_not_parse_is_one_error_at_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('[\n  {"type": "task_completed"},\n  {"type": \n]\n', encoding="utf-8")
    ((line, error),) = list(read_jsonl(broken))
    assert isinstance(error, EventError)
    assert line == error.line == 4
    assert error.message.startswith("line 4: not valid JSON")


def test_missing_file_is_an_aaaf_error(tmp_path: Path) -> None:
    with pytest.raises(AAAFError) as caught:
        read_jsonl(tmp_path / "absent.jsonl")
    assert caught.value.code == "INVALID_REQUEST"


@pytest.mark.parametrize("payload", [[1, 2], "text", 3])
def test_json_lines_holding_non_objects_are_yielded_for_validation_to_reject(
    tmp_path: Path, payload: Any
) -> None:
    log = write_lines(tmp_path / "log.jsonl", [json.dumps(payload)])
    results = list(validate_stream(read_jsonl(log), now=NOW))
    assert isinstance(results[0], EventError) and results[0].field is None
