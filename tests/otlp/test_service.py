"""The ingestion service of issue 19 (:func:`aaaf.services.otlp.ingest_spans`) on a real
store, SQLite and PostgreSQL: kept spans, late joins, concurrent exports, forgetting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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


def test_an_export_that_read_before_the_other_wrote_still_joins(store, monkeypatch) -> None:
    """Two exports of one trace at once: the agent span's export read the kept spans before
    the children's export wrote them; it joins them when it reads again after writing."""
    org = store.scope(store.default_organization().id)
    real = org.kept_otlp_spans
    ingest_spans(org, [tool("c" * 16, "a" * 16, "edit", start=1)], now=NOW)  # children: pending
    stale = iter([[]])  # the agent span's export: its first read saw nothing kept yet

    def stale_first(ids, **options):
        value = next(stale, None)
        return real(ids, **options) if value is None else value

    monkeypatch.setattr(org, "kept_otlp_spans", stale_first)
    report = ingest_spans(org, [agent()], now=NOW)
    assert _types(org, "writer") == ["task_completed", "tool_invoked"]
    assert report.pending_spans == 0


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


def test_an_export_reads_back_after_committing_what_it_kept(store, monkeypatch) -> None:
    """The kept spans are read, the events and the spans kept, in one transaction; the
    read-back comes after it is committed (another connection sees the kept span when the
    read-back starts), so of two exports of one trace at once the one reading last sees the
    other's spans."""
    org = store.scope(store.default_organization().id)
    child = tool("c" * 16, "a" * 16, "edit", start=1)
    real = org._kept
    seen_elsewhere: list[list[tuple[str, str]]] = []

    def reading(*args):
        seen_elsewhere.append(_kept(store))
        return real(*args)

    monkeypatch.setattr(org, "_kept", reading)
    report = ingest_spans(org, [child], now=NOW)
    assert report.pending_spans == 1
    # the first read, inside the transaction, before the keep; the read-back, after the commit
    assert seen_elsewhere == [[], [("c" * 16, "pending")]]
