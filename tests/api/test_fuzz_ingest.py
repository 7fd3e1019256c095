"""``POST /api/v1/events/batch`` on a live ``aaaf serve`` (every ingest fast path on: the orjson
body parser and its rules, the plain payload check, ``quiet``, the COPY's spelt timestamps on
PostgreSQL) against the library's ``collect`` with the fast paths off, on generated batches
(tests/evidence/fuzz_events.py) sent twice: the same answer (accepted, duplicates, each error),
the same refusals of a whole body, the same rows stored; and ``collect`` with and without the
fast paths gives the same report, its warnings included."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.pool import NullPool

from aaaf.api.limits import MAX_BODY_BYTES
from aaaf.api.routes.events import batch_answer
from aaaf.evidence import validation as validation_module
from aaaf.evidence.timestamps import parse_rfc3339
from aaaf.services.audits import gate_findings
from aaaf.services.collect import collect
from aaaf.store import OrgStore, Store, open_store
from aaaf.store.tables import agents, events
from tests.api.conftest import LiveServer
from tests.conftest import _PostgresSchema, copy_sqlite_template
from tests.evidence.fuzz_events import AGENTS, bounded, json_texts, raw_events
from tests.evidence.test_fuzz_fast_paths import _walked_problem


@pytest.fixture(scope="module")
def reference(
    live: LiveServer, _sqlite_template: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, Engine]]:
    """A database of the live server's dialect for the library's collect, and the server's own
    database opened beside it, to read back what the server stored."""
    schema = None
    if live.dialect == "sqlite":
        url = (
            f"sqlite:///{copy_sqlite_template(_sqlite_template, tmp_path_factory.mktemp('fuzz') / 'aaaf.db')}"
        )
    else:
        schema = _PostgresSchema()
        url = schema.url
    served = create_engine(live.database_url, poolclass=NullPool)
    try:
        with open_store(url) as store:
            yield store, served
    finally:
        served.dispose()
        if schema is not None:
            schema.drop()


def _rows(engine: Engine, organization_id: uuid.UUID) -> list[tuple[Any, ...]]:
    """The organization's stored events, by agent name; an event sent without an id is keyed by
    its content digest, which names the agent by its id: only whether it has one is compared."""
    query = (
        select(
            agents.c.name,
            events.c.type,
            events.c.task_id,
            events.c.idempotency_key,
            events.c.content_digest.is_not(None),
            events.c.timestamp,
            events.c.data,
        )
        .join(agents, agents.c.id == events.c.agent_id)
        .where(agents.c.organization_id == organization_id)
    )
    with engine.connect() as connection:
        rows = [tuple(row) for row in connection.execute(query)]
    kept = [(*row[:3], None if row[4] else row[3], *row[4:]) for row in rows]
    return sorted(kept, key=repr)


def _collected(org: OrgStore, sent: list[Any], now: datetime, fast: bool) -> Any:
    items = gate_findings(((None, raw) for raw in sent), may_audit=True)
    if fast:
        return collect(org, items, now=now)
    with (
        mock.patch.object(validation_module, "fast_document", lambda *_: None),
        mock.patch.object(validation_module, "same_instant_in_postgres", lambda _: False),
    ):
        return collect(org, items, now=now)


def _far_from(now: datetime, sent: list[Any]) -> bool:
    """No event's timestamp within a day of ``now`` (the server's clock and this one differ)."""
    for raw in sent:
        stamp = raw.get("timestamp") if isinstance(raw, dict) else None
        try:
            instant = parse_rfc3339(stamp) if isinstance(stamp, str) else None
        except ValueError:
            instant = None
        if instant is not None and abs(instant - now) < timedelta(days=1):
            return False
    return True


ODD_KEYS = ("", 1, "k\x00", "x" * 257, "k\n", "k\\")


def _storable(raw: Any) -> bool:
    """Whether ``raw`` holds nothing the body rule refuses (which refuses the whole batch)."""
    text = json.dumps(raw, default=repr)
    return "\\u0000" not in text and "NaN" not in text and "Infinity" not in text


@st.composite
def batches(draw: st.DrawFn) -> str:
    """A batch body of up to 30 events; in three of four, none the body rule refuses."""
    # no id that is a lone surrogate: the answer echoes it and cannot be written (test below)
    sent = draw(st.lists(raw_events(odd_keys=ODD_KEYS), min_size=4, max_size=30))
    if draw(st.integers(0, 3)):
        sent = [raw for raw in sent if _storable(raw)] or sent[:1]
    sizes = [len(json.dumps(raw, default=repr)) for raw in sent]
    kept = [raw for raw, size in zip(sent, sizes, strict=True) if size < 100_000]  # under 1 MiB
    kept = kept[:1] if sum(sizes) > 500_000 else kept
    if draw(st.integers(0, 4)):  # else the object too may repeat its key: events may be anything
        return '{"events": ' + draw(json_texts(kept)) + "}"
    return draw(json_texts({"events": kept}))


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    """A batch's answer, each "Timestamp in future" error's clock (the server's, or this one's) taken out."""
    for error in body.get("errors", []):
        error["error"] = re.sub(r"after [-0-9T:.]+Z\)$", "after now)", error["error"])
    return body


@bounded(25)
@given(text=batches())
def test_a_batch_gets_the_answer_and_rows_of_the_general_path(
    live: LiveServer, reference: tuple[Store, Engine], text: str
) -> None:
    store, served_engine = reference
    body = text.encode("utf-8", "surrogatepass")
    now = datetime.now(UTC)
    sent = json.loads(body).get("events")  # a repeated key may have made it anything
    assume(len(body) < MAX_BODY_BYTES and _far_from(now, sent if isinstance(sent, list) else []))
    org = live.organization()
    for name in AGENTS:
        assert org.client.post("/api/v1/agents", json={"name": name}).status_code == 201
    mine = store.scope(store.create_organization(f"fuzz-{uuid.uuid4().hex[:10]}").id)
    plain = store.scope(store.create_organization(f"fuzz-{uuid.uuid4().hex[:10]}").id)
    for store_org in (mine, plain):
        for name in AGENTS:
            store_org.enroll_agent(name)
    refused = _walked_problem(body)
    for _ in range(2):  # sent again: each event a duplicate of itself (or a conflict, as before)
        answer = org.client.post(
            "/api/v1/events/batch", content=body, headers={"Content-Type": "application/json"}
        )
        if refused is not None:  # the body rule: nothing of it reaches the route
            event(f"refused: {refused}")
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == "INVALID_REQUEST"
            continue
        if not isinstance(sent, list):  # the route's own check of its body
            event("not a list")
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["details"]["field"] == "body.events"
            continue
        assert answer.status_code == 201, answer.text
        general = _collected(mine, sent, now, fast=False)
        assert _answer(answer.json()) == _answer(batch_answer(general, sent).model_dump(mode="json"))
        event(f"accepted {min(general.accepted, 3)}+, duplicates {min(general.duplicates, 3)}+")
        fast = _collected(plain, sent, now, fast=True)
        assert fast.to_dict() == general.to_dict()  # warnings included
    served = _rows(served_engine, uuid.UUID(org.id))
    assert served == _rows(store.engine, mine.organization_id)
    assert _rows(store.engine, plain.organization_id) == served


def test_an_event_whose_id_is_a_lone_surrogate_is_rejected_not_a_500(live: LiveServer) -> None:
    """Found by the fuzzer: the answer echoed the id and could not be written (500); the error
    now names the field and leaves the id out (the index finds the event)."""
    org = live.organization()
    body = b'{"events": [{"id": "\\ud800", "agent": "a", "type": "task_revised", "timestamp": "2026-01-01T00:00:00Z", "data": {}}]}'
    answer = org.client.post(
        "/api/v1/events/batch", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["errors"][0]["field"] == "id"
    assert answer.json()["errors"][0]["id"] is None
    assert answer.json()["errors"][0]["index"] == 0
    single = org.client.post(
        "/api/v1/events",
        content=body[len(b'{"events": [') : -len(b"]}")],
        headers={"Content-Type": "application/json"},
    )
    assert single.status_code == 400, single.text
    assert single.json()["error"]["details"] == {"field": "id", "id": None}
