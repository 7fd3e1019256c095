"""OpenTelemetry spans kept between requests of ``POST /v1/traces`` (issue 19).

A span waits here (``pending``) until its ``invoke_agent`` ancestor comes; spans found
``unused``, and joined spans that made no event of their own (a ``chat`` span between an agent
span and its tools), stay so that a late descendant still finds its task.  A joined span whose
events are stored is not kept: :meth:`OtlpSpanRepository.stored_otlp_events` reads its task
back from them.  Rows older than the service's time-to-live are deleted by
:meth:`OtlpSpanRepository.forget_otlp_spans`.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from sqlalchemy import Connection, and_, bindparam, delete, or_, select
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeEngine

from aaaf.evidence.otlp import KeptSpan, Span, SpanOutcome, StoredEvent, TaskRef
from aaaf.names import name_key
from aaaf.scoring.defaults import AAAFConfig
from aaaf.store import tables as t
from aaaf.store.records import Agent
from aaaf.store.repositories.base import OrgScoped, as_uuid
from aaaf.store.repositories.config import org_config_from_rows, org_config_query
from aaaf.store.row_mapping import record_from_row
from aaaf.store.types import dumps_json

if TYPE_CHECKING:
    import psycopg

_CHUNK = 500  # trace ids per query (SQLite's bound-parameter limit stays far away)

# lock_otlp_traces' statement (the locks in the order of the array: unnest keeps it), and
# read_for_export's reads as psycopg takes them (those of _kept and _stored).  Their lists go as
# one comma-separated text each (:func:`_listed`), split by the server: psycopg's list dumper
# runs a regular expression over each item (~11 600 instructions an item, callgrind), 2.4 M of
# an export's 115 M for bench_otlp's 102 traces (the ids are hex, the lock keys numbers)
_LOCK_TRACES_PG = (
    "SELECT pg_advisory_xact_lock(k) FROM unnest(string_to_array(%s, ',')::bigint[]) "
    "WITH ORDINALITY AS u(k, n) ORDER BY n"
)
_KEPT_PG = (
    "SELECT state, task_id, agent, span FROM otlp_pending_spans "
    "WHERE organization_id = %s AND trace_id = ANY(string_to_array(%s, ',')) AND received_at >= %s"
)
# keep_otlp_spans' writes as psycopg takes them, in one round trip (its pipeline): the kept spans
# to drop and those received before the time-to-live (NULL: none), then the upsert of the spans
# to keep (an exporter's retry carrying the same span succeeds)
_DROP_PG = (
    "DELETE FROM otlp_pending_spans WHERE organization_id = %s AND ((trace_id, span_id) IN "
    "(SELECT * FROM unnest(%s::text[], %s::text[])) OR received_at < %s)"
)
_KEEP_PG = (
    "INSERT INTO otlp_pending_spans (organization_id, trace_id, span_id, state, task_id, agent, span, "
    "received_at) SELECT %s, k.*, %s FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], "
    "%s::text[], %s::json[]) AS k ON CONFLICT (organization_id, trace_id, span_id) DO UPDATE SET "
    "state = excluded.state, task_id = excluded.task_id, agent = excluded.agent, span = excluded.span, "
    "received_at = excluded.received_at"
)
_AGENTS_PG = (
    f"SELECT {', '.join(column.name for column in t.agents.columns)} FROM agents "
    "WHERE organization_id = %s AND (id = ANY(%s::uuid[]) OR name = ANY(%s::text[]))"
)
_STORED_PG = (
    "SELECT agents.id, events.type, events.idempotency_key, events.timestamp, events.data "
    "FROM events JOIN agents ON agents.id = events.agent_id WHERE agents.organization_id = %s "
    "AND events.task_id = ANY(string_to_array(%s, ',')) AND events.type IN ('task_completed', 'tool_invoked')"
)


def _listed(items: Sequence[object]) -> str:
    """``items`` as one text for ``string_to_array(%s, ',')``: numbers, or ids the mapping
    made of hex (trace ids, ``otel-<trace>-<span>`` task ids); none may hold a comma."""
    text = ",".join(map(str, items))
    if text.count(",") != max(len(items) - 1, 0):
        raise ValueError("an item of a listed parameter holds a comma")
    return text


def _kept_span(state: str, task_id: str | None, agent: str | None, span: Mapping[str, object]) -> KeptSpan:
    task = TaskRef(task_id, agent) if task_id and agent else None
    return KeptSpan(Span.from_json(span), state, task)


def _lock_key(organization_id: uuid.UUID, trace_id: str) -> int:
    """A signed 64-bit advisory-lock key of (organization, trace); a collision only makes two
    exports wait for each other."""
    digest = hashlib.blake2b(f"otlp:{organization_id}:{trace_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class ExportRead(NamedTuple):
    """What :meth:`OtlpSpanRepository.read_for_export` reads: the kept spans, the stored
    events of the tasks asked for and, on PostgreSQL (else None and nothing), the
    organization's configuration and the agents the references asked for name (by
    reference, each as ``find_agent`` finds it; one that names none is left out)."""

    kept: list[KeptSpan]
    stored: list[StoredEvent]
    config: AAAFConfig | None
    agents: dict[str, Agent]


class _Columns:
    """Columns by name, as :func:`record_from_row` reads a row."""

    def __init__(self, mapping: dict[str, Any]) -> None:
        self._mapping = mapping


@functools.cache
def _config_statement(dialect: Dialect) -> tuple[str, tuple[Any, ...]]:
    """``org_config_query``'s text for psycopg (one parameter, ``organization_id``) and the
    types of its columns, compiled once."""
    query = org_config_query(cast(uuid.UUID, bindparam("organization_id")))
    return str(query.compile(dialect=dialect)), tuple(column.type for column in query.selected_columns)


def _processed(
    cursor: psycopg.Cursor[tuple[Any, ...]], types: Sequence[TypeEngine[Any]], dialect: Dialect
) -> list[dict[str, Any]]:
    """The rows of a raw psycopg cursor by column name, each value converted as SQLAlchemy
    converts a value of its column's type (what a SQLAlchemy result of the query holds)."""
    description = cursor.description
    assert description is not None  # a SELECT's cursor
    processors = [
        type_._cached_result_processor(dialect, column.type_code)
        for type_, column in zip(types, description, strict=True)
    ]
    names = [column.name for column in description]
    return [
        {
            name: value if process is None else process(value)
            for name, process, value in zip(names, processors, row, strict=True)
        }
        for row in cursor
    ]


