"""Manual event entry (document 004 §8 phase 1 "manual_collector")."""

from __future__ import annotations

import json

import pytest

from aaaf.evidence import EventValidationError, validate_event
from aaaf.evidence.collectors.manual import event_from_flags, event_from_text
from tests.evidence.events import MINIMAL_DATA, NOW, event


def test_flags_make_a_raw_event_that_validates() -> None:
    data = json.dumps(MINIMAL_DATA["task_completed"])
    raw = event_from_flags("task_completed", "agent-7", "2026-04-16T14:00:00Z", data, now=NOW, key="k-1")
    assert raw == {
        "type": "task_completed",
        "agent_id": "agent-7",
        "timestamp": "2026-04-16T14:00:00Z",
        "data": MINIMAL_DATA["task_completed"],
        "id": "k-1",
    }
    valid = validate_event(raw, now=NOW)
    assert (valid.agent, valid.key, valid.task_id) == ("agent-7", "k-1", "t-1")


def test_timestamp_defaults_to_now_and_data_to_an_empty_object() -> None:
    raw = event_from_flags("eval_result", None, None, None, now=NOW)
    assert raw == {"type": "eval_result", "timestamp": "2026-04-16T15:00:00Z", "data": {}}


def test_task_id_flag_fills_data_and_must_not_contradict_it() -> None:
    raw = event_from_flags("memory_operation", "a", None, '{"operation": "write"}', now=NOW, task_id="t-9")
    assert raw["data"] == {"operation": "write", "task_id": "t-9"}
    assert validate_event(raw, now=NOW).task_id == "t-9"
    same = event_from_flags("memory_operation", "a", None, '{"task_id": "t-9"}', now=NOW, task_id="t-9")
    assert same["data"] == {"task_id": "t-9"}
    with pytest.raises(EventValidationError) as caught:
        event_from_flags("memory_operation", "a", None, '{"task_id": "t-1"}', now=NOW, task_id="t-9")
    assert caught.value.field == "data.task_id"


@pytest.mark.parametrize("data_json", ['{"task_id": ', "[1, 2]", "3", "not json"])
def test_data_that_is_not_a_json_object_names_data(data_json: str) -> None:
    with pytest.raises(EventValidationError) as caught:
        event_from_flags("task_completed", "a", None, data_json, now=NOW)
    assert (caught.value.code, caught.value.field) == ("INVALID_REQUEST", "data")
    assert caught.value.message.startswith("data: --data")


def test_flag_built_event_meets_the_same_rules_as_any_other() -> None:
    raw = event_from_flags("task_assigned", "a", None, '{"task_id": "t", "complexity_level": 9}', now=NOW)
    with pytest.raises(EventValidationError) as caught:
        validate_event(raw, now=NOW)
    assert caught.value.field == "data.complexity_level"


def test_one_event_from_text() -> None:
    text = json.dumps(event("tool_invoked"), indent=2) + "\n"
    assert event_from_text(text) == event("tool_invoked")


@pytest.mark.parametrize("text", ["", "  \n", "{", "[]", '"event"'])
def test_text_that_is_not_one_event_object_is_invalid_request(text: str) -> None:
    with pytest.raises(EventValidationError) as caught:
        event_from_text(text)
    assert caught.value.code == "INVALID_REQUEST"
    assert caught.value.field is None
