"""An organization's recorded usage per UTC day (docs/api.md "Usage")."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from sqlalchemy.engine import Engine

from aaaf.models.usage import UsageDay
from aaaf.store.usage import DailyUsage, usage_between


def usage_days(engine: Engine, organization_id: uuid.UUID, first: date, last: date) -> list[UsageDay]:
    """One item per day from ``first`` to ``last`` (inclusive), zero on a day without use."""
    recorded = {row.day: row for row in usage_between(engine, organization_id, first, last)}
    days = []
    day = first
    while day <= last:
        row = recorded.get(day) or DailyUsage(organization_id, day, 0, 0, 0)
        days.append(UsageDay(**row.to_dict()))
        day += timedelta(days=1)
    return days
