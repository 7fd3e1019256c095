"""The PostgreSQL event writer's ``COPY`` text (:mod:`aaaf.store.event_copy_text`): byte for
byte what psycopg's ``write_row`` writes for the same rows — escapes, NULL, timestamps — and
events whose keys, task ids and data hold the characters COPY escapes come back as sent,
on the straight path and on the staged one (the same batch again)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.store import OrgStore, Store
from aaaf.store.event_copy_text import Columns, CopyText
from aaaf.store.event_writer import Stored
from aaaf.store.types import json_default

from .factories import T0, Event, org_of

# every character COPY's text format escapes, and a backslash before a quote inside JSON
AWKWARD = "tab\there nl\nhere cr\rhere bs\\here bell\bff\fvt\v end"
ROWS: list[tuple[str | None, str, dict[str, Any], str | None, datetime]] = [
    (
        "t\\1",
        "k1",
        {"a": 'x\\y"q\n\t', "n": [1, 2.5, None, True]},
        None,
        datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
    ),
    (None, AWKWARD, {"é": "✓", "empty": {}}, "ab" * 32, datetime(999, 1, 1, tzinfo=UTC)),
    (AWKWARD, "k3", {}, None, datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=2)))),
]


def _columns(rows: list[tuple[str | None, str, dict[str, Any], str | None, datetime]]) -> Columns:
    columns = Columns()
    for number, (task_id, key, data, digest, instant) in enumerate(rows):
        columns.ids.append(f"{number:032x}")
        columns.agent_ids.append("f" * 32)
        columns.types.append("task_completed")
        columns.task_ids.append(task_id)
        columns.keys.append(key)
        columns.timestamps.append(instant)
        columns.instants.append(None)
        columns.data.append(data)
        columns.documents.append(None)
        columns.digests.append(digest)
    return columns


def _as_psycopg_writes(columns: Columns) -> tuple[bytes, bytes]:
    from psycopg._copy_base import format_row_text
    from psycopg.adapt import Transformer

    events, keys = bytearray(), bytearray()
    transformer = Transformer()
    for event_id, agent_id, kind, task_id, key, instant, data, digest in columns.rows():
        document = orjson.dumps(data, default=json_default).decode()
        format_row_text(
            (event_id, agent_id, kind, task_id, key, instant, document, digest), transformer, events
        )
        format_row_text((agent_id, key, instant), transformer, keys)
    return bytes(events), bytes(keys)


def test_the_text_is_what_psycopg_writes_row_by_row() -> None:
    columns = _columns(ROWS)
    text = CopyText(columns)
    assert (text.events.encode(), text.keys.encode()) == _as_psycopg_writes(columns)


@given(st.lists(st.datetimes(timezones=st.just(UTC)), min_size=1, max_size=20))
@settings(max_examples=200, deadline=None)
def test_every_utc_instant_is_written_as_psycopg_writes_it(instants: list[datetime]) -> None:
    columns = _columns([("t", f"k{n}", {}, None, instant) for n, instant in enumerate(instants)])
    text = CopyText(columns)
    assert (text.events.encode(), text.keys.encode()) == _as_psycopg_writes(columns)


def test_the_json_validation_wrote_is_the_json_written() -> None:
    """An event's data is written once: validation's orjson text of it goes into the COPY."""
    from aaaf.evidence.validation import event_validator

    validate = event_validator(now=datetime(2026, 11, 29, tzinfo=UTC))
    data = {
        "task_id": "t1",
        "complexity_level": 2,
        "domain": "code",
        "assigned_at": "2026-11-28T00:00:00Z",
        "note": 'a\\b "c"',
        "n": [1, 2.5],
    }
    raw = {"agent_id": "a", "type": "task_assigned", "timestamp": "2026-11-28T00:00:00Z", "data": data}
    valid = validate(raw)
    assert valid.data_json == orjson.dumps(data)
    # a string of 16 digits: the shortcut is in doubt, the document is walked, nothing kept
    assert validate({**raw, "data": {**data, "note": "1" * 16}}).data_json is None
    columns = _columns([("t1", "k", {"other": "document"}, None, datetime(2026, 11, 28, tzinfo=UTC))])
    columns.documents[0] = valid.data_json
    written = CopyText(columns).events.split("\t")[6]
    assert written == orjson.dumps(data).decode().replace("\\", "\\\\")


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_escaped_characters_come_back_as_sent(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    batch = [
        (
            agent.id,
            Event("task_completed", T0 + timedelta(seconds=n), {**data, "task_id": task_id}, task_id, key),
        )
        for n, (task_id, key, data, _, _) in enumerate(ROWS)
    ]
    assert org.add_events(batch) == [Stored.NEW] * len(batch)
    # again: every key known, so on PostgreSQL the batch goes through the staging table
    assert org.add_events(batch) == [Stored.DUPLICATE] * len(batch)
    back = {event.key: event for event in org.events(agent.id)}
    assert len(back) == len(batch)
    for _, sent in batch:
        stored = back[sent.key]
        assert (stored.task_id, stored.data, stored.timestamp) == (sent.task_id, sent.data, sent.timestamp)
