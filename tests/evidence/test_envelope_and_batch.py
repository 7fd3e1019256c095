"""The event envelope (type, agent, id, timestamp, data), non-finite numbers, the
future-timestamp boundary, and batches that keep their valid events (SCORING.md §1)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.errors import AAAFError
from aaaf.evidence import (
    EventError,
    EventValidationError,
    ValidEvent,
    validate_batch,
    validate_event,
    validate_stream,
)
from aaaf.evidence.timestamps import parse_rfc3339
from tests.evidence.events import AGENT, NOW, REMOVE, event, with_data


def rejected(raw: Any, **options: Any) -> EventValidationError:
    with pytest.raises(EventValidationError) as caught:
        validate_event(raw, now=NOW, **options)
    return caught.value


def at(offset: timedelta) -> str:
    return (NOW + offset).isoformat().replace("+00:00", "Z")


# --- type ------------------------------------------------------------------------------


def test_unknown_type_is_invalid_event_type() -> None:
    error = rejected(event("task_completed", type="task_finished"))
    assert (error.code, error.field) == ("INVALID_EVENT_TYPE", "type")
    assert error.message.startswith('type: Invalid event type "task_finished"')
    assert error.message.count("'memory_operation'") == 1
    assert error.http_status == 400 and error.exit_code == 2


def test_missing_or_non_string_type_is_invalid_request() -> None:
    error = rejected(event("task_completed", type=REMOVE))
    assert (error.code, error.field, error.message) == (
        "INVALID_REQUEST",
        "type",
        "type: Missing required field",
    )
    error = rejected(event("task_completed", type=["task_completed"]))
    assert (error.code, error.field) == ("INVALID_REQUEST", "type")


def test_an_event_that_is_not_an_object_is_invalid_request_without_field() -> None:
    error = rejected(["task_completed"])
    assert (error.code, error.field) == ("INVALID_REQUEST", None)
    assert "JSON object" in error.message


# --- agent -----------------------------------------------------------------------------


def test_agent_from_agent_id_or_agent_or_default() -> None:
    assert validate_event(event("task_completed"), now=NOW).agent == AGENT
    assert validate_event(event("task_completed", agent_id=REMOVE, agent="b"), now=NOW).agent == "b"
    defaulted = validate_event(event("task_completed", agent_id=REMOVE), now=NOW, default_agent="cli-agent")
    assert defaulted.agent == "cli-agent"
    own = validate_event(event("task_completed"), now=NOW, default_agent="cli-agent")
    assert own.agent == AGENT


def test_missing_agent_without_default_names_agent_id() -> None:
    error = rejected(event("task_completed", agent_id=REMOVE))
    assert (error.code, error.field) == ("INVALID_REQUEST", "agent_id")
    assert error.message.startswith("agent_id: Missing required field")


@pytest.mark.parametrize(
    ("envelope", "field"),
    [
        ({"agent_id": ""}, "agent_id"),
        ({"agent_id": 42}, "agent_id"),
        ({"agent_id": REMOVE, "agent": 42}, "agent"),
        ({"agent_id": "a", "agent": "b"}, "agent_id"),
    ],
)
def test_bad_agent_is_rejected(envelope: dict[str, Any], field: str) -> None:
    error = rejected(event("task_completed", **envelope))
    assert (error.code, error.field) == ("INVALID_REQUEST", field)


def test_agent_id_and_agent_may_both_be_given_when_equal() -> None:
    assert validate_event(event("task_completed", agent="security-auditor"), now=NOW).agent == AGENT


# --- idempotency key -------------------------------------------------------------------


def test_id_is_the_idempotency_key() -> None:
    assert validate_event(event("task_completed", id="evt-1"), now=NOW).key == "evt-1"
    assert validate_event(event("task_completed"), now=NOW).key is None
    assert validate_event(event("task_completed", id=None), now=NOW).key is None
    for bad in (7, "", ["evt"]):
        error = rejected(event("task_completed", id=bad))
        assert (error.code, error.field) == ("INVALID_REQUEST", "id")


# --- timestamp -------------------------------------------------------------------------


def test_timestamp_is_normalised_to_utc() -> None:
    valid = validate_event(event("task_completed", timestamp="2026-04-16T16:30:00.250+02:00"), now=NOW)
    assert valid.timestamp == datetime(2026, 4, 16, 14, 30, 0, 250000, tzinfo=UTC)
    assert valid.timestamp.utcoffset() == timedelta(0)


def test_aware_datetime_objects_are_accepted_naive_ones_rejected() -> None:
    aware = datetime(2026, 4, 16, 10, 0, tzinfo=timezone(timedelta(hours=-4)))
    assert validate_event(event("task_completed", timestamp=aware), now=NOW).timestamp == datetime(
        2026, 4, 16, 14, 0, tzinfo=UTC
    )
    error = rejected(event("task_completed", timestamp=datetime(2026, 4, 16, 14, 0)))
    assert (error.code, error.field) == ("INVALID_REQUEST", "timestamp")


@pytest.mark.parametrize(
    "timestamp",
    [
        "2026-04-16T14:30:00",  # no offset
        "2026-04-16",  # a date only
        "2026-04-16T14:30:00+0100",  # ISO 8601 basic offset, not RFC 3339
        "2026-04-16T14:30:00+00:60",  # an offset's minutes are 00-59 (the datetime reads 1 h)
        "2026-04-16T14:30:00-15:99",  # (the datetime reads 16 h 39 min)
        "2026-04-16T14:30:00+24:00",  # an offset's hours are 00-23
        "20260416T143000Z",  # ISO 8601 basic format
        "2026-02-30T00:00:00Z",  # no such date
        "yesterday",
        1713277800,
        None,
    ],
)
def test_timestamp_must_be_rfc3339_with_offset(timestamp: Any) -> None:
    error = rejected(event("task_completed", timestamp=timestamp))
    assert (error.code, error.field) == ("INVALID_REQUEST", "timestamp")
    assert error.message.startswith("timestamp: must be an RFC 3339 timestamp with offset")


def test_naive_timestamp_message_says_the_offset_is_missing() -> None:
    error = rejected(event("task_completed", timestamp="2026-04-16T14:30:00"))
    assert error.message.endswith("(no UTC offset)")


def test_missing_timestamp() -> None:
    error = rejected(event("task_completed", timestamp=REMOVE))
    assert (error.field, error.message) == ("timestamp", "timestamp: Missing required field")


@pytest.mark.parametrize(
    "text", ["2026-04-16t14:30:00z", "2026-04-16 14:30:00Z", "2026-04-16T14:30:00.123456789-05:30"]
)
def test_rfc3339_variants_are_accepted(text: str) -> None:
    assert parse_rfc3339(text).tzinfo is UTC


# --- the future boundary (5 minutes, config) -------------------------------------------


def test_four_minutes_fifty_nine_in_the_future_is_accepted() -> None:
    valid = validate_event(event("task_completed", timestamp=at(timedelta(minutes=4, seconds=59))), now=NOW)
    assert valid.timestamp == NOW + timedelta(minutes=4, seconds=59)


def test_exactly_five_minutes_in_the_future_is_accepted() -> None:
    assert validate_event(event("task_completed", timestamp=at(timedelta(minutes=5))), now=NOW)


def test_five_minutes_one_second_in_the_future_is_rejected() -> None:
    error = rejected(event("task_completed", timestamp=at(timedelta(minutes=5, seconds=1))))
    assert (error.code, error.field) == ("INVALID_REQUEST", "timestamp")
    assert "Timestamp in future" in error.message


def test_future_tolerance_is_configurable() -> None:
    raw = event("task_completed", timestamp=at(timedelta(seconds=1)))
    error = rejected(raw, future_tolerance_seconds=0)
    assert "Timestamp in future" in error.message
    assert validate_event(raw, now=NOW, future_tolerance_seconds=1)


def test_future_is_judged_on_the_instant_not_the_written_offset() -> None:
    # 17:04 at +02:00 is 15:04 UTC: four minutes after NOW, accepted
    assert validate_event(event("task_completed", timestamp="2026-04-16T17:04:00+02:00"), now=NOW)


def test_now_must_be_timezone_aware() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        validate_event(event("task_completed"), now=datetime(2026, 4, 16, 15, 0))


# --- data ------------------------------------------------------------------------------


def test_data_must_be_present_and_an_object() -> None:
    error = rejected(event("task_completed", data=REMOVE))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data")
    error = rejected(event("task_completed", data=[1, 2]))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data")


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_number_in_a_declared_field_is_rejected(value: float) -> None:
    error = rejected(with_data("task_completed", time_to_complete_seconds=value))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.time_to_complete_seconds")
    assert "finite number" in error.message


def test_nan_is_rejected_anywhere_even_in_unknown_nested_fields() -> None:
    error = rejected(with_data("task_completed", extra={"samples": [1.0, math.nan]}))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.extra.samples[1]")
    assert error.message == "data.extra.samples[1]: must be a finite number, got NaN"
    raw = with_data("task_completed")
    raw["data"]["tools_used"] = [
        {"tool": "grep", "invocations": 1, "successes": 1, "unnecessary": 0, "latency": math.inf}
    ]
    error = rejected(raw)
    assert error.field == "data.tools_used[0].latency"


def test_nan_in_eval_score_is_rejected() -> None:
    error = rejected(with_data("eval_result", score=math.nan))
    assert error.field == "data.score"


def test_values_json_cannot_carry_are_rejected() -> None:
    error = rejected(with_data("task_completed", when=datetime(2026, 1, 1, tzinfo=UTC)))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.when")
    error = rejected(with_data("task_completed", extra={1: "x"}))
    assert error.field == "data.extra"
    assert "keys must be strings" in error.message
    error = rejected(with_data("task_completed", extra=[[1, {2.5, 3.5}]]))
    assert error.field == "data.extra[0][1]"
    assert error.message == "data.extra[0][1]: must be a JSON value, got a non-JSON value of type set"
    error = rejected(with_data("task_completed", extra=(1, 2)))  # strict: a list, not a tuple
    assert error.field == "data.extra"


# --- what a valid event carries --------------------------------------------------------


def test_valid_event_fields_and_canonical_dict() -> None:
    raw = event("task_completed", id="k-1", timestamp="2026-04-16T16:30:00+02:00")
    valid = validate_event(raw, now=NOW)
    assert valid == ValidEvent(
        agent=AGENT,
        type="task_completed",
        timestamp=datetime(2026, 4, 16, 14, 30, tzinfo=UTC),
        data=raw["data"],
        task_id="t-1",
        key="k-1",
    )
    assert valid.to_dict() == {
        "agent_id": AGENT,
        "type": "task_completed",
        "timestamp": "2026-04-16T14:30:00Z",
        "data": raw["data"],
        "id": "k-1",
    }
    assert validate_event(valid.to_dict(), now=NOW) == valid


def test_the_error_is_an_aaaf_error_with_field_details() -> None:
    error = rejected(with_data("task_assigned", complexity_level=9))
    assert isinstance(error, AAAFError)
    assert error.to_dict() == {
        "error": {
            "code": "INVALID_REQUEST",
            "message": "data.complexity_level: must be an integer from 1 to 5, got 9",
            "details": {"field": "data.complexity_level"},
        }
    }


# --- batches ---------------------------------------------------------------------------


def test_batch_keeps_valid_events_and_reports_each_invalid_one_with_index_and_line() -> None:
    raws = [
        event("task_assigned"),
        event("task_completed", type="task_finished"),
        with_data("task_completed", revision_count=-1),
        event("task_completed"),
        event("task_completed", agent_id=REMOVE),
        event("task_completed", timestamp=at(timedelta(hours=1))),
    ]
    valid, errors = validate_batch(raws, now=NOW, lines=[1, 3, 4, 7, 8, 9])
    assert [index for index, _ in valid] == [0, 3]
    assert [item.type for _, item in valid] == ["task_assigned", "task_completed"]
    assert [(e.index, e.line, e.code, e.field) for e in errors] == [
        (1, 3, "INVALID_EVENT_TYPE", "type"),
        (2, 4, "INVALID_REQUEST", "data.revision_count"),
        (4, 8, "INVALID_REQUEST", "agent_id"),
        (5, 9, "INVALID_REQUEST", "timestamp"),
    ]
    assert errors[3].to_dict()["error"].startswith("timestamp: Timestamp in future")


def test_batch_error_item_is_document_004s_shape_plus_code_and_field() -> None:
    _, errors = validate_batch([event("task_completed", type="nope")], now=NOW)
    item = errors[0].to_dict()
    assert set(item) == {"index", "code", "field", "error"}  # no line when none was given
    assert item["index"] == 0
    _, errors = validate_batch([event("task_completed", type="nope")], now=NOW, lines=[12])
    assert errors[0].to_dict()["line"] == 12


def test_batch_uses_the_default_agent() -> None:
    valid, errors = validate_batch([event("task_completed", agent_id=REMOVE)], now=NOW, default_agent="x")
    assert not errors and valid[0][1].agent == "x"


def test_batch_lines_must_cover_every_event() -> None:
    with pytest.raises(ValueError, match="lines"):
        validate_batch([event("task_completed"), event("task_completed")], now=NOW, lines=[1])


def test_stream_passes_upstream_errors_through_and_numbers_items() -> None:
    upstream = EventError(
        index=1, line=2, code="INVALID_REQUEST", field=None, message="line 2: not valid JSON"
    )
    items = [(1, event("task_completed")), (2, upstream), (4, event("task_completed", type="nope"))]
    out = list(validate_stream(items, now=NOW))
    assert isinstance(out[0], tuple) and out[0][0] == 0
    assert out[1] is upstream
    assert isinstance(out[2], EventError) and (out[2].index, out[2].line) == (2, 4)


# --- robustness: whatever arrives, the answer is an event or a named error ---------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    event_type=st.sampled_from(["task_completed", "tool_invoked", "workflow_run", "eval_result", "other"]),
    data=st.dictionaries(
        st.sampled_from(["task_id", "errors", "tools_used", "score", "dag_steps", "x"]),
        json_values,
        max_size=5,
    ),
)
def test_any_json_data_gives_an_event_or_an_error_naming_a_data_field(
    event_type: str, data: dict[str, Any]
) -> None:
    raw = {"agent_id": AGENT, "type": event_type, "timestamp": "2026-04-16T14:30:00Z", "data": data}
    try:
        valid = validate_event(raw, now=NOW)
    except EventValidationError as error:
        assert error.code in {"INVALID_REQUEST", "INVALID_EVENT_TYPE"}
        assert error.field is not None
        assert error.field == "type" or error.field.startswith("data")
        assert error.message.startswith(error.field + ": ")
    else:
        assert valid.data is data
