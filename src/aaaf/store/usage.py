"""Usage per organization and UTC day (issue 13 §4): API calls, events accepted, assessments run.

The API counts in memory and adds its counts here periodically and when it stops
(:mod:`aaaf.api.usage`), so a request never waits for a usage write of its own.  Adding is
an upsert that increments (``INSERT … ON CONFLICT (organization_id, day) DO UPDATE SET
n = n + excluded.n``, on SQLite and PostgreSQL alike), so any number of server processes
add to the same rows without losing each other's counts.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.dialects import postgresql, sqlite

from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.tables_access import usage_daily

COUNTERS: tuple[str, ...] = ("api_calls", "events_accepted", "assessments_run")


@dataclass(frozen=True)
class DailyUsage:
    """One organization's usage on one UTC day."""

    organization_id: uuid.UUID
    day: date
    api_calls: int
    events_accepted: int
    assessments_run: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "date": self.day.isoformat(),
            "api_calls": self.api_calls,
            "events_accepted": self.events_accepted,
            "assessments_run": self.assessments_run,
        }


def add_usage(engine: Engine, counts: Mapping[tuple[uuid.UUID, date], Mapping[str, int]]) -> None:
    """Add these counts (by organization and day) in one transaction."""
    rows = [
        {
            "organization_id": org,
            "day": day.isoformat(),
            **{name: int(added.get(name, 0)) for name in COUNTERS},
        }
        for (org, day), added in counts.items()
        if any(added.get(name, 0) for name in COUNTERS)
    ]
    if not rows:
        return
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(usage_daily)
    upsert = statement.on_conflict_do_update(
        index_elements=["organization_id", "day"],
        set_={name: getattr(usage_daily.c, name) + getattr(statement.excluded, name) for name in COUNTERS},
    )
    with write_transaction(engine) as connection:
        connection.execute(upsert, rows)


def usage_between(engine: Engine, organization_id: uuid.UUID, first: date, last: date) -> list[DailyUsage]:
    """The organization's recorded days from ``first`` to ``last`` (inclusive), oldest first;
    a day without any use has no row."""
    c = usage_daily.c
    query = (
        select(usage_daily)
        .where(c.organization_id == organization_id, c.day >= first.isoformat(), c.day <= last.isoformat())
        .order_by(c.day)
    )
    with read_connection(engine) as connection:
        rows = connection.execute(query).all()
    return [
        DailyUsage(
            organization_id=row.organization_id,
            day=date.fromisoformat(row.day),
            api_calls=row.api_calls,
            events_accepted=row.events_accepted,
            assessments_run=row.assessments_run,
        )
        for row in rows
    ]


def organization_rate_limit(engine: Engine, organization_id: uuid.UUID) -> int | None:
    """The organization's ``rate_limit_per_minute`` setting (None: not set, the default applies).

    One indexed single-row read — what a request authenticated by an access token pays to
    learn its limit, instead of building the whole configuration (a key's request reads it
    with the key, :meth:`aaaf.store.api_keys.ApiKeys.for_request`)."""
    with read_connection(engine) as connection:
        extra = connection.execute(
            select(t.org_configs.c.extra).where(t.org_configs.c.organization_id == organization_id)
        ).scalar_one_or_none()
    return rate_limit_setting(extra)


def rate_limit_setting(extra: Any) -> int | None:
    """``rate_limit_per_minute`` of an ``org_configs.extra`` value (None: not set or not a
    positive whole number)."""
    value = extra.get("rate_limit_per_minute") if isinstance(extra, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
