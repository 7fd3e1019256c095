"""Collect never loses a good event (issue 21 scopes 1-3), on SQLite and PostgreSQL alike.

Each "Why" of issue 21 that belongs to collect has a regression test here; the CLI-level
ones (exit codes, --db, the fuzz test, real concurrent processes) are in tests/cli.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from aaaf.evidence.collectors.task_logs import read_jsonl
from aaaf.evidence.limits import EventLimits
from aaaf.services import collect as collect_module
from aaaf.services.collect import MAX_ERRORS_KEPT, collect
from aaaf.store import OrgStore, Store, open_store
from tests.cli.events_factory import NOW, agent_log

LATER = NOW + timedelta(days=1)


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return store.scope(store.default_organization().id)


def _items(events: list[Any]) -> Iterator[tuple[int, Any]]:
    return iter(enumerate(events, start=1))


def _assigned(task: str, **data: Any) -> dict[str, Any]:
    return {
        "id": f"{task}-a",
        "type": "task_assigned",
        "timestamp": "2026-11-19T10:00:00Z",
        "data": {
            "task_id": task,
            "complexity_level": 2,
            "domain": "code",
            "assigned_at": "2026-11-19T10:00:00Z",
        }
        | data,
    }


def test_why1_a_lone_surrogate_rejects_its_line_only_in_every_chunk(
    org: OrgStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Why 1: one "\\ud800" line made collect exit 1 and lost that chunk and every later one."""
    monkeypatch.setattr(collect_module, "CHUNK_SIZE", 4)
    org.enroll_agent("a1")
    good = [json.dumps(_assigned(f"t{i}")) for i in range(10)]
    bad = json.dumps(_assigned("bad")).replace('"code"', '"\\ud800"')
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([*good[:5], bad, *good[5:]]) + "\n")
    report = collect(org, read_jsonl(log), now=LATER, default_agent="a1")
    assert (report.accepted, report.rejected) == (10, 1)
    [error] = report.errors
    assert (error.line, error.code, error.field) == (6, "INVALID_REQUEST", "data.domain")
    assert "lone surrogate \\ud800" in error.message
    again = collect(org, read_jsonl(log), now=LATER, default_agent="a1")
    assert (again.accepted, again.duplicates, again.rejected) == (0, 10, 1)


@pytest.mark.parametrize(
    ("event", "field", "phrase"),
    [
        (_assigned("t", domain="a\x00b"), "data.domain", "NUL character"),
        (_assigned("t", notes={"k\x00": 1}), "data.notes.k\\u0000", "NUL character"),
        (_assigned("t") | {"id": "x" * 12_000}, "id", "12000 characters long; the limit is 256"),
        (_assigned("t") | {"id": "a\x00"}, "id", "NUL character"),
        (_assigned("t") | {"agent": "a1\x00"}, "agent", "NUL character"),
        (_assigned("t" * 257) | {"id": "i"}, "data.task_id", "257 characters long; the limit is 256"),
        (_assigned("t", notes="é" * 32_769), "data.notes", "65538 bytes long; the limit is 64 KiB"),
        (_assigned("t", notes=[1, {"deep": "\ud83d"}]), "data.notes[1].deep", "lone surrogate \\ud83d"),
        (_assigned("t", count=2**53), "data.count", "outside ±9007199254740991"),
    ],
)
def test_why2_what_postgresql_refuses_is_refused_on_both_databases(
    org: OrgStore, event: dict[str, Any], field: str, phrase: str
) -> None:
    """Why 2: NUL and a 12 KB id dumped raw SQL on PostgreSQL and lost the batch; SQLite
    stored them.  Now both reject the line naming the field and keep the rest."""
    org.enroll_agent("a1")
    report = collect(
        org, _items([_assigned("before"), event, _assigned("after")]), now=LATER, default_agent="a1"
    )
    assert (report.accepted, report.rejected) == (2, 1)
    [error] = report.errors
    assert (error.line, error.code, error.field) == (2, "INVALID_REQUEST", field)
    assert phrase in error.message
    assert len(error.message) < 1100  # the rejected value is not echoed whole


def test_limits_are_inclusive_and_configurable(org: OrgStore) -> None:
    org.enroll_agent("a1")
    at_limit = [
        _assigned("t" * 256) | {"id": "i" * 256},
        _assigned("u", notes="é" * 32_768),  # exactly 64 KiB of UTF-8
        _assigned("v", count=2**53 - 1),
    ]
    report = collect(org, _items(at_limit), now=LATER, default_agent="a1")
    assert (report.accepted, report.rejected) == (3, 0)
    tight = collect(
        org,
        _items([_assigned("w", notes="abcdef")]),
        now=LATER,
        default_agent="a1",
        limits=EventLimits(string_bytes=5),
    )
    assert tight.rejected == 1 and "the limit is 5 bytes" in tight.errors[0].message


