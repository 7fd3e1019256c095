"""The id of an event sent without one (SCORING.md §1, 2026-11-23): SHA-256 of the RFC 8785
form of {agent, type, timestamp in UTC with microseconds, data}.  The fast path must give
exactly the reference package's bytes."""

from __future__ import annotations

import hashlib
import math
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.evidence.canonical import MAX_SAFE_INTEGER, canonical_json, es6_number, event_digest, instant_text

AGENT = uuid.UUID("0b0e2b8e-6a3c-4d6f-9d3e-1a2b3c4d5e6f")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (1800.0, "1800"),
        (0.85, "0.85"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1.2345678901234568e20, "123456789012345680000"),
        (1e-6, "0.000001"),
        (1e-7, "1e-7"),
        (-2.5e-8, "-2.5e-8"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (1e16, "10000000000000000"),
    ],
)
def test_es6_numbers_by_hand(value: float, text: str) -> None:
    """RFC 8785 §3.2.2.3 (ECMA-262 Number.prototype.toString), worked by hand."""
    assert es6_number(value) == text
    assert rfc8785.dumps(value).decode() == text


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_es6_numbers_match_the_reference(value: float) -> None:
    assert es6_number(value).encode() == rfc8785.dumps(value)


_keys = st.one_of(
    st.text(max_size=6), st.sampled_from(["a", "b", "é", "\U0001f600", "\uffff", "\ue000", "1"])
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=12),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=600, deadline=None)
@given(_json)
def test_canonical_json_matches_the_reference(value: object) -> None:
    """orjson plus pre-formatted floats gives RFC 8785's exact bytes; keys that sort
    differently in UTF-16 (U+E000-U+FFFF vs astral) go to the reference itself."""
    assert canonical_json(value) == rfc8785.dumps(value)


def test_utf16_key_order() -> None:
    """RFC 8785 §3.2.3 sorts keys by UTF-16 code units: U+1F600 (D83D DE00) before U+FFFF."""
    assert canonical_json({"\uffff": 1, "\U0001f600": 2}) == '{"\U0001f600":2,"\uffff":1}'.encode()


def test_what_rfc8785_cannot_write_is_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        canonical_json({"n": MAX_SAFE_INTEGER + 1})
    with pytest.raises(ValueError, match="outside"):
        canonical_json({"n": 2**70})
    with pytest.raises(ValueError):
        canonical_json({"s": "\ud800"})
    with pytest.raises(ValueError):
        canonical_json({"x": math.inf})


def test_instant_text() -> None:
    paris = timezone(timedelta(hours=2))
    assert instant_text(datetime(2026, 4, 16, 16, 30, tzinfo=paris)) == "2026-04-16T14:30:00.000000Z"
    assert instant_text(datetime(2026, 4, 16, 14, 30, 0, 5, tzinfo=UTC)) == "2026-04-16T14:30:00.000005Z"
    with pytest.raises(ValueError):
        instant_text(datetime(2026, 4, 16))


def test_event_digest_by_hand() -> None:
    """The document hashed is spelled out here byte for byte (keys sorted, ES6 numbers)."""
    at = datetime(2026, 4, 16, 16, 30, tzinfo=timezone(timedelta(hours=2)))
    data = {"task_id": "t1", "time_to_complete_seconds": 1800.0, "quality": 0.85}
    document = (
        '{"agent":"0b0e2b8e-6a3c-4d6f-9d3e-1a2b3c4d5e6f",'
        '"data":{"quality":0.85,"task_id":"t1","time_to_complete_seconds":1800},'
        '"timestamp":"2026-04-16T14:30:00.000000Z","type":"task_completed"}'
    )
    expected = hashlib.sha256(document.encode()).hexdigest()
    assert event_digest(AGENT, "task_completed", at, data) == expected
    # the agent as text, the instant in another zone, the float as an int: the same event
    same = {"task_id": "t1", "time_to_complete_seconds": 1800, "quality": 0.85}
    assert event_digest(str(AGENT).upper(), "task_completed", at.astimezone(UTC), same) == expected
    assert event_digest(AGENT, "task_completed", at + timedelta(microseconds=1), data) != expected


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=3))
def test_floats_inside_documents_match_the_reference(values: list[float]) -> None:
    """The floats left to orjson (non-integral, 1e-5 ≤ |x| < 1e16) and the pre-formatted ones."""
    document = {"a": values, "b": {"c": values[0]}}
    assert canonical_json(document) == rfc8785.dumps(document)
