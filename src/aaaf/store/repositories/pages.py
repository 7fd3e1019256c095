"""Pages of an organization's lists, read in SQL (SCORING.md §7 "Shapes"; issue 13 §5).

Every list of the API pages by keyset: the query asks for the rows after the last one
returned (by the list's order: agents by name, events by ``(timestamp, id)``, assessments
newest first by ``(created_at, id)``, appeals by ``(filed_at, id)``) with ``LIMIT n``, so a
page costs the same whatever its position and whatever the list's length, and rows added
meanwhile do not shift later pages.  Callers ask for one row more than the page to learn
whether there is a next one.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select

from aaaf.scoring.records import EventRecord
from aaaf.store import tables as t
from aaaf.store.records import Agent, Appeal, Assessment
from aaaf.store.repositories.agents import agent_from_row
from aaaf.store.repositories.assessments import appeal_from_row, assessment_from_row
from aaaf.store.repositories.base import OrgScoped, not_found


def _after(
    first: ColumnElement[Any],
    second: ColumnElement[Any],
    values: tuple[datetime, uuid.UUID],
    *,
    descending: bool = False,
) -> ColumnElement[bool]:
    """``(first, second) > values`` (or ``<``) spelt out, which both dialects plan as a range scan."""
    first_value, second_value = values
    if descending:
        return or_(first < first_value, and_(first == first_value, second < second_value))
    return or_(first > first_value, and_(first == first_value, second > second_value))


class PageRepository(OrgScoped):
    """Keyset pages of the organization's agents, events, assessments and appeals."""

    def agents_page(
        self, *, status: str | None, include_archived: bool, after_name: str | None, limit: int
    ) -> list[Agent]:
        """Agents by name after ``after_name``; archived ones only when asked for."""
        c = t.agents.c
        query = select(t.agents).where(c.organization_id == self.organization_id)
        if status is not None:
            query = query.where(c.status == status)
        elif not include_archived:
            query = query.where(c.status != "archived")
        if after_name is not None:
            query = query.where(c.name > after_name)
        with self._reading() as connection:
            rows = connection.execute(query.order_by(c.name).limit(limit)).all()
        return [agent_from_row(row) for row in rows]

    def events_page(
        self,
        agent_id: uuid.UUID,
        *,
        types: Sequence[str] | None,
        since: datetime | None,
        until: datetime | None,
        after: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[EventRecord]:
        """One agent's events in ``(timestamp, id)`` order after ``after`` (bounds inclusive)."""
        c = t.events.c
        query = select(c.id, c.agent_id, c.type, c.timestamp, c.data, c.task_id, c.idempotency_key).where(
            c.agent_id == agent_id
        )
        if types is not None:
            query = query.where(c.type.in_(list(types)))
        if since is not None:
            query = query.where(c.timestamp >= since)
        if until is not None:
            query = query.where(c.timestamp <= until)
        if after is not None:
            query = query.where(_after(c.timestamp, c.id, after))
        with self._reading() as connection:
            owner = connection.execute(
                select(t.agents.c.id).where(
                    t.agents.c.id == agent_id, t.agents.c.organization_id == self.organization_id
                )
            ).scalar_one_or_none()
            if owner is None:
                raise not_found("Agent", agent_id)
            rows = connection.execute(query.order_by(c.timestamp, c.id).limit(limit)).all()
        return [
            EventRecord(
                str(row.id),
                str(row.agent_id),
                row.type,
                row.timestamp,
                row.data,
                row.task_id,
                row.idempotency_key,
            )
            for row in rows
        ]

    def assessments_page(
        self,
        *,
        agent_id: uuid.UUID | None,
        status: str | None,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[Assessment]:
        """Assessments newest first (``(created_at, id)`` descending) before ``before``
        (without dimensions and appeals, as :meth:`assessments`)."""
        c = t.assessments.c
        query = (
            select(
                t.assessments,
                t.agents.c.name.label("agent_name"),
                t.agents.c.organization_id.label("organization_id"),
            )
            .join(t.agents, t.agents.c.id == c.agent_id)
            .where(t.agents.c.organization_id == self.organization_id)
        )
        if agent_id is not None:
            query = query.where(c.agent_id == agent_id)
        if status is not None:
            query = query.where(c.status == status)
        if before is not None:
            query = query.where(_after(c.created_at, c.id, before, descending=True))
        with self._reading() as connection:
            rows = connection.execute(query.order_by(c.created_at.desc(), c.id.desc()).limit(limit)).all()
        return [assessment_from_row(row) for row in rows]

    def appeals_page(
        self, assessment_id: uuid.UUID, *, after: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> list[Appeal]:
        """An assessment's appeals, oldest first, after ``after`` (``NOT_FOUND`` for another
        organization's assessment)."""
        c = t.appeals.c
        query = select(t.appeals).where(c.assessment_id == assessment_id)
        if after is not None:
            query = query.where(_after(c.filed_at, c.id, after))
        with self._reading() as connection:
            owner = connection.execute(
                select(t.assessments.c.id)
                .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
                .where(
                    t.assessments.c.id == assessment_id, t.agents.c.organization_id == self.organization_id
                )
            ).scalar_one_or_none()
            if owner is None:
                raise not_found("Assessment", assessment_id)
            rows = connection.execute(query.order_by(c.filed_at, c.id).limit(limit)).all()
        return [appeal_from_row(row) for row in rows]