def _refuse_poison(store: Store) -> None:
    """A database that refuses some rows on its own: a trigger rejecting 'poison' data."""
    with store.engine.begin() as connection:
        if store.dialect == "sqlite":
            connection.execute(
                text(
                    "CREATE TRIGGER refuse_poison BEFORE INSERT ON events "
                    "WHEN NEW.data LIKE '%poison%' BEGIN SELECT RAISE(ABORT, 'poisoned row'); END"
                )
            )
        else:
            connection.execute(
                text(
                    "CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger AS $$ BEGIN "
                    "IF NEW.data::text LIKE '%poison%' THEN "
                    "RAISE EXCEPTION 'poisoned row' USING ERRCODE = 'check_violation'; END IF; "
                    "RETURN NEW; END $$ LANGUAGE plpgsql"
                )
            )
            connection.execute(
                text(
                    "CREATE TRIGGER refuse_poison BEFORE INSERT ON events "
                    "FOR EACH ROW EXECUTE FUNCTION refuse_poison()"
                )
            )


@pytest.mark.parametrize("in_one_transaction", [False, True], ids=["own-transactions", "unit-of-work"])
def test_a_batch_the_database_refuses_is_split_to_the_offending_lines(
    store: Store, org: OrgStore, monkeypatch: pytest.MonkeyPatch, in_one_transaction: bool
) -> None:
    """Scope 1: the chunk is bisected; the refused lines are rejected with the database's
    reason, every other line of the chunk is stored — also inside one unit of work (the API's
    requests), where a refused write goes back to its savepoint and the transaction goes on."""
    monkeypatch.setattr(collect_module, "CHUNK_SIZE", 50)
    _refuse_poison(store)
    try:
        agent = org.enroll_agent("a1")
        events = [_assigned(f"t{i}", notes="poison" if i in (7, 8, 61) else "fine") for i in range(100)]
        if in_one_transaction:
            with org.unit_of_work() as work:
                report = collect(work, _items(events), now=LATER, default_agent="a1")
        else:
            report = collect(org, _items(events), now=LATER, default_agent="a1")
        assert (report.accepted, report.rejected) == (97, 3)
        assert [error.line for error in report.errors] == [8, 9, 62]
        assert all("the database refused this event" in e.message for e in report.errors)
        assert all("poisoned row" in e.message for e in report.errors)
        assert "INSERT" not in report.errors[0].message  # no raw SQL
        assert org.count_events(agent.id) == 97
    finally:
        with store.engine.begin() as connection:
            connection.execute(
                text("DROP TRIGGER refuse_poison" + ("" if store.dialect == "sqlite" else " ON events"))
            )


def test_postgresql_index_limit_is_found_by_bisection(store: Store, org: OrgStore) -> None:
    """With the id limit raised past what a PostgreSQL index holds, the one too-large id is
    rejected with the database's reason and the rest are stored (SQLite stores it)."""
    agent = org.enroll_agent("a1")
    huge = _assigned("huge") | {"id": "".join(f"{i:x}" for i in range(3000))}  # ~10 KB, incompressible
    events = [_assigned("t1"), huge, _assigned("t2")]
    report = collect(org, _items(events), now=LATER, default_agent="a1", limits=EventLimits(id_chars=100_000))
    if store.dialect == "sqlite":
        assert (report.accepted, report.rejected) == (3, 0)
        return
    assert (report.accepted, report.rejected) == (2, 1)
    [error] = report.errors
    assert error.line == 2 and "the database refused this event" in error.message
    assert "index row" in error.message
    assert org.count_events(agent.id) == 2


def test_why3_the_error_list_says_first_100_of_n(org: OrgStore) -> None:
    org.enroll_agent("a1")
    events: list[Any] = [{"type": "task_exploded", "timestamp": "2026-11-19T10:00:00Z", "data": {}}] * 250
    report = collect(org, _items([*events, _assigned("ok")]), now=LATER, default_agent="a1")
    assert (report.accepted, report.rejected) == (1, 250)
    body = report.to_dict()
    assert len(body["errors"]) == MAX_ERRORS_KEPT == 100
    assert body["errors_total"] == 250 and body["errors_note"] == "first 100 of 250"
    assert [e["line"] for e in body["errors"]] == list(range(1, 101))  # the first lines', in order


