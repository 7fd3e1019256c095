"""An organization's usage per UTC day (issue 13 §4): ``GET /api/v1/organizations/{org_id}/usage``.

``?from=&to=`` are dates (``YYYY-MM-DD``, inclusive, UTC; default the 30 days up to today; at
most 366 days apart); the answer is SCORING.md §7's list, one item per day of the range —
``{"date", "api_calls", "events_accepted", "assessments_run"}``, zero on a day without use —
paged with ``?cursor=&limit=``.  ``api_calls`` counts the organization's authenticated
requests (refused ones included), ``events_accepted`` the events stored (not duplicates nor
rejected ones), ``assessments_run`` the assessments triggered and accepted (202).  Counts are
kept in memory and recorded every few seconds (:mod:`aaaf.api.usage`); this answer includes
everything the answering process counted.  Reading takes ``read``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from fastapi import APIRouter, Query

from aaaf.api.deps import NowDep, Reader, StoreDep
from aaaf.api.models import Page
from aaaf.api.pagination import CursorQuery, LimitQuery, decode_cursor, encode_cursor
from aaaf.api.usage import MeterDep
from aaaf.errors import AAAFError
from aaaf.models.usage import UsageDay
from aaaf.services.usage import usage_days

router = APIRouter(prefix="/api/v1/organizations/{org_id}/usage", tags=["usage"])

DEFAULT_DAYS = 30
MAX_DAYS = 366


@router.get("", response_model=Page[UsageDay], operation_id="get_usage")
def get_usage(
    org_id: str,
    org: Reader,
    store: StoreDep,
    now: NowDep,
    meter: MeterDep,
    first: Annotated[date | None, Query(alias="from", description="First day (UTC), inclusive.")] = None,
    last: Annotated[date | None, Query(alias="to", description="Last day (UTC), inclusive.")] = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
) -> Page[UsageDay]:
    """API calls, events accepted and assessments run per UTC day, oldest first."""
    if org_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND", f"Organization {org_id} not found.", {"resource": "organization", "id": org_id}
        )
    last = last or now.date()
    first = first or last - timedelta(days=DEFAULT_DAYS - 1)
    if first > last:
        raise AAAFError("INVALID_REQUEST", "from: after to.", {"field": "from"})
    if (last - first).days + 1 > MAX_DAYS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"from/to: at most {MAX_DAYS} days at a time.",
            {"field": "from", "max_days": MAX_DAYS},
        )
    after = decode_cursor(cursor)
    if after is not None:
        try:
            first = max(first, date.fromisoformat(after[0]) + timedelta(days=1))
        except (ValueError, IndexError):
            raise AAAFError(
                "INVALID_REQUEST", "cursor: not a cursor this server returned.", {"field": "cursor"}
            ) from None
    meter.flush(store)  # this process's counts so far
    end = min(last, first + timedelta(days=limit - 1))
    return Page[UsageDay](
        items=usage_days(store.engine, org.organization_id, first, end),
        next_cursor=encode_cursor([end.isoformat()]) if end < last else None,
    )
