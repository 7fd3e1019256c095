"""Where agents' events are read from: one interface over the store's readers (issue 10 §2).

An :class:`EventSource` gives each requested agent's events in (timestamp, id) order.  An
organization's :class:`~aaaf.store.org_store.OrgStore` is one (SQLAlchemy Core on
PostgreSQL, the DB-API cursor on SQLite: :mod:`aaaf.store.event_reader`);
:class:`~aaaf.store.sqlite_events.SqliteEventSource` is the same SQLite reader over its own
``sqlite3`` connection, for ``assess --all``'s helper processes, which must start without
importing SQLAlchemy (about 0.2 s instead of 1.5 s, measured).

A helper process is handed an :data:`EventSourceAddress` (plain strings, picklable) from
:func:`event_source_address` and opens it with :func:`open_event_source`.  This module
imports no SQLAlchemy.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from typing import Any, Protocol

from aaaf.scoring.records import EventRecord

EventSourceAddress = tuple[str, str]
"""``("sqlite", absolute file path)`` or ``("url", database URL)``."""


class EventSource(Protocol):
    """Each agent's events in (timestamp, id) order; every requested agent has an entry."""

    def events_for_agents(self, agent_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[EventRecord]]: ...


def event_source_address(org: Any) -> EventSourceAddress:
    """Where a helper process reads ``org``'s events: a SQLite file straight through the
    DB-API (the helper then never imports SQLAlchemy), else the store URL."""
    url = org.engine.url
    if url.get_backend_name() == "sqlite" and url.database and not url.query:
        return ("sqlite", os.path.abspath(url.database))
    return ("url", url.render_as_string(hide_password=False))


def open_event_source(address: EventSourceAddress, organization_id: Any, *, timeout: float) -> EventSource:
    """The events at ``address``, for the organization ``organization_id``.

    The SQLite path does not re-check organization scoping: the caller checks every agent
    id against the organization before it asks (as ``assess --all`` does before dispatch).
    ``timeout`` is how long a SQLite read waits for a writer's lock.
    """
    kind, where = address
    if kind == "sqlite":
        from aaaf.store.sqlite_events import SqliteEventSource

        return SqliteEventSource(where, timeout=timeout)
    from aaaf.store.store import open_store

    return open_store(where).scope(organization_id)
