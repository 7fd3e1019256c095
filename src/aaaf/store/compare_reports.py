"""The ``compare_reports`` table: dashboard compare reports run as jobs (issue 32).

A report is recorded ``queued`` when the form is posted, claimed ``running`` by its job (at
most once), and closed ``done`` with its HTML or ``failed`` with the reason.  Every read and
write names the organization, so another organization's report is not found.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, insert, select, update

from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.tables_compare import compare_reports as reports_table


@dataclass(frozen=True)
class CompareReport:
    """One report: what was asked, where its job stands, and its HTML once ``done``."""

    id: uuid.UUID
    organization_id: uuid.UUID
    created_at: datetime
    control: str
    treatments: list[str]
    resamples: int
    status: str
    started_at: datetime | None
    finished_at: datetime | None
    html: str | None
    error: str | None


def record_report(
    engine: Engine,
    organization_id: uuid.UUID,
    *,
    control: str,
    treatments: list[str],
    resamples: int,
    at: datetime,
    also: Callable[[Connection, uuid.UUID], None],
) -> uuid.UUID:
    """Record a ``queued`` report and call ``also(connection, report id)`` in the same
    transaction (the caller queues its job there: both are committed or neither is); its id."""
    report_id = uuid.uuid4()
    with write_transaction(engine) as connection:
        connection.execute(
            insert(reports_table).values(
                id=report_id,
                organization_id=organization_id,
                created_at=at,
                control=control,
                treatments=list(treatments),
                resamples=resamples,
                status="queued",
            )
        )
        also(connection, report_id)
    return report_id


def get_report(engine: Engine, organization_id: uuid.UUID, report_id: uuid.UUID) -> CompareReport | None:
    """The organization's report ``report_id``, or None."""
    table = reports_table
    with read_connection(engine) as connection:
        row = connection.execute(
            select(table).where(table.c.id == report_id, table.c.organization_id == organization_id)
        ).one_or_none()
    if row is None:
        return None
    return CompareReport(**{**row._asdict(), "treatments": list(row.treatments)})


def claim_report(engine: Engine, organization_id: uuid.UUID, report_id: uuid.UUID, *, at: datetime) -> bool:
    """Mark a ``queued`` report ``running``; False when it is not queued (already claimed,
    done, failed or unknown) — its job then does nothing."""
    table = reports_table
    with write_transaction(engine) as connection:
        claimed = connection.execute(
            update(table)
            .where(
                table.c.id == report_id,
                table.c.organization_id == organization_id,
                table.c.status == "queued",
            )
            .values(status="running", started_at=at)
        )
    return bool(claimed.rowcount)


def close_report(
    engine: Engine,
    organization_id: uuid.UUID,
    report_id: uuid.UUID,
    *,
    at: datetime,
    html: str | None = None,
    error: str | None = None,
) -> None:
    """Close a ``running`` report: ``done`` with its HTML, or ``failed`` with ``error``."""
    table = reports_table
    with write_transaction(engine) as connection:
        connection.execute(
            update(table)
            .where(
                table.c.id == report_id,
                table.c.organization_id == organization_id,
                table.c.status == "running",
            )
            .values(status="failed" if error is not None else "done", finished_at=at, html=html, error=error)
        )
