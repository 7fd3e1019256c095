"""Enrolled agents (document 004 §7.2 ``agents``).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`ConfigRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Row, and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.names import name_key
from aaaf.scoring.defaults import AAAFConfig
from aaaf.store import tables as t
from aaaf.store.records import (
    Agent,
)
from aaaf.store.repositories.base import (
    AgentRef,
    as_uuid,
    check_agent_name,
    check_one_of,
    not_found,
)
from aaaf.store.repositories.config import ConfigRepository, org_config_from_rows, org_config_query
from aaaf.store.row_mapping import record_from_row

# new agents per statement of enroll_missing_agents: 10 values a row, well under SQLite's bound
# of 32 766 variables
_ENROL_BATCH = 500


def agent_from_row(row: Row[Any]) -> Agent:
    return record_from_row(Agent, row)


_AGENT = "agent__"  # config_and_agent's labels of the agent's columns


class _ColumnsByName:
    """Columns by name, as :func:`record_from_row` reads a row."""

    def __init__(self, mapping: dict[str, object]) -> None:
        self._mapping = mapping


class AgentRepository(ConfigRepository):
    """Enrolled agents (document 004 §7.2 ``agents``)."""

    def _agent_row(self, connection: Connection, name_or_id: AgentRef) -> Row[Any] | None:
        memo = self._read_once if self._bound is None and connection is self._shared_read else None
        key = ("agent", str(name_or_id))
        if memo is not None and key in memo:
            found: Row[Any] = memo[key]
            return found
        row = self._read_agent_row(connection, name_or_id)
        if memo is not None and row is not None:  # by the reference given, by its id, by its name
            for ref in (key[1], str(row.id), row.name):
                memo["agent", ref] = row
        return row

    def _read_agent_row(self, connection: Connection, name_or_id: AgentRef) -> Row[Any] | None:
        by_org = t.agents.c.organization_id == self.organization_id
        agent_id = as_uuid(name_or_id)
        if agent_id is not None:
            row = connection.execute(select(t.agents).where(by_org, t.agents.c.id == agent_id)).one_or_none()
            if row is not None:
                return row
        return connection.execute(
            select(t.agents).where(by_org, t.agents.c.name == name_key(str(name_or_id)))
        ).one_or_none()

    def _require_agent(self, connection: Connection, name_or_id: AgentRef) -> Row[Any]:
        row = self._agent_row(connection, name_or_id)
        if row is None:
            raise not_found("Agent", name_or_id)
        return row

    def enroll_agent(
        self,
        name: str,
        *,
        claimed_domains: Sequence[str] = (),
        tools: Sequence[str] = (),
        description: str | None = None,
        metadata: Mapping[str, object] | None = None,
    ) -> Agent:
        """Enroll an agent (document 004 §5.1 step 1) under its normalised name
        (:func:`aaaf.names.name_key`); ``CONFLICT`` if that name is taken."""
        name = check_agent_name(name)
        stamp = self._clock()
        agent_id = uuid.uuid4()
        try:
            with self._writing() as connection:
                if self._agent_row(connection, name) is not None:
                    raise self._name_taken(name)
                connection.execute(
                    insert(t.agents).values(
                        id=agent_id,
                        organization_id=self.organization_id,
                        name=name,
                        claimed_domains=list(claimed_domains),
                        tools=list(tools),
                        description=description,
                        metadata=dict(metadata or {}),
                        status="enrolled",
                        created_at=stamp,
                        updated_at=stamp,
                    )
                )
        except IntegrityError as error:  # a concurrent enrolment of the same name
            raise self._name_taken(name) from error
        return self.get_agent(agent_id)

    def get_or_enroll_agent(self, name: str) -> tuple[Agent, bool]:
        """The agent named ``name`` (or of that id), enrolled first if there is none:
        ``(agent, enrolled)``; see :meth:`enroll_missing_agents`."""
        name = check_agent_name(name)
        found = self.find_agent(name)
        if found is not None:
            return found, False
        [outcome] = self.enroll_missing_agents([name])
        return outcome

    def enroll_missing_agents(self, names: Sequence[str]) -> list[tuple[Agent, bool]]:
        """Per name of ``names``, ``(agent, enrolled)``: the agent of that name, enrolled in
        one write transaction for all of them when there is none.

        Race-free (``collect --enroll``, issue 21): the insert is ``ON CONFLICT DO
        NOTHING`` on the unique (organization, name), so two writers enrolling the same
        new name both get the one agent and neither fails.  Names are looked up and
        enrolled in their normalised form (:func:`aaaf.names.name_key`).  ``collect``
        enrols a chunk's new agents with one call: one transaction per chunk instead of
        three reads and a write transaction per new agent.
        """
        checked = [check_agent_name(name) for name in names]
        if not checked:
            return []
        from sqlalchemy.dialects import postgresql, sqlite

        stamp = self._clock()
        wanted = list(dict.fromkeys(checked))
        dialect_insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        by_name: dict[str, Agent] = {}
        inserted: set[uuid.UUID] = set()
        with self._writing() as connection:
            for start in range(0, len(wanted), _ENROL_BATCH):
                part = wanted[start : start + _ENROL_BATCH]
                inserted.update(
                    connection.execute(
                        dialect_insert(t.agents)
                        .values(
                            [
                                {
                                    "id": uuid.uuid4(),
                                    "organization_id": self.organization_id,
                                    "name": name,
                                    "claimed_domains": [],
                                    "tools": [],
                                    "description": None,
                                    "metadata": {},
                                    "status": "enrolled",
                                    "created_at": stamp,
                                    "updated_at": stamp,
                                }
                                for name in part
                            ]
                        )
                        .on_conflict_do_nothing(index_elements=[t.agents.c.organization_id, t.agents.c.name])
                        .returning(t.agents.c.id)
                    ).scalars()
                )
                for row in connection.execute(
                    select(t.agents).where(
                        t.agents.c.organization_id == self.organization_id, t.agents.c.name.in_(part)
                    )
                ):
                    by_name[row.name] = agent_from_row(row)
        return [(by_name[name], by_name[name].id in inserted) for name in checked]

    @staticmethod
    def _name_taken(name: str) -> AAAFError:
        return AAAFError("CONFLICT", f"An agent named {name!r} is already enrolled.", {"name": name})

    def get_agent(self, name_or_id: AgentRef) -> Agent:
        """The agent by id or name, or ``NOT_FOUND`` naming what was asked for."""
        agent = self.find_agent(name_or_id)
        if agent is None:
            raise not_found("Agent", name_or_id)
        return agent

    def config_and_agent(self, name_or_id: AgentRef) -> tuple[AAAFConfig, Agent | None]:
        """``config()`` and ``find_agent(name_or_id)`` in one query: what every request that
        stores events reads first (its configuration and, mostly, its one agent)."""
        agents = t.agents
        by_id = as_uuid(name_or_id)
        name = name_key(str(name_or_id))
        match = agents.c.name == name if by_id is None else or_(agents.c.id == by_id, agents.c.name == name)
        query = (
            org_config_query(self.organization_id)
            .add_columns(*(column.label(f"{_AGENT}{column.name}") for column in agents.columns))
            .outerjoin(agents, and_(agents.c.organization_id == t.org_configs.c.organization_id, match))
        )
        with self._reading() as connection:
            rows = connection.execute(query).mappings().all()
        config = org_config_from_rows(self.organization_id, rows)
        found = {
            row[f"{_AGENT}id"]: {column.name: row[f"{_AGENT}{column.name}"] for column in agents.columns}
            for row in rows
            if row[f"{_AGENT}id"] is not None
        }
        # as find_agent: by id first, else by name
        chosen = found.get(by_id) if by_id is not None else None
        if chosen is None:
            chosen = next((columns for columns in found.values() if columns["name"] == name), None)
        return config, None if chosen is None else record_from_row(Agent, _ColumnsByName(chosen))

    def find_agent(self, name_or_id: AgentRef) -> Agent | None:
        """The agent by id or name, or None."""
        with self._reading() as connection:
            row = self._agent_row(connection, name_or_id)
        return None if row is None else agent_from_row(row)

    def agents(self, *, status: str | None = None) -> list[Agent]:
        """The organization's agents ordered by name."""
        query = select(t.agents).where(t.agents.c.organization_id == self.organization_id)
        if status is not None:
            query = query.where(t.agents.c.status == status)
        with self._reading() as connection:
            rows = connection.execute(query.order_by(t.agents.c.name)).all()
        return [agent_from_row(row) for row in rows]

    def update_agent(
        self,
        name_or_id: AgentRef,
        *,
        name: str | None = None,
        claimed_domains: Sequence[str] | None = None,
        tools: Sequence[str] | None = None,
        description: str | None = None,
        metadata: Mapping[str, object] | None = None,
    ) -> Agent:
        """Change the given fields (None leaves a field as it is); a taken name is ``CONFLICT``."""
        values: dict[str, object] = {}
        if name is not None:
            name = check_agent_name(name)
            values["name"] = name
        if claimed_domains is not None:
            values["claimed_domains"] = list(claimed_domains)
        if tools is not None:
            values["tools"] = list(tools)
        if description is not None:
            values["description"] = description
        if metadata is not None:
            values["metadata"] = dict(metadata)
        try:
            with self._writing() as connection:
                row = self._require_agent(connection, name_or_id)
                if name is not None and name != row.name and self._agent_row(connection, name) is not None:
                    raise self._name_taken(name)
                if values:
                    values["updated_at"] = self._clock()
                    connection.execute(update(t.agents).where(t.agents.c.id == row.id).values(**values))
        except IntegrityError as error:
            raise self._name_taken(str(name)) from error
        return self.get_agent(row.id)

    def set_agent_status(self, name_or_id: AgentRef, status: str) -> Agent:
        """enrolled | active | suspended | archived (document 004 §7.2)."""
        check_one_of("status", status, t.AGENT_STATUSES)
        with self._writing() as connection:
            row = self._require_agent(connection, name_or_id)
            connection.execute(
                update(t.agents)
                .where(t.agents.c.id == row.id)
                .values(status=status, updated_at=self._clock())
            )
        return self.get_agent(row.id)
