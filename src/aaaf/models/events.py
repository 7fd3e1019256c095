"""Evidence events over HTTP (docs/api.md "Events"): one stored, a batch's answer, a listed event."""

from __future__ import annotations

from pydantic import BaseModel


class EventItemError(BaseModel):
    """Why the event at ``index`` was rejected; ``id`` is the event's own ``id`` if it had one."""

    index: int
    id: str | None
    code: str
    field: str | None
    error: str


class BatchResult(BaseModel):
    """docs/api.md batch answer plus the count of re-sent events (not errors)."""

    accepted: int
    duplicates: int
    rejected: int
    errors: list[EventItemError]


class EventStored(BaseModel):
    """The answer to one event: stored now, or a re-send of one already stored."""

    accepted: int
    duplicates: int
    id: str | None


class EventOut(BaseModel):
    id: str
    key: str | None
    agent_id: str
    type: str
    timestamp: str
    task_id: str | None
    data: dict[str, object]
