"""Evidence events (document 004 §6.2 "Events"; SCORING.md §1; issue 13 §5).

Events go through the same validation and idempotent store as ``aaaf collect``
(:func:`aaaf.services.collect.collect`): each invalid event is rejected with an error that
names its field, the rest of a batch is kept, a re-sent event (same agent and ``id``) is a
duplicate, not an error.  A ``task_audited`` event (an audit finding) needs the ``auditor``
scope besides ``events:write`` (SCORING.md §2.6): without it the single route answers 403
``FORBIDDEN`` and the batch rejects that event with the code ``FORBIDDEN``.  The answer comes only after the accepted events are committed.
A batch holds at most 1 000 events (413 ``PAYLOAD_TOO_LARGE`` beyond, as for a body over
1 MiB).

The two write routes are coroutines that hand their work to one worker thread: a plain
function route also had its answer checked against its model in a second dispatch to the
thread pool, and each dispatch waits for the interpreter lock while a request beside it in
the same process validates its batch (the dependencies that do no I/O run on the event loop
for the same reason: :mod:`aaaf.api.deps`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from starlette.concurrency import run_in_threadpool

from aaaf.api.deps import CallerDep, EventWriter, NowDep, Reader
from aaaf.api.json_body import FastJsonRoute
from aaaf.api.limits import MAX_BATCH_EVENTS
from aaaf.api.models import BatchResult, EventItemError, EventOut, EventStored, Page
from aaaf.api.pagination import CursorQuery, LimitQuery, keyset_page, time_id_after, time_key
from aaaf.api.usage import MeterDep, UsageMeter
from aaaf.errors import AAAFError
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import iso
from aaaf.services.audits import gate_findings
from aaaf.services.collect import CollectReport
from aaaf.services.collect import collect as collect_events
from aaaf.services.events import agent_events_page, request_transaction
from aaaf.services.keys import Principal
from aaaf.store import OrgStore

# a batch is ~300 kB of JSON: parsed by orjson, as json.loads would (aaaf.api.json_body)
router = APIRouter(prefix="/api/v1/events", tags=["events"], route_class=FastJsonRoute)


def _client_id(raw: Any) -> str | None:
    """The event's ``id`` (its idempotency key) as the answer echoes it: ``None`` when it sent
    none, or one JSON cannot carry (a lone surrogate: such an event is refused, found by its
    index)."""
    if isinstance(raw, dict) and isinstance(raw.get("id"), str):
        key = str(raw["id"])
        try:
            key.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return key
    return None


@router.post("", status_code=201, response_model=EventStored, operation_id="create_event")
async def create_event(
    event: Annotated[dict[str, Any], Body(description="One event (docs/scoring.md §2).")],
    org: EventWriter,
    principal: CallerDep,
    now: NowDep,
    meter: MeterDep,
) -> EventStored:
    """Submit one event; an invalid one is refused with the code and field of its problem
    (a ``task_audited`` event without the ``auditor`` scope: 403 ``FORBIDDEN``)."""
    return await run_in_threadpool(_create_event, event, org, principal, now, meter)


def _create_event(
    event: dict[str, Any], org: OrgStore, principal: Principal, now: datetime, meter: UsageMeter
) -> EventStored:
    """:func:`create_event`'s work, in a worker thread (the module docstring's one dispatch)."""
    items = gate_findings([(None, event)], may_audit=principal.holds("auditor"))
    with request_transaction(org) as bound:
        report = collect_events(bound, items, now=now)
    meter.add(org.organization_id, now, "events_accepted", report.accepted)
    if report.errors:
        error = report.errors[0]
        details = {"field": error.field, "id": _client_id(event)}
        raise AAAFError(error.code, error.message, details)
    return EventStored(accepted=report.accepted, duplicates=report.duplicates, id=_client_id(event))


@router.post("/batch", status_code=201, response_model=BatchResult, operation_id="create_events_batch")
async def create_events_batch(
    events: Annotated[list[Any], Body(embed=True, description="Up to 1 000 events.")],
    org: EventWriter,
    principal: CallerDep,
    now: NowDep,
    meter: MeterDep,
) -> BatchResult:
    """Submit up to 1 000 events: each is accepted, a duplicate, or rejected with its index,
    its ``id``, the code and the field of its problem (``FORBIDDEN`` for a ``task_audited``
    event sent without the ``auditor`` scope)."""
    return await run_in_threadpool(_create_events_batch, events, org, principal, now, meter)


def _create_events_batch(
    events: list[Any], org: OrgStore, principal: Principal, now: datetime, meter: UsageMeter
) -> BatchResult:
    """:func:`create_events_batch`'s work, in a worker thread (the module docstring's one dispatch)."""
    if len(events) > MAX_BATCH_EVENTS:
        raise AAAFError(
            "PAYLOAD_TOO_LARGE",
            f"A batch holds at most {MAX_BATCH_EVENTS} events; this one has {len(events)}.",
            {"limit_events": MAX_BATCH_EVENTS, "events": len(events)},
        )
    items = gate_findings(((None, raw) for raw in events), may_audit=principal.holds("auditor"))
    with request_transaction(org) as bound:
        report = collect_events(bound, items, now=now)
    meter.add(org.organization_id, now, "events_accepted", report.accepted)
    return batch_answer(report, events)


def batch_answer(report: CollectReport, sent: list[Any]) -> BatchResult:
    """docs/api.md batch answer: counts and each rejected item's index, ``id``, code,
    field and message."""
    return BatchResult(
        accepted=report.accepted,
        duplicates=report.duplicates,
        rejected=report.rejected,
        errors=[
            EventItemError(
                index=error.index,
                id=_client_id(sent[error.index]) if 0 <= error.index < len(sent) else None,
                code=error.code,
                field=error.field,
                error=error.message,
            )
            for error in report.errors
        ],
    )


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _event_json(record: EventRecord, agent_id: str) -> dict[str, Any]:
    return {
        "id": record.id,
        "key": record.key,
        "agent_id": agent_id,
        "type": record.type,
        "timestamp": iso(record.timestamp),
        "task_id": record.task_id,
        "data": dict(record.data),
    }


@router.get("", response_model=Page[EventOut], operation_id="list_events")
def list_events(
    org: Reader,
    agent_id: Annotated[str, Query(description="The agent whose events to list.")],
    event_type: Annotated[
        str | None, Query(alias="type", description="Only these types (comma-separated).")
    ] = None,
    since: Annotated[datetime | None, Query(alias="from", description="RFC 3339; inclusive.")] = None,
    until: Annotated[datetime | None, Query(alias="to", description="RFC 3339; inclusive.")] = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
) -> Page[EventOut]:
    """An agent's events in time order (``id`` is the store's, ``key`` the client's ``id``)."""
    types = [part.strip() for part in event_type.split(",") if part.strip()] if event_type else None
    agent, rows = agent_events_page(
        org,
        agent_id,
        types=types,
        since=_utc(since),
        until=_utc(until),
        after=time_id_after(cursor),
        limit=limit + 1,
    )
    return keyset_page(
        rows,
        limit=limit,
        key=lambda r: [time_key(r.timestamp), r.id],
        render=lambda r: _event_json(r, str(agent.id)),
        page=Page[EventOut],
    )
