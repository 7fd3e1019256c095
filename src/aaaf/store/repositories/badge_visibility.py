"""A badge's visibility, public or private (issue 13 §1; SCORING.md §7 "Public routes").

Visibility belongs to the assessment's badge as a whole (every credential it is issued
under, a re-issue after an appeal included).  Without a row a badge is public.  A private
badge's public verification says only whether it is valid, and its pictures, JSON and JWT
are served only to a key of its organization (:mod:`aaaf.api.routes.badges`).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Engine, select

from aaaf.store import tables as t
from aaaf.store.engine import read_connection
from aaaf.store.repositories.base import OrgScoped, as_uuid, check_one_of, not_found

VISIBILITIES = ("public", "private")


class BadgeVisibilityRepository(OrgScoped):
    """The organization's badges' visibility."""

    def _own_assessment(self, assessment_id: uuid.UUID | str) -> uuid.UUID:
        wanted = as_uuid(assessment_id)
        with self._reading() as connection:
            found: uuid.UUID | None = connection.execute(
                select(t.assessments.c.id)
                .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
                .where(t.assessments.c.id == wanted, t.agents.c.organization_id == self.organization_id)
            ).scalar_one_or_none()
        if wanted is None or found is None:
            raise not_found("Assessment", assessment_id)
        return found

    def badge_visibility(self, assessment_id: uuid.UUID | str) -> str:
        """``public`` or ``private`` (``NOT_FOUND`` for another organization's assessment)."""
        own = self._own_assessment(assessment_id)
        with self._reading() as connection:
            stored = connection.execute(
                select(t.badge_visibility.c.visibility).where(t.badge_visibility.c.assessment_id == own)
            ).scalar_one_or_none()
        return stored or "public"

    def set_badge_visibility(self, assessment_id: uuid.UUID | str, visibility: str, *, at: datetime) -> str:
        """Make the assessment's badge public or private (``INVALID_REQUEST`` for anything else)."""
        check_one_of("visibility", visibility, VISIBILITIES)
        own = self._own_assessment(assessment_id)
        c = t.badge_visibility.c
        with self._writing() as connection:
            exists = connection.execute(select(c.assessment_id).where(c.assessment_id == own)).first()
            if exists is None:
                connection.execute(
                    t.badge_visibility.insert().values(
                        assessment_id=own,
                        organization_id=self.organization_id,
                        visibility=visibility,
                        changed_at=at,
                    )
                )
            else:
                connection.execute(
                    t.badge_visibility.update()
                    .where(c.assessment_id == own)
                    .values(visibility=visibility, changed_at=at)
                )
        return visibility


def public_badge_visibility(engine: Engine, assessment_id: uuid.UUID | str) -> tuple[str, uuid.UUID | None]:
    """A badge's visibility and its organization, for the public routes (which do not know the
    organization): ``("public", None)`` when no row says otherwise."""
    wanted = as_uuid(assessment_id)
    if wanted is None:
        return "public", None
    with read_connection(engine) as connection:
        row = connection.execute(
            select(t.badge_visibility.c.visibility, t.badge_visibility.c.organization_id).where(
                t.badge_visibility.c.assessment_id == wanted
            )
        ).one_or_none()
    return ("public", None) if row is None else (row.visibility, row.organization_id)
