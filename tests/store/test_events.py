"""Events: idempotent by (agent, key) (SCORING.md §1), stored with the store's own id
(§6), read back exactly — timezone-aware UTC timestamps, JSON intact, floats bit-exact."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta, timezone
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aaaf.errors import AAAFError
from aaaf.store import OrgStore, Store, event_writer
from aaaf.store.event_writer import Stored
from tests.sql_statements import statements

from .factories import T0, Event, completed, minutes, org_of

NEW, DUPLICATE, CONFLICT = Stored.NEW, Stored.DUPLICATE, Stored.CONFLICT


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_same_key_twice_stores_once(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assert org.add_events([(agent.id, completed("t1", T0, key="event-1"))]) == [NEW]
    assert org.add_events([(agent.id, completed("t1", T0, key="event-1"))]) == [DUPLICATE]
    # SCORING.md §1 (2026-11-23): a known id with other content is a conflict, not dropped
    assert org.add_events([(agent.id, completed("t1", T0 + minutes(1), key="event-1"))]) == [CONFLICT]
    events = org.events(agent.id)
    assert len(events) == 1 and events[0].timestamp == T0 and events[0].key == "event-1"


def test_duplicates_inside_one_batch_keep_the_first(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    batch = [
        (agent.id, completed("t1", T0, key="k")),
        (agent.id, completed("t2", T0, key="k")),  # same id, other content
        (agent.id, completed("t3", T0, key="other")),
        (agent.id, completed("t4", T0)),
        (agent.id, completed("t4", T0)),  # identical in every field: one event (SCORING.md §1)
        (agent.id, completed("t4", T0 + minutes(1))),  # another instant: another event
        (agent.id, completed("t1", T0, key="k")),  # re-sent exactly: nothing new
    ]
    assert org.add_events(batch) == [NEW, CONFLICT, NEW, NEW, DUPLICATE, NEW, DUPLICATE]
    assert sorted(event.task_id or "" for event in org.events(agent.id)) == ["t1", "t3", "t4", "t4"]


def test_a_keyless_event_is_keyed_by_its_content_digest(org: OrgStore) -> None:
    """The derived id is SCORING.md §1's: SHA-256 of the RFC 8785 form of {agent, type,
    timestamp in UTC with microseconds, data}; the same instant in another zone is the same
    event."""
    import hashlib

    import rfc8785

    agent = org.enroll_agent("a")
    event = completed("t1", T0)
    assert org.add_events([(agent.id, event)]) == [NEW]
    in_paris = T0.astimezone(timezone(timedelta(hours=2)))
    assert org.add_events([(agent.id, completed("t1", in_paris))]) == [DUPLICATE]
    expected = hashlib.sha256(
        rfc8785.dumps(
            {
                "agent": str(agent.id),
                "type": "task_completed",
                "timestamp": "2026-04-16T12:00:00.000000Z",
                "data": dict(event.data),
            }
        )
    ).hexdigest()
    [stored] = org.events(agent.id)
    assert stored.key == expected


def test_the_content_digest_is_computed_only_where_it_decides(
    org: OrgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event with an id stores no digest and costs none on first arrival; a repeated id
    compares the digest of the stored row with the new event's (same content: duplicate,
    other content: conflict), across batches and inside one.  An id-less event's digest is
    its key and is stored."""
    from sqlalchemy import select

    from aaaf.store import tables as t

    agent = org.enroll_agent("a")
    computed: list[str] = []
    real_digest = event_writer.event_digest
    real_for_text = event_writer.digest_for_agent_text

    def counting(*args: object) -> str:
        computed.append("x")
        return real_digest(*args)  # type: ignore[arg-type]

    def counting_for_text(*args: object) -> str:
        computed.append("x")
        return real_for_text(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(event_writer, "event_digest", counting)
    monkeypatch.setattr(event_writer, "digest_for_agent_text", counting_for_text)
    first = [(agent.id, completed(f"t{i}", T0, key=f"k{i}")) for i in range(50)]
    assert org.add_events(first) == [NEW] * 50
    assert computed == []  # nothing decided by a digest: none computed
    again = [
        (agent.id, completed("t0", T0, key="k0")),  # the stored content: duplicate
        (agent.id, completed("t1", T0 + minutes(1), key="k1")),  # other content: conflict
        (agent.id, completed("new", T0, key="k-new")),
        (agent.id, completed("new", T0, key="k-new")),  # repeated in the batch, same content
        (agent.id, completed("other", T0, key="k-new")),  # repeated in the batch, other content
        (agent.id, completed("keyless", T0)),
    ]
    assert org.add_events(again) == [DUPLICATE, CONFLICT, NEW, DUPLICATE, CONFLICT, NEW]
    with org.engine.connect() as connection:
        rows = dict(
            connection.execute(
                select(t.events.c.task_id, t.events.c.content_digest).where(t.events.c.agent_id == agent.id)
            ).all()
        )
    keyless = next(e for e in org.events(agent.id) if e.task_id == "keyless")
    assert rows["keyless"] == keyless.key and len(keyless.key or "") == 64
    assert rows["t0"] is None and rows["new"] is None


def test_keys_are_per_agent(org: OrgStore) -> None:
    first, second = org.enroll_agent("first"), org.enroll_agent("second")
    assert org.add_events(
        [(first.id, completed("t", T0, key="k")), (second.id, completed("t", T0, key="k"))]
    ) == [NEW, NEW]


def test_idempotency_across_chunks(org: OrgStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(event_writer, "EVENT_CHUNK_SIZE", 3)
    agent = org.enroll_agent("a")
    org.add_events([(agent.id, completed("old", T0, key="k2"))])
    keys = ["k1", "k2", "k3", "k1", None, "k4", "k3", "k5"]
    flags = org.add_events([(agent.id, completed(f"t{key or i}", T0, key=key)) for i, key in enumerate(keys)])
    # k2 was stored with other content ("old"): a conflict; k1 and k3 repeat with the same
    assert flags == [NEW, CONFLICT, NEW, DUPLICATE, NEW, NEW, DUPLICATE, NEW]
    assert org.count_events(agent.id) == 1 + 5


def test_sqlite_looks_keys_up_only_when_one_was_there(org: OrgStore) -> None:
    """On SQLite a chunk of new events is one INSERT and no look-up of its keys; a chunk that
    meets a stored key looks its keys up after the insert and settles them as before."""
    if org.engine.dialect.name != "sqlite":
        pytest.skip("the SQLite writer's statements")
    agent = org.enroll_agent("a")
    with statements(org) as sent:
        assert (
            org.add_events([(agent.id, completed(f"t{i}", T0, key=f"k{i}")) for i in range(3)]) == [NEW] * 3
        )
        assert not [s for s in sent if "idempotency_key IN" in s]
        batch = [(agent.id, completed("t9", T0, key="k9")), (agent.id, completed("t1", T0, key="k1"))]
        batch.append((agent.id, completed("other", T0, key="k2")))
        assert org.add_events(batch) == [NEW, DUPLICATE, CONFLICT]
        assert [s for s in sent if "idempotency_key IN" in s]
    assert org.count_events(agent.id) == 4


def test_round_trip_is_exact(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    floats = [
        0.1,
        1 / 3,
        2.0**-1074,
        1.7976931348623157e308,
        -2.5e-8,
        123456789.12345678,
        1e-300,
        0.30000000000000004,
    ]
    data = {
        "task_id": "tâche-✓",
        "floats": floats,
        "big_int": 2**53 - 1,  # the largest RFC 8785 keeps exact (validation refuses beyond)
        "nested": {"list": [1, "two", None, True, {"deep": [0.2]}]},
        "errors": [{"severity": "minor"}],
    }
    in_paris = datetime(2026, 4, 16, 14, 30, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    org.add_events([(agent.id, Event("task_completed", in_paris, data, "tâche-✓", "k"))])
    [event] = org.events(agent.id)
    assert event.timestamp == in_paris
    assert event.timestamp.utcoffset() == timedelta(0) and event.timestamp.hour == 12
    assert event.timestamp.microsecond == 123456
    assert event.data == data
    assert [value.hex() for value in event.data["floats"]] == [value.hex() for value in floats]
    assert (event.type, event.task_id, event.key, event.agent) == (
        "task_completed",
        "tâche-✓",
        "k",
        str(agent.id),
    )
    assert uuid.UUID(event.id).version == 7  # the store's own, time-ordered id


def test_documents_come_back_verbatim(org: OrgStore) -> None:
    """Event data is stored as written on both dialects (PostgreSQL ``json``, not
    ``jsonb``): key order, float type and the sign of zero survive."""
    agent = org.enroll_agent("a")
    data = {"zeta": -0.0, "alpha": 1e16, "mid": [2e20, 1.5e16], "task_id": "t"}
    org.add_events([(agent.id, Event("task_completed", T0, data, "t"))])
    back = org.events(agent.id)[0].data
    assert list(back) == ["zeta", "alpha", "mid", "task_id"]
    assert math.copysign(1, back["zeta"]) == -1
    assert all(isinstance(value, float) for value in (back["alpha"], *back["mid"]))


def test_read_only_mappings_are_accepted(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    data = MappingProxyType({"task_id": "t", "inner": MappingProxyType({"x": 1})})
    org.add_events([(agent.id, Event("task_assigned", T0, data, "t"))])
    assert org.events(agent.id)[0].data == {"task_id": "t", "inner": {"x": 1}}


def test_naive_timestamps_are_refused(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    with pytest.raises(AAAFError) as caught:
        org.add_events(
            [(agent.id, completed("t0", T0)), (agent.id, Event("task_assigned", datetime(2026, 4, 16)))]
        )
    assert caught.value.code == "INVALID_REQUEST" and caught.value.details == {
        "index": 1,
        "field": "timestamp",
    }
    assert org.count_events(agent.id) == 0


def test_unknown_type_stores_nothing(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    with pytest.raises(AAAFError) as caught:
        org.add_events([(agent.id, completed("t", T0)), (agent.id, Event("mood_swing", T0))])
    assert caught.value.code == "INVALID_EVENT_TYPE" and caught.value.details["index"] == 1
    assert org.count_events(agent.id) == 0


def test_every_stored_type_is_accepted(org: OrgStore) -> None:
    from aaaf.store.tables import STORED_EVENT_TYPES

    agent = org.enroll_agent("a")
    outcomes = org.add_events([(agent.id, Event(kind, T0)) for kind in STORED_EVENT_TYPES])
    assert outcomes == [NEW] * len(STORED_EVENT_TYPES)
    assert {"eval_result", "workflow_run", "memory_operation"} <= {e.type for e in org.events(agent.id)}


def test_unknown_agent_stores_nothing(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    with pytest.raises(AAAFError) as caught:
        org.add_events([(agent.id, completed("t", T0)), (uuid.uuid4(), completed("t", T0))])
    assert caught.value.code == "NOT_FOUND"
    assert org.count_events(agent.id) == 0


def test_filters_are_inclusive_and_ordered(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    stamps = [T0 + minutes(offset) for offset in (30, 0, 10, 20)]
    org.add_events([(agent.id, completed(f"t{i}", at)) for i, at in enumerate(stamps)])
    org.add_events([(agent.id, Event("task_assigned", T0 + minutes(10), {"task_id": "t9"}, "t9"))])
    assert [e.timestamp for e in org.events(agent.id, types=["task_completed"])] == sorted(stamps)
    window = org.events(agent.id, since=T0 + minutes(10), until=T0 + minutes(20))
    assert [(e.type, e.timestamp) for e in window] == [
        ("task_completed", T0 + minutes(10)),
        ("task_assigned", T0 + minutes(10)),  # same instant: insertion order (time-ordered ids)
        ("task_completed", T0 + minutes(20)),
    ]
    # bounds given in another zone mean the same instants
    other_zone = timezone(timedelta(hours=-5))
    assert len(org.events(agent.id, since=(T0 + minutes(10)).astimezone(other_zone))) == 4
    assert org.count_events(agent.id) == 5
    assert org.count_events(agent.id, types=["task_assigned"]) == 1


def test_events_for_agents_in_one_query(org: OrgStore) -> None:
    first, second, idle = org.enroll_agent("first"), org.enroll_agent("second"), org.enroll_agent("idle")
    org.add_events(
        [
            (second.id, completed("s1", T0 + minutes(1))),
            (first.id, completed("f1", T0)),
            (second.id, completed("s0", T0)),
        ]
    )
    grouped = org.events_for_agents([first.id, second.id, idle.id])
    assert list(grouped) == [first.id, second.id, idle.id]
    assert [e.task_id for e in grouped[first.id]] == ["f1"]
    assert [e.task_id for e in grouped[second.id]] == ["s0", "s1"]
    assert grouped[idle.id] == []
    assert grouped == {agent_id: org.events(agent_id) for agent_id in (first.id, second.id, idle.id)}
    assert org.events_for_agents([]) == {}


def test_retention_deletes_only_older_events(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    org.add_events([(agent.id, completed(f"t{i}", T0 + timedelta(days=i))) for i in range(5)])
    assert org.delete_events_before(T0 + timedelta(days=2)) == 2
    assert [e.task_id for e in org.events(agent.id)] == ["t2", "t3", "t4"]


def test_empty_batch(org: OrgStore) -> None:
    assert org.add_events([]) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    already=st.lists(st.sampled_from("abcdef"), max_size=4),
    batch=st.lists(st.one_of(st.none(), st.sampled_from("abcdefgh")), max_size=12),
)
def test_flags_match_a_set_model(org: OrgStore, already: list[str], batch: list[str | None]) -> None:
    """Property: an event is stored iff its key (its id, else its content digest) was
    neither stored before nor seen earlier in the batch; a known key is a duplicate with
    the same content and a conflict with other content; the store then holds exactly
    the new ones."""
    agent = org.enroll_agent(f"agent-{uuid.uuid4().hex}")
    org.add_events([(agent.id, completed("pre", T0, key=key)) for key in already])
    stored = dict.fromkeys(already, "pre")
    expected = []
    for i, key in enumerate(batch):
        task = f"t{i}" if key is None else f"t-{key}"
        if key is None:
            expected.append(NEW)
        elif key not in stored:
            expected.append(NEW)
            stored[key] = task
        else:
            expected.append(DUPLICATE if stored[key] == task else CONFLICT)
    events = [
        (agent.id, completed(f"t{i}" if key is None else f"t-{key}", T0, key=key))
        for i, key in enumerate(batch)
    ]
    flags = org.add_events(events)
    assert flags == expected
    # re-sending stores nothing new; a conflict stays a conflict
    assert org.add_events(events) == [CONFLICT if flag is CONFLICT else DUPLICATE for flag in flags]
    assert org.count_events(agent.id) == len(set(already)) + expected.count(NEW)
    keys_in_store = [e.key for e in org.events(agent.id) if e.key in stored]
    assert sorted(keys_in_store) == sorted(stored)


def test_concurrent_writers_of_the_same_keys(store_url: str) -> None:
    """Two processes re-sending the same batch at once: each key is stored once and
    reported new to exactly one of them (ON CONFLICT .. RETURNING, SCORING.md §1)."""
    import threading

    from aaaf.store import open_store

    stores = [open_store(store_url) for _ in range(2)]
    try:
        org_id = stores[0].create_organization("race").id
        agent = stores[0].scope(org_id).enroll_agent("a")
        batch = [(agent.id, completed(f"t{i}", T0, key=f"k{i}")) for i in range(200)]
        barrier = threading.Barrier(2)
        results: list[list[Stored]] = []

        def send(store: Store) -> None:
            org = store.scope(org_id)
            barrier.wait()
            results.append(org.add_events(batch))

        threads = [threading.Thread(target=send, args=(s,)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(results) == 2
        assert set(zip(results[0], results[1], strict=True)) <= {(DUPLICATE, NEW), (NEW, DUPLICATE)}
        assert stores[0].scope(org_id).count_events(agent.id) == len(batch)
    finally:
        for store in stores:
            store.close()


def test_concurrent_writers_of_the_same_keys_in_opposite_orders(store_url: str) -> None:
    """Two writers of the same keys, one in reverse order: on PostgreSQL their straight
    ``COPY`` may wait on each other's keys (a deadlock the server breaks by failing one);
    the failed one goes back to its savepoint and stores by the staged path, so both
    succeed and each key is new to exactly one of them."""
    import threading

    from aaaf.store import open_store

    stores = [open_store(store_url) for _ in range(2)]
    try:
        org_id = stores[0].create_organization("race-reversed").id
        agent = stores[0].scope(org_id).enroll_agent("a")
        batch = [(agent.id, completed(f"t{i}", T0, key=f"k{i}")) for i in range(2000)]
        batches = [batch, batch[::-1]]
        barrier = threading.Barrier(2)
        results: dict[int, list[Stored]] = {}
        errors: list[BaseException] = []

        def send(number: int) -> None:
            org = stores[number].scope(org_id)
            barrier.wait()
            try:
                results[number] = org.add_events(batches[number])
            except BaseException as error:  # reported below, not lost in the thread
                errors.append(error)

        threads = [threading.Thread(target=send, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        forward, backward = results[0], results[1][::-1]
        assert set(zip(forward, backward, strict=True)) <= {(DUPLICATE, NEW), (NEW, DUPLICATE)}
        assert stores[0].scope(org_id).count_events(agent.id) == len(batch)
    finally:
        for store in stores:
            store.close()


def test_a_staged_write_failed_by_a_deadlock_goes_back_and_tries_again(store_url: str) -> None:
    """A batch on the staged path holds a new key and waits for a key another transaction is
    writing; that transaction then waits for the batch's key: the server fails the batch's
    INSERT (it waited first), which frees its keys, and tries again once the other is gone."""
    if not store_url.startswith("postgresql"):
        pytest.skip("the staged path and its lock waits are PostgreSQL's")
    import threading
    import time

    import sqlalchemy

    from aaaf.store import open_store

    store = open_store(store_url)
    engine = sqlalchemy.create_engine(store_url)
    try:
        org = store.scope(store.create_organization("deadlock").id)
        agent = org.enroll_agent("a")
        first = completed("t0", T0, key="k0")
        assert org.add_events([(agent.id, first)]) == [NEW]  # a known key: the batch is staged
        other = engine.connect()
        other.begin()
        insert_key = sqlalchemy.text(
            "INSERT INTO event_keys (agent_id, idempotency_key, timestamp) VALUES (:agent, :key, :at)"
        )
        other.execute(insert_key, {"agent": agent.id, "key": "k1", "at": T0})
        batch = [
            (agent.id, first),
            (agent.id, completed("t1", T0, key="k0a")),
            (agent.id, completed("t2", T0, key="k1")),
        ]
        outcome: list[object] = []
        writer = threading.Thread(target=lambda: outcome.append(_stored_or_error(org, batch)))
        writer.start()
        with engine.connect() as watcher:  # the batch waits for "k1" while holding "k0a"
            deadline = time.monotonic() + 60  # generous: the machine may be loaded
            waiting = 0
            while time.monotonic() < deadline and writer.is_alive():
                waiting = watcher.execute(
                    sqlalchemy.text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND query LIKE '%aaaf_event_stage%'"
                    )
                ).scalar()
                if waiting:
                    break
                time.sleep(0.05)
            assert waiting, outcome  # the writer's answer, if it answered without waiting
        other.execute(insert_key, {"agent": agent.id, "key": "k0a", "at": T0})  # waits: a cycle
        other.rollback()
        other.close()
        writer.join(30)
        assert outcome == [[DUPLICATE, NEW, NEW]]
        assert org.count_events(agent.id) == 3
    finally:
        engine.dispose()
        store.close()


def _stored_or_error(org: OrgStore, batch: list[tuple[str, Event]]) -> object:
    try:
        return org.add_events(batch)
    except Exception as error:  # the test's assertion shows it
        return error


def test_ids_are_increasing() -> None:
    ids = event_writer.new_event_ids(10_000)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(value.version == 7 and value.variant == uuid.RFC_4122 for value in ids)
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    assert abs((ids[0].int >> 80) - now_ms) < 60_000


def test_ids_keep_their_layout_across_the_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer's ids as text (event_writer._Uuid7Source.take_hex): 32 hex digits of a UUIDv7
    (RFC 9562 §5.7) whose millisecond, counter and variant are where they belong; 5 000 ids in one
    frozen millisecond run the 12-bit counter out and go on in the next one (§6.2 method 1)."""
    frozen_ns = 1_770_000_000_123 * 1_000_000
    monkeypatch.setattr(event_writer.time, "time_ns", lambda: frozen_ns)
    source = event_writer._Uuid7Source()
    texts = source.take_hex(5_000) + source.take_hex(3)
    values = [uuid.UUID(hex=text) for text in texts]
    assert all(len(text) == 32 and text == value.hex for text, value in zip(texts, values, strict=True))
    assert all(value.version == 7 and value.variant == uuid.RFC_4122 for value in values)
    assert values == sorted(values) and len(set(values)) == len(values)
    milliseconds = [value.int >> 80 for value in values]
    counters = [(value.int >> 64) & 0xFFF for value in values]
    assert milliseconds[:4096] == [1_770_000_000_123] * 4096 and counters[:4096] == list(range(4096))
    assert milliseconds[4096:] == [1_770_000_000_124] * 907 and counters[4096:] == list(range(907))
    assert len({value.int & 0x3FFF_FFFF_FFFF_FFFF for value in values}) == len(values)  # random bits
