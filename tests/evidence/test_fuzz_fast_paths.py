"""The ingest's fast paths against its general path, on generated input nobody enumerated
(tests/evidence/fuzz_events.py): the plain payload check (``aaaf.evidence.fast_payloads``),
``ValidEvent.quiet``, the timestamp text the PostgreSQL ``COPY`` writes as spelt, and the API's
JSON body parser and rules.  Each answers exactly what the general path answers: the same
``ValidEvent`` or error, no warning hidden, the instant PostgreSQL reads the one validation
parsed, ``json.loads``'s value or error, the refusal a walk of the parsed body gives."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from unittest import mock

import orjson
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from aaaf.api.json_body import parse_json
from aaaf.api.json_rules import json_problem
from aaaf.evidence import EventValidationError
from aaaf.evidence import validation as validation_module
from aaaf.evidence.fast_payloads import fast_document
from aaaf.evidence.limits import EventLimits
from aaaf.evidence.timestamps import parse_rfc3339, same_instant_in_postgres
from aaaf.evidence.validation import event_validator
from aaaf.evidence.warnings import _findings, payload_warnings
from aaaf.json_values import MAX_JSON_DEPTH
from aaaf.scoring.defaults import DEFAULT_CHECKLIST, DEFAULT_TAXONOMY
from aaaf.store import Store
from aaaf.store.event_copy_text import Columns, CopyText
from aaaf.store.types import json_default
from tests.evidence.fuzz_events import LIMITS, any_timestamp, bounded, json_texts, raw_events, values
from tests.store.factories import org_of

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
WORDS = st.sampled_from(
    [
        (frozenset(DEFAULT_TAXONOMY), frozenset(DEFAULT_CHECKLIST)),
        (frozenset(), frozenset()),
        (frozenset({"code"}), frozenset()),
        (frozenset(), frozenset({"memory_search_performed"})),
    ]
)


def _outcome(validate: Callable[[Any], Any], raw: Any) -> tuple[Any, ...]:
    """What validation answers, with the document the event writer stores (validation's, else
    the writer's own orjson text)."""
    try:
        event = validate(raw)
    except EventValidationError as error:
        return ("error", error.code, error.field, str(error), error.details)
    document = event.data_json or orjson.dumps(event.data, default=json_default)
    return ("valid", event.agent, event.type, event.timestamp, event.data, event.task_id, event.key, document)


def _general(validate: Callable[[Any], Any], raw: Any) -> tuple[Any, ...]:
    """``raw`` through validation with the plain payload check off: the full check alone."""
    with mock.patch.object(validation_module, "fast_document", lambda *_: None):
        return _outcome(validate, raw)


# 1 and 2: the plain payload check's answer, and quiet, against the full check and the warnings' pass
@bounded(500)
@given(raw=raw_events(), limits=LIMITS, words=WORDS)
def test_the_plain_check_and_quiet_answer_as_the_general_path(
    raw: dict[str, Any], limits: EventLimits, words: tuple[frozenset[str], frozenset[str]]
) -> None:
    validate = event_validator(now=NOW, limits=limits, words=words)
    fast = _outcome(validate, raw)
    assert fast == _general(validate, raw)
    if fast[0] != "valid":
        return
    event = validate(raw)
    taxonomy, checklist = words
    findings = list(_findings(raw, raw["type"], taxonomy, checklist))
    assert payload_warnings(raw, raw["type"], taxonomy, checklist) == findings
    plain = fast_document(raw["type"], raw["data"], limits) is not None
    # quiet exactly when the warnings' pass finds nothing, for every event the plain check proved
    assert event.quiet == (plain and not findings)
    if event.timestamp_text is not None:
        assert parse_rfc3339(event.timestamp_text) == event.timestamp


# 3: the timestamp text written as spelt is read by PostgreSQL as the instant validation parsed
@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    from tests.conftest import POSTGRES_URL, _require_postgres

    _require_postgres()
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(POSTGRES_URL)
    with psycopg.connect(
        host=url.host,
        port=url.port,
        dbname=url.database,
        user=url.username,
        password=url.password,
        autocommit=True,
    ) as connection:
        connection.execute("SET TIME ZONE 'UTC'")  # instants read back in UTC: year 1 to 9999
        yield connection


def _read_by_postgres(connection: Any, text: str) -> datetime | str:
    import psycopg

    try:
        return connection.execute("SELECT %s::text::timestamptz", (text,)).fetchone()[0]
    except psycopg.errors.DataError as error:
        return f"refused: {error.diag.message_primary}"


def _written_instant(timestamp: datetime, spelt: str | None) -> str:
    """The instant's text in the event writer's COPY (its event_keys line's third column)."""
    columns = Columns()
    for values_of, value in (
        (columns.ids, "0" * 32), (columns.agent_ids, "0" * 32), (columns.types, "task_assigned"),
        (columns.task_ids, None), (columns.keys, "k"), (columns.timestamps, timestamp),
        (columns.instants, spelt), (columns.data, {}), (columns.documents, b"{}"), (columns.digests, None),
    ):  # fmt: skip
        values_of.append(value)
    return CopyText(columns).keys.rstrip("\n").split("\t")[2]


@bounded(400)
@given(text=any_timestamp)
@example(text="2026-11-28T10:00:00+16:00")  # found: PostgreSQL refuses an offset of 16 hours or more
@example(text="2026-11-28T10:00:00-23:59")
@example(
    text="0001-01-01T00:00:00-00:60"
)  # found: 60 minutes or more, not RFC 3339 (the datetime takes up to 99)
@example(text="2026-11-28T10:00:00+15:99")
@example(text="0001-01-01T00:00:00+05:00")  # found: before year 1 in UTC, an OverflowError
@example(text="9999-12-31T23:59:59-00:01")
def test_postgres_reads_the_written_timestamp_as_the_instant_validation_parsed(
    postgres: Any, text: str
) -> None:
    validate = event_validator(
        now=datetime.max.replace(tzinfo=UTC) - timedelta(seconds=300)
    )  # none in the future
    data = {"task_id": "t", "complexity_level": 1, "domain": "code", "assigned_at": text}
    raw = {"agent_id": "a", "type": "task_assigned", "timestamp": text, "data": data}
    fast = _outcome(validate, raw)
    assert fast == _general(validate, raw)  # accepted or refused alike (the assigned_at shortcut)
    try:
        parsed = parse_rfc3339(text)
    except ValueError:
        assert fast[0] == "error" and fast[2] == "timestamp"
        return
    event = validate(raw)
    assert event.timestamp == parsed
    assert event.timestamp_text == (text if same_instant_in_postgres(text) else None)
    assert _read_by_postgres(postgres, _written_instant(parsed, event.timestamp_text)) == parsed
    assert _read_by_postgres(postgres, _written_instant(parsed, None)) == parsed


@pytest.mark.parametrize(
    "text",
    ["2026-11-28T10:00:00+16:00", "2026-11-28T10:00:00-23:59", "2026-11-28T10:00:00+15:59"],
)  # fmt: skip
def test_an_offset_postgres_refuses_is_stored_from_the_datetime(store: Store, text: str) -> None:
    """Found by the fuzzer: a spelt offset of 16 hours or more failed the whole COPY."""
    org = org_of(store)
    agent = org.enroll_agent("a")
    data = {"task_id": "t", "complexity_level": 1, "domain": "code", "assigned_at": text}
    raw = {"id": "e", "agent_id": str(agent.id), "type": "task_assigned", "timestamp": text, "data": data}
    valid = event_validator(now=NOW)(raw)
    org.add_events([(agent.id, valid)])
    assert [event.timestamp for event in org.events(agent.id)] == [parse_rfc3339(text)]


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-00:01"])
def test_an_instant_out_of_a_datetimes_range_is_refused_naming_the_field(text: str) -> None:
    """Found by the fuzzer: year 0 or 10000 in UTC raised an OverflowError out of validation."""
    validate = event_validator(now=NOW)
    data = {"task_id": "t", "complexity_level": 1, "domain": "code", "assigned_at": "2026-11-28T10:00:00Z"}
    for raw, field in (
        ({"agent_id": "a", "type": "task_assigned", "timestamp": text, "data": data}, "timestamp"),
        ({"agent_id": "a", "type": "task_assigned", "timestamp": "2026-11-28T10:00:00Z",
          "data": {**data, "assigned_at": text}}, "data.assigned_at"),
    ):  # fmt: skip
        with pytest.raises(EventValidationError) as caught:
            validate(raw)
        assert caught.value.field == field
        assert "(out of range)" in str(caught.value)


def test_a_datetime_out_of_range_in_utc_is_refused_naming_the_field() -> None:
    """The library's callers pass datetimes: year 1 at +05:00 is in year 0 in UTC."""
    east = timezone(timedelta(hours=5))
    raw = {"agent_id": "a", "type": "task_revised", "timestamp": datetime(1, 1, 1, tzinfo=east), "data": {}}
    with pytest.raises(EventValidationError) as caught:
        event_validator(now=NOW)(raw)
    assert caught.value.field == "timestamp"
    assert "(out of range)" in str(caught.value)


# the API's JSON bodies: parsed to json.loads's value or error, refused as a walk of the value says
def _parsed(parse: Callable[[bytes], Any], body: bytes) -> tuple[str, str]:
    try:
        value = parse(body)
    except Exception as error:
        return "error", f"{type(error).__name__}: {error}"
    return "value", _exact(value)


def _exact(value: Any) -> str:
    """repr, with each float's sign and bits (``-0.0`` and ``0.0``, NaN) and each dict's key order."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_exact(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_exact(item) for item in value) + "]"
    if isinstance(value, float):
        return f"float({value.hex()})" if math.isfinite(value) else repr(value)
    return f"{type(value).__name__}({value!r})"


bodies = st.one_of(
    json_texts().map(lambda text: text.encode("utf-8", "surrogatepass")),
    json_texts().map(lambda text: text.encode("utf-16", "surrogatepass")),
    json_texts().map(lambda text: b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")),
    json_texts().map(lambda text: text.encode("utf-8", "surrogatepass")[:-1]),
)


@bounded(500)
@given(body=bodies)
@example(body=b'{"a": 1, "a": 2, "b": [1, {"b": 3, "b": 4}]}')
@example(body=b"[1e400, -1e400, 1e-400, -0, -0.0, 0.1000000000000000055511151231257827]")
@example(body=b"[123456789012345678, 1234567890123456789, -9223372036854775808, 9.999999999999999e22]")
def test_a_body_parses_as_json_loads_parses_it(body: bytes) -> None:
    assert _parsed(parse_json, body) == _parsed(json.loads, body)


def _walked_problem(body: bytes) -> str | None:
    """What the body rule refuses, found by walking the parsed body: a NUL in any string (key or
    value), else NaN or Infinity, else nesting deeper than MAX_JSON_DEPTH (an object is a tuple
    of its members here, a list a list)."""
    constants: list[str] = []
    # every member of an object, also one a repeated key replaces: the rule reads the body's text
    value = json.loads(
        body, parse_constant=lambda name: constants.append(name) or float(name), object_pairs_hook=tuple
    )
    deepest, nul, stack = 0, False, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, tuple):
            deepest = max(deepest, depth)
            nul = nul or any("\x00" in key for key, _ in item)
            stack.extend((member, depth + 1) for _, member in item)
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((member, depth + 1) for member in item)
        elif isinstance(item, str):
            nul = nul or "\x00" in item
    if nul:
        return "NUL"
    if constants:
        return "NaN"
    return "nests" if deepest > MAX_JSON_DEPTH else None


def _deep(value: Any, levels: int) -> Any:
    for level in range(levels):
        value = [value] if level % 2 else {'k["{': value}
    return value


rule_bodies = st.one_of(
    json_texts(),
    json_texts(),
    json_texts(),
    st.builds(_deep, values, st.integers(MAX_JSON_DEPTH - 3, MAX_JSON_DEPTH + 1)).flatmap(json_texts),
)


@bounded(400)
@given(text=rule_bodies)
@example(text='["\\\\", "\\\\u0000", "\\\\\\u0000"]')
@example(text='{"a\\"[": NaN, "b": "]\\"\\\\"}')
def test_the_body_rule_refuses_what_a_walk_of_the_parsed_body_refuses(text: str) -> None:
    body = text.encode("utf-8", "surrogatepass")
    problem = json_problem(body)
    found = None if problem is None else next(kind for kind in ("NUL", "NaN", "nests") if kind in problem[0])
    assert found == _walked_problem(body)