def test_why3_concurrent_enrolment_of_the_same_new_agents_loses_nothing(store_url: str) -> None:
    """Two collects --enroll sharing new agent names at once (threads, each its own engine):
    get-or-create, so no CONFLICT and every event stored once."""
    stores = [open_store(store_url) for _ in range(2)]
    try:
        orgs = [s.scope(s.default_organization().id) for s in stores]
        names = [f"kagent-{i:03d}" for i in range(40)]
        logs = [
            [e for name in names for e in agent_log(name, 1, prefix=f"{name}-{side}")] for side in ("x", "y")
        ]
        barrier = threading.Barrier(2)
        reports: list[Any] = [None, None]

        def run(side: int) -> None:
            barrier.wait()
            reports[side] = collect(orgs[side], _items(logs[side]), now=LATER, enroll=True)

        threads = [threading.Thread(target=run, args=(side,)) for side in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [(r.accepted, r.rejected) for r in reports] == [(80, 0), (80, 0)]
        assert sorted(reports[0].enrolled + reports[1].enrolled) == names
        agents = orgs[0].agents()
        assert sorted(a.name for a in agents) == names
        assert sum(orgs[0].count_events(a.id) for a in agents) == 160
    finally:
        for s in stores:
            s.close()


def test_enroll_writes_the_new_agents_of_a_chunk_in_one_transaction(org: OrgStore) -> None:
    """collect --enroll enrols a chunk's new agents together: one write transaction for the
    agents and one for the chunk's events, not one more per new agent."""
    from sqlalchemy import event

    from aaaf.store.engine import WRITE_OPTION

    org.enroll_agent("known")
    names = [f"fresh-{i}" for i in range(5)]
    events = [e for name in ["known", *names] for e in agent_log(name, 1, prefix=name)]
    writes: list[bool] = []

    def count(connection: Any) -> None:
        if connection.get_execution_options().get(WRITE_OPTION):
            writes.append(True)

    event.listen(org.engine, "begin", count)
    try:
        report = collect(org, _items(events), now=LATER, enroll=True)
    finally:
        event.remove(org.engine, "begin", count)
    assert (report.accepted, report.rejected, report.enrolled) == (len(events), 0, names)
    assert len(writes) == 2
    assert sorted(a.name for a in org.agents()) == sorted(["known", *names])
    assert all(org.count_events(a.id) == len(events) // 6 for a in org.agents())


def test_enroll_rejects_a_bad_new_name_at_its_line(org: OrgStore) -> None:
    """A name that cannot be enrolled rejects its own lines (checked where it is named, though
    enrolment waits for the chunk); the other new agents are enrolled."""
    events = agent_log("good", 1) + agent_log("bad\u200bname", 1, prefix="bad") + agent_log("good2", 1)
    report = collect(org, _items(events), now=LATER, enroll=True)
    assert report.enrolled == ["good", "good2"]
    assert report.rejected == len(agent_log("x", 1)) and report.accepted == 2 * report.rejected
    assert {(e.code, e.field) for e in report.errors} == {("INVALID_REQUEST", "name")}


def test_why4_events_without_id_are_stored_once(org: OrgStore) -> None:
    """Why 4: the README's manual example (no id) was stored again on every send."""
    agent = org.enroll_agent("a1")
    keyless = {k: v for k, v in _assigned("t1").items() if k != "id"}
    first = collect(org, _items([keyless]), now=LATER, default_agent="a1")
    # the same instant spelled in another zone, the agent by id: the same event (SCORING.md §1)
    respelled = keyless | {"timestamp": "2026-11-19T11:00:00.000+01:00", "agent_id": str(agent.id)}
    second = collect(org, _items([keyless | {"agent": "a1"}, respelled]), now=LATER)
    assert (first.accepted, second.accepted, second.duplicates) == (1, 0, 2)
    assert org.count_events(agent.id) == 1


def test_why4_a_known_id_with_other_content_is_a_conflict(org: OrgStore) -> None:
    """Why 4: a duplicate id with different content was dropped silently."""
    agent = org.enroll_agent("a1")
    collect(org, _items([_assigned("t1")]), now=LATER, default_agent="a1")
    changed = _assigned("t1", complexity_level=5)
    report = collect(org, _items([_assigned("t1"), changed]), now=LATER, default_agent="a1")
    assert (report.accepted, report.duplicates, report.rejected) == (0, 1, 1)
    [error] = report.errors
    assert (error.line, error.code, error.field) == (2, "DUPLICATE_CONFLICT", "id")
    assert '"t1-a"' in error.message
    [stored] = org.events(agent.id)
    assert stored.data["complexity_level"] == 2


def test_why5_a_line_naming_another_agent_is_rejected(org: OrgStore) -> None:
    """Why 5: `aaaf collect a1 FILE` stored a line naming "agent": "b2" under b2."""
    a1, b2 = org.enroll_agent("a1"), org.enroll_agent("b2")
    events = [
        _assigned("t1") | {"agent": "b2"},
        _assigned("t2") | {"agent_id": str(b2.id)},
        _assigned("t3") | {"agent_id": str(a1.id)},  # a1 by id: the same agent
        _assigned("t4") | {"agent": "a1"},
        _assigned("t5"),
    ]
    report = collect(org, _items(events), now=LATER, default_agent="a1", enroll=True)
    assert (report.accepted, report.rejected) == (3, 2)
    assert [(e.line, e.code, e.field) for e in report.errors] == [
        (1, "AGENT_MISMATCH", "agent"),
        (2, "AGENT_MISMATCH", "agent_id"),
    ]
    assert org.count_events(b2.id) == 0 and org.count_events(a1.id) == 3
    assert report.enrolled == []


def test_enrolment_names_obey_the_id_limit(org: OrgStore) -> None:
    from aaaf.errors import AAAFError

    with pytest.raises(AAAFError, match="257 characters long"):
        org.enroll_agent("n" * 257)
    with pytest.raises(AAAFError, match="NUL"):
        org.get_or_enroll_agent("a\x00")
    agent, created = org.get_or_enroll_agent("fresh")
    assert created and org.get_or_enroll_agent("fresh") == (agent, False)


def test_only_refusals_of_an_event_are_blamed_on_it() -> None:
    """A database that is down, locked or full stops the command (exit 1) instead of
    rejecting every line as bad input; a constraint, data or size refusal blames the line."""
    import sqlite3

    from sqlalchemy.exc import IntegrityError, OperationalError

    from aaaf.errors import AAAFError
    from aaaf.store.write_errors import blames_the_event as _blames_the_event

    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorcode = 5  # SQLITE_BUSY
    constraint = sqlite3.IntegrityError("poisoned row")
    constraint.sqlite_errorcode = 1811  # SQLITE_CONSTRAINT_TRIGGER
    assert not _blames_the_event(OperationalError("INSERT", {}, locked))
    assert _blames_the_event(IntegrityError("INSERT", {}, constraint))
    assert _blames_the_event(ValueError("integer outside ±9007199254740991"))
    assert not _blames_the_event(AAAFError("NOT_FOUND", "Agent x not found."))
    gone = OperationalError(
        "INSERT", {}, Exception("server closed the connection"), connection_invalidated=True
    )
    assert not _blames_the_event(gone)


def test_chunks_are_written_by_the_writer_thread_with_the_same_outcome(
    org: OrgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 §8: on PostgreSQL, from the second chunk on, chunks are stored by one writer
    thread while the next is validated; counts, duplicates and the first-100 errors (in line order,
    across both threads' reports) are what a single thread gives."""
    monkeypatch.setattr(collect_module, "CHUNK_SIZE", 7)
    writers: set[str] = set()
    real_store = collect_module._store

    def spying_store(*args: Any, **kwargs: Any) -> None:
        writers.add(threading.current_thread().name)
        real_store(*args, **kwargs)

    monkeypatch.setattr(collect_module, "_store", spying_store)
    org.enroll_agent("a1")
    events: list[Any] = []
    for i in range(300):
        events.append(_assigned(f"t{i}", domain=5) if i % 3 == 0 else _assigned(f"t{i}"))
    events += [_assigned("t1"), _assigned("t2")]  # re-sent: duplicates
    report = collect(org, _items(events), now=LATER, default_agent="a1")
    assert (report.accepted, report.duplicates, report.rejected) == (200, 2, 100)
    assert [error.line for error in report.errors] == [1 + 3 * i for i in range(100)]
    threaded = any(name.startswith("aaaf-collect") for name in writers)
    # PostgreSQL only: on SQLite a writer thread convoys on the GIL (collect._may_write_in_a_thread)
    assert threaded is (org.engine.dialect.name != "sqlite")
    assert threading.current_thread().name in writers  # the last chunk, in the caller
    single = collect(org, _items(events[:5]), now=LATER, default_agent="a1")
    assert (single.accepted, single.duplicates, single.rejected) == (0, 3, 2)
