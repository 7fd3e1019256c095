"""The ingestion service of issue 19 (:func:`aaaf.services.otlp.ingest_spans`) on a real
store, SQLite and PostgreSQL: kept spans, late joins, concurrent exports, forgetting."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from aaaf.services.otlp import OTLP_SPAN_TTL, ingest_spans
from aaaf.store import tables as t
from tests.otlp.test_mapping import T0, agent, span, tool

NOW = datetime.fromtimestamp(T0 / 1e9, UTC) + timedelta(hours=1)


def _types(org, name: str) -> list[str]:
    found = org.find_agent(name)
    if found is None:
        return []
    return sorted(
        event.type
        for event in org.events_page(found.id, types=None, since=None, until=None, after=None, limit=1000)
    )


def test_children_first_then_the_agent_span(store) -> None:
    org = store.scope(store.default_organization().id)
    chat = span("b" * 16, "a" * 16, "chat")
    calls = [
        tool("c" * 16, "b" * 16, "search", start=1, error=True),
        tool("d" * 16, "b" * 16, "search", start=2),
    ]
    first = ingest_spans(org, [*calls, chat], now=NOW)
    assert (first.rejected_spans, first.pending_spans, first.collect.accepted) == (0, 3, 0)
    assert "wait for their invoke_agent ancestor" in first.message()
    second = ingest_spans(org, [agent()], now=NOW)
    assert second.collect.accepted == 3 and second.message() != ""  # no domain: a warning
    assert _types(org, "writer") == ["task_completed", "tool_invoked", "tool_invoked"]
    again = ingest_spans(org, [*calls, chat, agent()], now=NOW)
    assert (again.collect.accepted, again.rejected_spans) == (0, 0)


@pytest.mark.parametrize("agent_first", [False, True], ids=["children-first", "agent-first"])
def test_two_exports_of_one_trace_at_once_join(store, monkeypatch, agent_first: bool) -> None:
    """Two exports of one trace at once, children in one and their agent span in the other:
    the first is held inside its transaction right after it read the kept spans; the second
    waits for it to end (it has not finished while the first is held) and then joins its
    spans or events, so that no child stays pending."""
    from aaaf.store.repositories.otlp_spans import OtlpSpanRepository

    children = [tool("c" * 16, "a" * 16, "edit", start=1), tool("d" * 16, "a" * 16, "read", start=2)]
    first_spans, second_spans = ([agent()], children) if agent_first else (children, [agent()])
    holding, release = threading.Event(), threading.Event()
    real = OtlpSpanRepository.read_for_export

    def held(self, trace_ids, task_ids, **options):  # the first export's reads, then a pause
        found = real(self, trace_ids, task_ids, **options)
        if threading.current_thread().name == "first-export":
            holding.set()
            assert release.wait(30)
        return found

    monkeypatch.setattr(OtlpSpanRepository, "read_for_export", held)
    org_id = store.default_organization().id
    reports: dict[str, Any] = {}

    def export(name: str, spans: list[Any]) -> None:
        reports[name] = ingest_spans(store.scope(org_id), spans, now=NOW)

    first = threading.Thread(target=export, args=("first", first_spans), name="first-export")
    second = threading.Thread(target=export, args=("second", second_spans), name="second-export")
    first.start()
    assert holding.wait(30)
    second.start()
    second.join(1.0)
    assert second.is_alive()  # it waits for the first export's transaction
    release.set()
    first.join(30)
    second.join(30)
    assert not first.is_alive() and not second.is_alive()
    assert _types(store.scope(org_id), "writer") == ["task_completed", "tool_invoked", "tool_invoked"]
    assert _kept(store) == []
    assert reports["second"].pending_spans == 0


def test_an_unusable_agent_span_is_rejected_with_its_reason(store) -> None:
    org = store.scope(store.default_organization().id)
    root = span("a" * 16, None, "invoke_agent", gen_ai__agent__id="asst_1")
    report = ingest_spans(org, [root, tool("c" * 16, "a" * 16, "x", start=1)], now=NOW)
    assert report.rejected_spans == 2
    assert "gen_ai.agent.name" in report.message()


def test_kept_spans_are_forgotten_after_a_day(store) -> None:
    """A day later a kept span is no longer joined, and the next request that keeps a span
    deletes it."""
    org = store.scope(store.default_organization().id)
    ingest_spans(org, [tool("c" * 16, "a" * 16, "edit", start=1)], now=NOW)
    with store.engine.connect() as connection:
        assert connection.execute(t.otlp_pending_spans.select()).all()
    later = NOW + OTLP_SPAN_TTL + timedelta(seconds=1)
    report = ingest_spans(org, [agent()], now=later)
    assert _types(org, "writer") == ["task_completed"]  # the forgotten child is not joined
    other = "1" * 32
    ingest_spans(org, [span("d" * 16, "e" * 16, "chat", trace=other)], now=later)
    with store.engine.connect() as connection:
        rows = connection.execute(t.otlp_pending_spans.select()).all()
    assert [(row.trace_id, row.span_id) for row in rows] == [(other, "d" * 16)]
    assert report.pending_spans == 0


def test_the_periodic_duties_forget_old_kept_spans(store) -> None:
    from aaaf.services.duties import run_periodic_duties

    org = store.scope(store.default_organization().id)
    ingest_spans(org, [tool("c" * 16, "a" * 16, "edit", start=1)], now=NOW)
    run_periodic_duties(store, now=NOW + timedelta(hours=1))
    with store.engine.connect() as connection:
        assert len(connection.execute(t.otlp_pending_spans.select()).all()) == 1
    run_periodic_duties(store, now=NOW + OTLP_SPAN_TTL + timedelta(seconds=1))
    with store.engine.connect() as connection:
        assert connection.execute(t.otlp_pending_spans.select()).all() == []


def _kept(store) -> list[tuple[str, str]]:
    with store.engine.connect() as connection:
        rows = connection.execute(t.otlp_pending_spans.select()).all()
    return sorted((row.span_id, row.state) for row in rows)


def test_a_request_whose_tasks_complete_in_it_keeps_no_span(store) -> None:
    org = store.scope(store.default_organization().id)
    calls = [
        tool("c" * 16, "a" * 16, "search", start=1, error=True),
        tool("d" * 16, "a" * 16, "search", start=2),
    ]
    report = ingest_spans(
        org, [*calls, agent(aaaf__task__domain="code", aaaf__task__complexity_level=2)], now=NOW
    )
    assert (report.collect.accepted, report.rejected_spans, report.pending_spans) == (4, 0, 0)
    assert _kept(store) == []


def test_late_descendants_map_through_the_stored_events_of_their_task(store) -> None:
    """The agent span comes alone (nothing kept); its tools come later, one below a chat span
    that makes no event (kept, joined) and a later one below that chat span; a failed call
    is recovered by a stored later success, and sent again it stores nothing new."""
    org = store.scope(store.default_organization().id)
    ingest_spans(org, [agent()], now=NOW)
    assert _kept(store) == []
    chat = span("b" * 16, "a" * 16, "chat")
    success = tool("d" * 16, "b" * 16, "search", start=3)
    second = ingest_spans(org, [success, chat], now=NOW)
    assert (second.collect.accepted, second.pending_spans, second.rejected_spans) == (1, 0, 0)
    assert _kept(store) == [("b" * 16, "joined")]  # the chat span: no event stands for it
    failed = tool("c" * 16, "b" * 16, "search", start=1, error=True)
    third = ingest_spans(org, [failed], now=NOW)
    assert (third.collect.accepted, third.pending_spans, third.rejected_spans) == (1, 0, 0)
    writer = org.find_agent("writer")
    tools = {
        event.data["tool"] + ("-ok" if event.data["success"] else "-failed"): event.data["error_recovered"]
        for event in org.events_page(writer.id, types=None, since=None, until=None, after=None, limit=100)
        if event.type == "tool_invoked"
    }
    assert tools == {"search-ok": False, "search-failed": True}
    again = ingest_spans(org, [failed], now=NOW)
    assert (again.collect.accepted, again.rejected_spans, again.pending_spans) == (0, 0, 0)
    assert _types(org, "writer") == ["task_completed", "tool_invoked", "tool_invoked"]


def test_children_kept_pending_are_dropped_once_their_events_are_stored(store) -> None:
    org = store.scope(store.default_organization().id)
    ingest_spans(org, [tool("c" * 16, "a" * 16, "edit", start=1)], now=NOW)
    assert _kept(store) == [("c" * 16, "pending")]
    report = ingest_spans(org, [agent()], now=NOW)
    assert (report.collect.accepted, report.pending_spans) == (2, 0)
    assert _kept(store) == []


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_an_export_is_one_transaction_of_few_round_trips(store, monkeypatch) -> None:
    """On PostgreSQL an export takes one pooled connection (not pinged: it was used a moment
    ago, aaaf.store.engine) and one transaction: the traces' lock with the kept spans, the
    stored tasks its parents would make, the configuration and the agents its spans name (one
    pipeline), the events (the partitions' query with the savepoints, two COPY), the kept spans'
    delete and upsert with the commit (one pipeline) — 5 round trips, counted at the driver, for
    an export whose last trace waits for its agent span (18 and a rollback, in 2 transactions
    and 2 checkouts, with the read-back after the commit; 9 with the delete and the upsert one
    after the other; 8 with the configuration and the agent read on their own; 7 with the commit
    on its own; 6 with the checkout's ping)."""
    import psycopg

    org = store.scope(store.default_organization().id)
    org.enroll_agent("writer")
    earlier = [
        span("e" * 16, "f" * 16, "execute_tool", trace="2" * 32, gen_ai__tool__name="edit"),  # kept pending
        agent(trace="4" * 32),  # a stored event: the month's partition exists
    ]
    ingest_spans(org, earlier, now=NOW)
    trips: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            connection = self if isinstance(self, psycopg.Connection) else self.connection
            if name == "commit" and connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                return real(self, *args, **kwargs)  # nothing to commit: nothing sent
            if connection._pipeline is None or name == "pipeline":  # a pipeline is one trip
                trips.append(name if name in ("pipeline", "commit") else " ".join(str(args[0]).split()[:2]))
            return real(self, *args, **kwargs)

        return call

    for owner, name in [
        (psycopg.Cursor, "execute"),
        (psycopg.Cursor, "executemany"),
        (psycopg.Cursor, "copy"),
        (psycopg.Connection, "pipeline"),
        (psycopg.Connection, "commit"),
    ]:
        monkeypatch.setattr(owner, name, counted(name, getattr(owner, name)))
    spans = [
        tool("c" * 16, "a" * 16, "edit", start=1),
        agent(aaaf__task__domain="code", aaaf__task__complexity_level=2),
        agent("f" * 16, trace="2" * 32),  # the kept child's agent span
        span("9" * 16, "8" * 16, "execute_tool", trace="3" * 32),  # waits for its agent span
    ]
    report = ingest_spans(org, spans, now=NOW)
    monkeypatch.undo()
    assert (report.collect.accepted, report.pending_spans, report.rejected_spans) == (5, 1, 0)
    assert trips == [
        "pipeline",  # lock, kept spans, stored tasks, configuration, agents
        "SELECT c.relname",  # and the savepoints
        "COPY event_keys",
        "COPY events",
        "pipeline",  # the kept spans' delete and upsert, the commit
    ], trips
    assert _kept(store) == [("9" * 16, "pending")]


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_export_read_sends_its_traces_and_tasks_as_one_text_each(store, monkeypatch) -> None:
    """The traces' locks, the kept spans' read and the stored tasks' read take their lists as one
    comma-separated text each, not as arrays through psycopg's list dumper (a regular expression
    over each item: 5 M instructions of bench_otlp's export of 102 traces); the export maps and
    stores as before."""
    from psycopg.types.array import ListDumper

    org = store.scope(store.default_organization().id)
    dumped: list[int] = []
    real = ListDumper.dump

    def dump(self: Any, items: list[Any]) -> Any:
        dumped.append(len(items))
        return real(self, items)

    monkeypatch.setattr(ListDumper, "dump", dump)
    traces = [f"{number:032x}" for number in range(1, 6)]
    spans = [span for trace in traces for span in (agent(trace=trace), _tool_of(trace))]
    spans.append(tool("9" * 16, "8" * 16, "edit", start=1))  # its parent's task is read
    report = ingest_spans(org, spans, now=NOW)
    monkeypatch.undo()
    assert (report.collect.accepted, report.pending_spans, report.rejected_spans) == (10, 1, 0)
    assert max(dumped) == 1, dumped  # the one agent name, the one kept span: no list of 5 traces
    assert _kept(store) == [("9" * 16, "pending")]


def _tool_of(trace: str) -> Any:
    call = tool("c" * 16, "a" * 16, "edit", start=1)
    return call._replace(trace_id=trace)


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_export_read_finds_the_configuration_and_agents_as_their_own_reads_do(store) -> None:
    """The configuration and agents read in the kept spans' pipeline are what ``config()`` and
    ``find_agent`` read: stored weights and taxonomy, agents by id, by a name's other spelling,
    by a name that looks like an id; none for a name or id the organization has no agent of."""
    from tests.store.test_config import NEW_CAPABILITY_WEIGHTS

    org = store.scope(store.default_organization().id)
    other = store.scope(store.create_organization("other").id)
    org.set_weights("capability", NEW_CAPABILITY_WEIGHTS)
    org.set_taxonomy(["legal"])
    writer = org.enroll_agent("writer")
    named_like_an_id = org.enroll_agent(str(writer.id).replace("-", "")[:8] + "-agent")
    org.enroll_agent("claims-bot")
    stranger = other.enroll_agent("stranger")
    found = ["writer", str(writer.id), named_like_an_id.name, str(named_like_an_id.id), "ｃｌａｉｍｓ-bot"]
    references = [*found, "nobody", str(stranger.id), "stranger", "a\x00b"]
    with org.unit_of_work() as work:
        read = work.read_for_export(["1" * 32], [], since=NOW - OTLP_SPAN_TTL, agents=references)
    assert read.config == org.config() and read.config.taxonomy == ("legal",)
    assert read.agents == {reference: org.find_agent(reference) for reference in found}


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_failed_write_of_the_kept_spans_commits_nothing(store, monkeypatch) -> None:
    """The commit that goes with the kept spans' writes runs only when they succeed: a failed
    upsert leaves neither the export's events nor its kept spans stored."""
    import psycopg

    from aaaf.store.repositories import otlp_spans

    org = store.scope(store.default_organization().id)
    monkeypatch.setattr(
        otlp_spans, "_KEEP_PG", otlp_spans._KEEP_PG.replace("received_at)", "no_such_column)")
    )
    spans = [agent(aaaf__task__domain="code", aaaf__task__complexity_level=2)]
    spans.append(span("9" * 16, "8" * 16, "execute_tool", trace="3" * 32))  # waits: a span to keep
    with pytest.raises(psycopg.errors.UndefinedColumn):
        ingest_spans(org, spans, now=NOW)
    assert _types(org, "writer") == [] and _kept(store) == []
    monkeypatch.undo()
    report = ingest_spans(org, spans, now=NOW)
    assert report.collect.accepted == 2 and _kept(store) == [("9" * 16, "pending")]
