"""OpenTelemetry spans kept between requests of ``POST /v1/traces`` (issue 19).

A span waits here (``pending``) until its ``invoke_agent`` ancestor comes; spans joined to a
task or found ``unused`` stay so that a late descendant still finds its task.  Rows older
than the service's time-to-live are deleted by :meth:`OtlpSpanRepository.forget_otlp_spans`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from aaaf.evidence.otlp import KeptSpan, Span, SpanOutcome, TaskRef
from aaaf.store import tables as t
from aaaf.store.repositories.base import OrgScoped

_CHUNK = 500  # trace ids per query (SQLite's bound-parameter limit stays far away)


class OtlpSpanRepository(OrgScoped):
    """The organization's kept spans."""

    def kept_otlp_spans(self, trace_ids: Iterable[str]) -> list[KeptSpan]:
        """Every kept span of these traces."""
        wanted = sorted(set(trace_ids))
        table = t.otlp_pending_spans
        out: list[KeptSpan] = []
        with self._reading() as connection:
            for start in range(0, len(wanted), _CHUNK):
                rows = connection.execute(
                    select(table.c.state, table.c.task_id, table.c.agent, table.c.span).where(
                        table.c.organization_id == self.organization_id,
                        table.c.trace_id.in_(wanted[start : start + _CHUNK]),
                    )
                ).all()
                for row in rows:
                    task = TaskRef(row.task_id, row.agent) if row.task_id and row.agent else None
                    out.append(KeptSpan(Span.from_json(row.span), row.state, task))
        return out

    def pending_otlp_traces(self, trace_ids: Iterable[str]) -> set[str]:
        """Those of these traces that have a pending span."""
        wanted = sorted(set(trace_ids))
        table = t.otlp_pending_spans
        found: set[str] = set()
        with self._reading() as connection:
            for start in range(0, len(wanted), _CHUNK):
                found.update(
                    connection.execute(
                        select(table.c.trace_id)
                        .where(
                            table.c.organization_id == self.organization_id,
                            table.c.trace_id.in_(wanted[start : start + _CHUNK]),
                            table.c.state == "pending",
                        )
                        .distinct()
                    ).scalars()
                )
        return found

    def keep_otlp_spans(self, outcomes: Sequence[SpanOutcome], *, at: datetime) -> None:
        """Store (or update) each span with its state, in one transaction."""
        if not outcomes:
            return
        table = t.otlp_pending_spans
        rows: dict[tuple[str, str], dict[str, Any]] = {}
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
        with self._writing() as connection:
            for start in range(0, len(values), _CHUNK):
                connection.execute(statement, values[start : start + _CHUNK])

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
