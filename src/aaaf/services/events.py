"""Evidence events as the API reads and writes them (docs/api.md "Events"): an agent's events
a page at a time, and the one transaction a request's events are written in (what is
accepted, a duplicate or rejected is decided by :func:`aaaf.services.collect.collect`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import uuid

    from aaaf.scoring.records import EventRecord
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent


@contextmanager
def request_transaction(org: OrgStore) -> Iterator[OrgStore]:
    """On PostgreSQL, ``org`` bound to one transaction for the request: the configuration, the
    agents and the write share one pooled connection (one checkout and its ping instead of
    three), committed before the answer is sent, or nothing is.  SQLite keeps a connection
    per step, so that its write lock is not held while a batch is validated."""
    if org.engine.dialect.name == "sqlite":
        yield org
        return
    with org.unit_of_work() as bound:
        yield bound


def agent_events_page(
    org: OrgStore,
    agent_ref: str,
    *,
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[Agent, list[EventRecord]]:
    """The agent (by name or id) and its events in ``(timestamp, id)`` order after ``after``."""
    agent = org.get_agent(agent_ref)
    return agent, org.events_page(agent.id, types=types, since=since, until=until, after=after, limit=limit)
