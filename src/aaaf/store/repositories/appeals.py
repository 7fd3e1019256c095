"""Appeals against assessments (document 004 §5.4; SCORING.md §2.4).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`AssessmentRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, insert, select, update

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.records import (
    Appeal,
)
from aaaf.store.repositories.assessments import OPEN_APPEAL_STATUSES, AssessmentRepository, appeal_from_row
from aaaf.store.repositories.base import as_uuid, check_one_of, not_found


class AppealRepository(AssessmentRepository):
    """Appeals against assessments (document 004 §5.4; SCORING.md §2.4)."""

    def file_appeal(
        self,
        assessment_id: uuid.UUID,
        *,
        dimensions: Sequence[str],
        justification: str,
        counter_evidence: Sequence[Mapping[str, object]],
        filed_at: datetime,
    ) -> Appeal:
        """Record an appeal (status ``filed``); the rules of §2.4 are the service's job, but for
        one the store enforces because it is a race: an assessment has at most one *open*
        appeal (``filed`` or ``under_review``) — a second is ``APPEAL_NOT_ALLOWED`` (SCORING.md
        §7).  The assessment row is locked first (``FOR UPDATE`` on PostgreSQL; SQLite's
        ``BEGIN IMMEDIATE`` already serialises writers), so two concurrent filings cannot both pass.
        """
        appeal_id = uuid.uuid4()
        with self._writing() as connection:
            row = self._assessment_row(connection, assessment_id)
            connection.execute(
                select(t.assessments.c.id).where(t.assessments.c.id == row.id).with_for_update()
            )
            open_appeal = connection.execute(
                select(t.appeals.c.id, t.appeals.c.status)
                .where(t.appeals.c.assessment_id == row.id, t.appeals.c.status.in_(OPEN_APPEAL_STATUSES))
                .order_by(t.appeals.c.filed_at, t.appeals.c.id)
                .limit(1)
            ).one_or_none()
            if open_appeal is not None:
                raise AAAFError(
                    "APPEAL_NOT_ALLOWED",
                    f"appeal already open: {open_appeal.id} ({open_appeal.status}) on assessment {row.id}; "
                    "it must be resolved before another appeal is filed",
                    {
                        "assessment_id": str(row.id),
                        "open_appeal_id": str(open_appeal.id),
                        "open_appeal_status": open_appeal.status,
                    },
                )
            connection.execute(
                insert(t.appeals).values(
                    id=appeal_id,
                    assessment_id=row.id,
                    dimensions_challenged=list(dimensions),
                    justification=justification,
                    counter_evidence=[dict(item) for item in counter_evidence],
                    status="filed",
                    filed_at=filed_at,
                )
            )
        return self.get_appeal(appeal_id)

    def _organization_appeals(self) -> Select[Any]:
        """The organization's appeals: joined through their assessment to its agent, whose
        organization is the tenant boundary (appeals carry no organization of their own)."""
        return (
            select(t.appeals)
            .join(t.assessments, t.assessments.c.id == t.appeals.c.assessment_id)
            .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
            .where(t.agents.c.organization_id == self.organization_id)
        )

    def _appeal_row(self, connection: Connection, appeal_id: uuid.UUID | str) -> Row[Any]:
        wanted = as_uuid(appeal_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                self._organization_appeals().where(t.appeals.c.id == wanted)
            ).one_or_none()
        if row is None:
            raise not_found("Appeal", appeal_id)
        return row

    def get_appeal(self, appeal_id: uuid.UUID | str) -> Appeal:
        with self._reading() as connection:
            return appeal_from_row(self._appeal_row(connection, appeal_id))

    def appeals(self, assessment_id: uuid.UUID) -> list[Appeal]:
        """Appeals of one assessment, oldest first."""
        with self._reading() as connection:
            row = self._assessment_row(connection, assessment_id)
            return [
                appeal_from_row(appeal)
                for appeal in connection.execute(
                    select(t.appeals)
                    .where(t.appeals.c.assessment_id == row.id)
                    .order_by(t.appeals.c.filed_at, t.appeals.c.id)
                )
            ]

    def appeals_decided_between(self, agent_id: uuid.UUID, after: datetime, until: datetime) -> list[Appeal]:
        """Appeals of the agent's assessments completed by ``until`` that were decided in
        (``after``, ``until``], by resolution time — in one query (what changed between two
        assessments, SCORING.md §2.4; was one query per assessment)."""
        with self._reading() as connection:
            return [
                appeal_from_row(appeal)
                for appeal in connection.execute(
                    self._organization_appeals()
                    .where(
                        t.assessments.c.agent_id == agent_id,
                        t.assessments.c.completed_at.is_not(None),
                        t.assessments.c.completed_at <= until,
                        t.appeals.c.resolved_at.is_not(None),
                        t.appeals.c.resolved_at > after,
                        t.appeals.c.resolved_at <= until,
                    )
                    .order_by(t.appeals.c.resolved_at, t.appeals.c.filed_at, t.appeals.c.id)
                )
            ]

    def open_appeals(self) -> list[tuple[Appeal, uuid.UUID, str]]:
        """The organization's appeals not yet resolved (filed or under review), oldest first,
        each with its agent's id and name (the dashboard's overview, issue 17 §2) — in one
        query, not a read of each appealed assessment."""
        # the open appeals picked out first, in a subquery OFFSET 0 keeps from being merged into
        # the joins: otherwise SQLite walks every agent and assessment of the organization
        # (20-65 ms for 10 000 agents) to find the few appeals
        ap = select(t.appeals).where(t.appeals.c.status.in_(OPEN_APPEAL_STATUSES)).offset(0).subquery("open")
        query = (
            select(ap, t.agents.c.id.label("appealed_agent_id"), t.agents.c.name.label("appealed_agent_name"))
            .join(t.assessments, t.assessments.c.id == ap.c.assessment_id)
            .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
            .where(t.agents.c.organization_id == self.organization_id)
            .order_by(ap.c.filed_at, ap.c.id)
        )
        with self._reading() as connection:
            return [
                (appeal_from_row(row), row.appealed_agent_id, row.appealed_agent_name)
                for row in connection.execute(query)
            ]

    def resolve_appeal(
        self,
        appeal_id: uuid.UUID,
        *,
        status: str,
        reviewer_notes: str | None,
        resolution: Mapping[str, object] | None,
        resolved_at: datetime | None,
    ) -> Appeal:
        """Move an appeal to under_review, accepted or rejected; a decided appeal is ``CONFLICT``."""
        check_one_of("status", status, ("under_review", "accepted", "rejected"))
        with self._writing() as connection:
            row = self._appeal_row(connection, appeal_id)
            if row.status in ("accepted", "rejected"):
                raise AAAFError(
                    "CONFLICT",
                    f"Appeal {row.id} was already {row.status}.",
                    {"appeal_id": str(row.id), "status": row.status},
                )
            connection.execute(
                update(t.appeals)
                .where(t.appeals.c.id == row.id)
                .values(
                    status=status,
                    reviewer_notes=reviewer_notes,
                    resolution=None if resolution is None else dict(resolution),
                    resolved_at=resolved_at,
                )
            )
            return appeal_from_row(self._appeal_row(connection, row.id))
