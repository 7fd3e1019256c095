"""Evidence events (SCORING.md §1), idempotent by (agent, key).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`AgentRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import Connection, delete, func, select

from aaaf.scoring.records import EventRecord
from aaaf.store import tables as t
from aaaf.store.event_reader import read_events_by_agent
from aaaf.store.event_writer import EventLike, Stored, write_events
from aaaf.store.repositories.agents import AgentRepository
from aaaf.store.repositories.base import not_found


class EventRepository(AgentRepository):
    """Evidence events (SCORING.md §1), idempotent by (agent, key)."""

    def _own_agent_ids(self, connection: Connection, agent_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        wanted = list(set(agent_ids))
        found: set[uuid.UUID] = set()
        for start in range(0, len(wanted), 1000):
            found.update(
                connection.execute(
                    select(t.agents.c.id).where(
                        t.agents.c.organization_id == self.organization_id,
                        t.agents.c.id.in_(wanted[start : start + 1000]),
                    )
                ).scalars()
            )
        return found

    def add_events(
        self, items: Sequence[tuple[uuid.UUID, EventLike]], *, agents_checked: bool = False
    ) -> list[Stored]:
        """Store validated events in one transaction; idempotent by (agent, key).

        The key is the event's ``id``, or else the digest of its content (SCORING.md §1
        *2026-11-23*).  Returns, per item, ``Stored.NEW`` when it was newly stored,
        ``Stored.DUPLICATE`` when its key was already stored for that agent (or came
        earlier in the same batch) with the same content, ``Stored.CONFLICT`` when with
        other content (``DUPLICATE_CONFLICT``).
        An agent id not of this organization is ``NOT_FOUND`` and nothing is stored;
        ``agents_checked``: the caller read every agent of ``items`` from this organization
        (the ids are not read again; the database still refuses an agent that does not exist).
        Inside a unit of work a failure leaves its transaction as it was before the call.

        An unknown type is ``INVALID_EVENT_TYPE``.  How this is made fast (``make
        bench``: a million events) is described in :mod:`aaaf.store.event_writer`.
        """
        if not items:
            return []
        bound = self._bound
        if agents_checked and bound is not None and bound.dialect.name == "postgresql":
            # write_events' own savepoint, taken with its first statement (two round trips fewer)
            return write_events(bound, items, savepoint=True)
        with self._writing() as connection:
            if not agents_checked:
                requested = {agent_id for agent_id, _ in items}
                missing = requested - self._own_agent_ids(connection, requested)
                if missing:
                    raise not_found("Agent", sorted(str(agent_id) for agent_id in missing)[0])
            return write_events(connection, items)

    def events(
        self,
        agent_id: uuid.UUID,
        *,
        types: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[EventRecord]:
        """The agent's events ordered by (timestamp, id); ``since``/``until`` inclusive.

        ``NOT_FOUND`` when the agent is not this organization's.
        """
        with self._reading() as connection:
            row = self._require_agent(connection, agent_id)
            return read_events_by_agent(connection, [row.id], types=types, since=since, until=until)[row.id]

    def events_for_agents(
        self,
        agent_ids: Sequence[uuid.UUID],
        *,
        types: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> dict[uuid.UUID, list[EventRecord]]:
        """Events of several agents in one streamed query (``assess --all``).

        Every requested agent of this organization has an entry (possibly empty); ids of
        other organizations' agents are ``NOT_FOUND``.
        """
        wanted = list(dict.fromkeys(agent_ids))
        out: dict[uuid.UUID, list[EventRecord]] = {}
        if not wanted:
            return out
        with self._reading() as connection:
            own = self._own_agent_ids(connection, wanted)
            missing = [agent_id for agent_id in wanted if agent_id not in own]
            if missing:
                raise not_found("Agent", missing[0])
            return read_events_by_agent(connection, wanted, types=types, since=since, until=until)

    def count_events(self, agent_id: uuid.UUID, *, types: Sequence[str] | None = None) -> int:
        """How many events the agent has (of the given types)."""
        with self._reading() as connection:
            row = self._require_agent(connection, agent_id)
            query = select(func.count()).select_from(t.events).where(t.events.c.agent_id == row.id)
            if types is not None:
                query = query.where(t.events.c.type.in_(list(types)))
            return int(connection.execute(query).scalar_one())

    def event_counts(self, agent_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, int]:
        """How many events each of the given agents has (0 for none); other organizations'
        agents count 0.  One grouped scan of the ``(agent_id, timestamp)`` index."""
        counts = dict.fromkeys(agent_ids, 0)
        own_agents = select(t.agents.c.id).where(t.agents.c.organization_id == self.organization_id)
        query = (
            select(t.events.c.agent_id, func.count())
            .where(t.events.c.agent_id.in_(own_agents))
            .group_by(t.events.c.agent_id)
        )
        with self._reading() as connection:
            for agent_id, count in connection.execute(query):
                if agent_id in counts:
                    counts[agent_id] = int(count)
        return counts

    def delete_events_before(self, cutoff: datetime) -> int:
        """Drop this organization's events older than ``cutoff`` (document 004 §7.3 retention)."""
        own_agents = select(t.agents.c.id).where(t.agents.c.organization_id == self.organization_id)
        with self._writing() as connection:
            result = connection.execute(
                delete(t.events).where(t.events.c.agent_id.in_(own_agents), t.events.c.timestamp < cutoff)
            )
            return int(result.rowcount)