def _found_agents(rows: list[dict[str, Any]], references: Sequence[str]) -> dict[str, Agent]:
    """Each reference's agent among ``rows``, as ``find_agent`` finds it: by id first (a
    reference that is a UUID), else by its name's spelling (:func:`name_key`)."""
    by_id = {row["id"]: row for row in rows}
    by_name = {row["name"]: row for row in rows}
    found: dict[str, Agent] = {}
    for reference in references:
        agent_id = as_uuid(reference)
        row = by_id.get(agent_id) if agent_id is not None else None
        if row is None:
            row = by_name.get(name_key(reference))
        if row is not None:
            found[reference] = record_from_row(Agent, _Columns(row))
    return found


def _is_text(reference: str) -> bool:
    """Whether PostgreSQL's text can hold ``reference`` (no NUL, valid UTF-8): any other is
    left for collect to refuse, as before, not sent with the reads."""
    if not reference or "\x00" in reference:
        return False
    try:
        reference.encode()
    except UnicodeEncodeError:  # a lone surrogate (OTLP/JSON's \ud800)
        return False
    return True


class OtlpSpanRepository(OrgScoped):
    """The organization's kept spans."""

    def lock_otlp_traces(self, trace_ids: Iterable[str]) -> None:
        """Inside a unit of work, wait for the other units of work that locked one of these
        traces to end, and hold them until this one ends: on PostgreSQL one transaction-level
        advisory lock per (organization, trace), taken in one statement in a fixed order (two
        exports of overlapping traces cannot deadlock on them); SQLite's write transaction
        (``BEGIN IMMEDIATE``) already runs alone.  What the unit of work reads after it
        includes everything such a unit of work stored."""
        if self._bound is None:
            raise RuntimeError("lock_otlp_traces holds its locks for a unit of work: call it inside one")
        if self._bound.dialect.name != "postgresql" or not trace_ids:
            return
        keys = sorted({_lock_key(self.organization_id, trace_id) for trace_id in trace_ids})
        self._bound.exec_driver_sql(_LOCK_TRACES_PG, (_listed(keys),))

    def read_for_export(
        self,
        trace_ids: Iterable[str],
        task_ids: Iterable[str],
        *,
        since: datetime,
        agents: Iterable[str] = (),
    ) -> ExportRead:
        """Inside a unit of work: :meth:`lock_otlp_traces`, then :meth:`kept_otlp_spans` and
        :meth:`stored_otlp_events` — on PostgreSQL in one round trip (psycopg's pipeline: each
        statement starts once the one before it has ended, so the reads see what a unit of
        work that held one of the locks stored), with the configuration and the agents
        ``agents`` name (references: names or ids), which collecting the events reads first
        (a round trip of its own were they not read here)."""
        traces = sorted(set(trace_ids))
        tasks = sorted(set(task_ids))
        bound = self._bound
        if bound is None or bound.dialect.name != "postgresql" or not traces:
            self.lock_otlp_traces(traces)
            stored = self.stored_otlp_events(tasks) if tasks else []
            return ExportRead(self.kept_otlp_spans(traces, since=since), stored, None, {})
        import psycopg

        references = sorted({name for name in agents if _is_text(name)})
        keys = sorted({_lock_key(self.organization_id, trace_id) for trace_id in traces})
        dialect = bound.dialect
        config_sql, config_types = _config_statement(dialect)
        driver = bound.connection.driver_connection
        assert isinstance(driver, psycopg.Connection)
        with (
            driver.cursor() as lock,
            driver.cursor() as kept,
            driver.cursor() as found,
            driver.cursor() as config,
            driver.cursor() as named,
        ):
            with driver.pipeline():
                lock.execute(_LOCK_TRACES_PG, (_listed(keys),))
                kept.execute(_KEPT_PG, (self.organization_id, _listed(traces), since))
                if tasks:
                    found.execute(_STORED_PG, (self.organization_id, _listed(tasks)))
                config.execute(config_sql, {"organization_id": self.organization_id})
                if references:
                    ids = [agent_id for agent_id in map(as_uuid, references) if agent_id is not None]
                    names = sorted({name_key(reference) for reference in references})
                    named.execute(_AGENTS_PG, (self.organization_id, ids, names))
            spans = [_kept_span(state, task_id, agent, span) for state, task_id, agent, span in kept]
            stored = [
                StoredEvent(str(agent_id), kind, key, timestamp.astimezone(UTC), data)
                for agent_id, kind, key, timestamp, data in (found if tasks else [])
            ]
            config_rows = cast(Any, _processed(config, config_types, dialect))
            configuration = org_config_from_rows(self.organization_id, config_rows)
            rows = (
                _processed(named, [column.type for column in t.agents.columns], dialect) if references else []
            )
        return ExportRead(spans, stored, configuration, _found_agents(rows, references))

    def kept_otlp_spans(self, trace_ids: Iterable[str], *, since: datetime) -> list[KeptSpan]:
        """Every span of these traces kept since ``since`` (older ones are forgotten: not
        read, deleted by the next write)."""
        with self._reading() as connection:
            return self._kept(connection, trace_ids, since)

    def stored_otlp_events(self, task_ids: Iterable[str]) -> list[StoredEvent]:
        """The ``task_completed`` and ``tool_invoked`` events of these tasks (ids the mapping
        made) stored for the organization's agents."""
        with self._reading() as connection:
            return self._stored(connection, task_ids)

    def _kept(self, connection: Connection, trace_ids: Iterable[str], since: datetime) -> list[KeptSpan]:
        wanted = sorted(set(trace_ids))
        table = t.otlp_pending_spans
        out: list[KeptSpan] = []
        for start in range(0, len(wanted), _CHUNK):
            traces = wanted[start : start + _CHUNK]
            rows = connection.execute(
                select(table.c.state, table.c.task_id, table.c.agent, table.c.span).where(
                    table.c.organization_id == self.organization_id,
                    table.c.trace_id.in_(traces),
                    table.c.received_at >= since,
                )
            ).all()
            out += [_kept_span(row.state, row.task_id, row.agent, row.span) for row in rows]
        return out

    def _stored(self, connection: Connection, task_ids: Iterable[str]) -> list[StoredEvent]:
        wanted = sorted(set(task_ids))
        events, agents = t.events, t.agents
        out: list[StoredEvent] = []
        for start in range(0, len(wanted), _CHUNK):
            rows = connection.execute(
                select(
                    agents.c.id, events.c.type, events.c.idempotency_key, events.c.timestamp, events.c.data
                )
                .join(agents, agents.c.id == events.c.agent_id)
                .where(
                    agents.c.organization_id == self.organization_id,
                    events.c.task_id.in_(wanted[start : start + _CHUNK]),
                    events.c.type.in_(("task_completed", "tool_invoked")),
                )
            ).all()
            out += [
                StoredEvent(str(row.id), row.type, row.idempotency_key, row.timestamp, row.data)
                for row in rows
            ]
        return out

    def keep_otlp_spans(
        self,
        outcomes: Sequence[SpanOutcome],
        *,
        at: datetime,
        drop: Iterable[tuple[str, str]] = (),
        forget_before: datetime | None = None,
        last: bool = False,
    ) -> None:
        """Store (or update) each span with its state, delete the kept spans ``drop`` (spans
        whose events are now stored) and, with ``forget_before``, the spans received before
        it, in one transaction; nothing at all when there is nothing to store or drop.

        ``last``: this is the unit of work's last step, and on PostgreSQL its ``COMMIT`` is
        sent with these writes, in their round trip (the unit of work's end then finds nothing
        left to commit).  Should a write fail, the ``COMMIT`` is not run (the pipeline stops at
        the error) and the unit of work rolls back as before."""
        gone = sorted(set(drop))
        if not outcomes and not gone:
            return
        if self._bound is not None:  # the unit of work's last step: no savepoint to come back to
            if self._bound.dialect.name == "postgresql":
                self._write_pipelined(self._bound, outcomes, at, gone, forget_before, commit=last)
            else:
                self._write(self._bound, outcomes, at, gone, forget_before)
            return
        with self._writing() as connection:
            self._write(connection, outcomes, at, gone, forget_before)

    def _write(
        self,
        connection: Connection,
        outcomes: Sequence[SpanOutcome],
        at: datetime,
        gone: Sequence[tuple[str, str]],
        forget_before: datetime | None,
    ) -> None:
        """Drop ``gone`` (and what is older than ``forget_before``), upsert ``outcomes``."""
        self._drop(connection, gone, forget_before)
        if not outcomes:
            return
        table = t.otlp_pending_spans
        rows: dict[tuple[str, str], dict[str, object]] = {}
        for outcome in outcomes:
            span = outcome.span
            rows[span.key] = {
                "organization_id": self.organization_id,
                "trace_id": span.trace_id,
                "span_id": span.span_id,
                "state": outcome.state,
                "task_id": None if outcome.task is None else outcome.task.task_id,
                "agent": None if outcome.task is None else outcome.task.agent,
                "span": span.to_json(),
                "received_at": at,
            }
        from sqlalchemy.dialects import postgresql, sqlite

        dialect_insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        statement = dialect_insert(table)
        # an upsert: two requests carrying the same span (an exporter's retry) both succeed
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.organization_id, table.c.trace_id, table.c.span_id],
            set_={
                name: statement.excluded[name]
                for name in ("state", "task_id", "agent", "span", "received_at")
            },
        )
        values = list(rows.values())
        for start in range(0, len(values), _CHUNK):
            connection.execute(statement, values[start : start + _CHUNK])

    def _write_pipelined(
        self,
        connection: Connection,
        outcomes: Sequence[SpanOutcome],
        at: datetime,
        gone: Sequence[tuple[str, str]],
        forget_before: datetime | None,
        *,
        commit: bool = False,
    ) -> None:
        """:meth:`_write` on PostgreSQL: two statements of arrays in one round trip, nothing
        for SQLAlchemy to compile (the two statements it built were ~11 % of an export's CPU);
        with ``commit``, the transaction's ``COMMIT`` in the same round trip."""
        import psycopg

        rows: dict[tuple[str, str], SpanOutcome] = {outcome.span.key: outcome for outcome in outcomes}
        driver = connection.connection.driver_connection
        assert isinstance(driver, psycopg.Connection)
        with driver.cursor() as drop, driver.cursor() as keep, driver.pipeline():
            if gone or forget_before is not None:
                drop.execute(
                    _DROP_PG,
                    (
                        self.organization_id,
                        [trace_id for trace_id, _ in gone],
                        [span_id for _, span_id in gone],
                        forget_before,
                    ),
                )
            if rows:
                kept = list(rows.values())
                keep.execute(
                    _KEEP_PG,
                    (
                        self.organization_id,
                        at,
                        [outcome.span.trace_id for outcome in kept],
                        [outcome.span.span_id for outcome in kept],
                        [outcome.state for outcome in kept],
                        [None if outcome.task is None else outcome.task.task_id for outcome in kept],
                        [None if outcome.task is None else outcome.task.agent for outcome in kept],
                        [dumps_json(outcome.span.to_json()) for outcome in kept],
                    ),
                )
            if commit:  # run only if both writes succeeded (a pipeline stops at its first error)
                drop.execute("COMMIT", prepare=False)

    def _drop(self, connection: Connection, keys: Sequence[tuple[str, str]], before: datetime | None) -> None:
        """Delete the kept spans ``keys`` and those received before ``before`` (one statement
        for up to :data:`_CHUNK` keys)."""
        table = t.otlp_pending_spans
        chunks = [keys[start : start + _CHUNK] for start in range(0, len(keys), _CHUNK)] or [[]]
        for number, chunk in enumerate(chunks):
            which = [
                and_(table.c.trace_id == trace_id, table.c.span_id == span_id) for trace_id, span_id in chunk
            ]
            if before is not None and number == 0:
                which.append(table.c.received_at < before)
            if which:
                connection.execute(
                    delete(table).where(table.c.organization_id == self.organization_id, or_(*which))
                )

    def forget_otlp_spans(self, *, before: datetime) -> int:
        """Delete the spans received before ``before``; how many."""
        table = t.otlp_pending_spans
        with self._writing() as connection:
            result = connection.execute(
                delete(table).where(
                    table.c.organization_id == self.organization_id, table.c.received_at < before
                )
            )
        return int(result.rowcount or 0)
