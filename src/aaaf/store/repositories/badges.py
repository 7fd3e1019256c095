"""Issued credentials, one row each, with their status-list bits (SCORING.md §2.4).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`AppealRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.records import (
    Assessment,
    Badge,
    BadgeSlot,
    SignedCredential,
)
from aaaf.store.repositories.appeals import AppealRepository
from aaaf.store.repositories.base import as_uuid, not_found
from aaaf.store.row_mapping import record_from_row
from aaaf.store.summary_writes import refresh_badge_standing

_STATUS_INDEX_ATTEMPTS = 5


def badge_from_row(row: Row[Any]) -> Badge:
    return record_from_row(Badge, row)


class BadgeRepository(AppealRepository):
    """Issued credentials, one row each, with their status-list bits (SCORING.md §2.4)."""

    # One row per issued credential (migration 0003): an assessment has at most one current
    # credential; a superseded one keeps its status-list bit, set.

    def _badge_rows_of(self, assessment_id: uuid.UUID | str) -> Select[Any]:
        wanted = as_uuid(assessment_id)
        return select(t.badges).where(
            t.badges.c.assessment_id == wanted, t.badges.c.organization_id == self.organization_id
        )

    def _badge_row(self, connection: Connection, assessment_id: uuid.UUID | str) -> Row[Any] | None:
        """The assessment's latest credential: the current one, else the last superseded one.

        Bits are allocated in increasing order and a new credential is only inserted after
        its predecessor is superseded, so the latest credential is the highest index.
        """
        if as_uuid(assessment_id) is None:
            return None
        return connection.execute(
            self._badge_rows_of(assessment_id).order_by(t.badges.c.status_index.desc()).limit(1)
        ).one_or_none()

    def _current_badge_row(self, connection: Connection, assessment_id: uuid.UUID) -> Row[Any] | None:
        return connection.execute(
            self._badge_rows_of(assessment_id).where(t.badges.c.superseded_at.is_(None))
        ).one_or_none()

    def issue_badge(
        self,
        assessment_id: uuid.UUID,
        agent_id: uuid.UUID,
        *,
        sign: Callable[[BadgeSlot], SignedCredential],
        valid_until: datetime,
        issued_at: datetime,
        supersede_reason: str | None = None,
        assessment: Assessment | None = None,
        credentials: Sequence[Badge] | None = None,
    ) -> Badge:
        """Record a new credential of the assessment, complete, in ONE write transaction.

        Inside the transaction the organization's next free ``status_index`` (its bit in the
        Bitstring status list, never reused) and the row id are reserved, ``sign`` builds
        and signs the credential naming them, and the row is inserted with its JWT — a
        crash anywhere leaves no row at all.  Concurrent issues that pick the same index
        retry, each attempt in a transaction of its own (a savepoint of the unit of work's
        when bound to one; ``sign`` is called again with the new slot).

        When the assessment already has a current credential: with ``supersede_reason``
        it is superseded in the same transaction (bit set, reason recorded, see
        :meth:`supersede_badge`); without, ``CONFLICT``.

        ``assessment``: the assessment as the caller read it from this organization (the badge
        service has), so that it is not read again here; else it is read in the transaction.
        ``credentials``: the assessment's credentials as the caller read them
        (:meth:`badge_credentials`), so that the current one is not read again while it is
        still as read (:meth:`_supersede_as_seen`); else, or when it changed, it is read here.
        """
        for attempt in range(_STATUS_INDEX_ATTEMPTS):
            try:
                # each attempt in a transaction of its own (a savepoint in a unit of work):
                # an index taken meanwhile rolls the attempt back, supersession included, and
                # the next reads the index again.  No savepoint inside it: two round trips a
                # badge fewer (SAVEPOINT, RELEASE; 40 on the bench fleet: 80 of 558).
                with self._writing() as connection:
                    return self._issue_in(
                        connection,
                        assessment_id,
                        agent_id,
                        sign=sign,
                        valid_until=valid_until,
                        issued_at=issued_at,
                        supersede_reason=supersede_reason,
                        assessment=assessment,
                        seen=credentials if attempt == 0 else None,
                    )
            except IntegrityError:
                if attempt == _STATUS_INDEX_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _issue_in(
        self,
        connection: Connection,
        assessment_id: uuid.UUID,
        agent_id: uuid.UUID,
        *,
        sign: Callable[[BadgeSlot], SignedCredential],
        valid_until: datetime,
        issued_at: datetime,
        supersede_reason: str | None,
        assessment: Assessment | None,
        seen: Sequence[Badge] | None,
    ) -> Badge:
        """One attempt of :meth:`issue_badge` in ``connection``'s transaction."""
        of: Assessment | Row[Any] = (
            self._assessment_row(connection, assessment_id)
            if assessment is None
            or (as_uuid(assessment_id), self.organization_id) != (assessment.id, assessment.organization_id)
            else assessment
        )
        if as_uuid(agent_id) != of.agent_id:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Assessment {of.id} is not of agent {agent_id}.",
                {"assessment_id": str(of.id), "agent_id": str(agent_id)},
            )
        row = self._insert_signed_badge(
            connection,
            of.id,
            of.agent_id,
            sign=sign,
            valid_until=valid_until,
            issued_at=issued_at,
            supersede_reason=supersede_reason,
            seen=seen,
        )
        refresh_badge_standing(connection, [of.id])
        return badge_from_row(row)

    def _insert_signed_badge(
        self,
        connection: Connection,
        assessment_id: uuid.UUID,
        agent_id: uuid.UUID,
        *,
        sign: Callable[[BadgeSlot], SignedCredential],
        valid_until: datetime,
        issued_at: datetime,
        supersede_reason: str | None,
        seen: Sequence[Badge] | None = None,
    ) -> Row[Any]:
        """The new credential's row, as inserted (``RETURNING``: not read again)."""
        as_seen = self._supersede_as_seen(
            connection, assessment_id, seen, reason=supersede_reason, at=issued_at
        )
        current = None if as_seen else self._current_badge_row(connection, assessment_id)
        if current is not None:
            if supersede_reason is None:
                raise AAAFError(
                    "CONFLICT",
                    f"Assessment {assessment_id} already has a current badge (status bit {current.status_index}).",
                    {"assessment_id": str(assessment_id), "badge_id": str(current.id)},
                )
            self._supersede(connection, current, reason=supersede_reason, at=issued_at)
        next_index = connection.execute(
            select(func.coalesce(func.max(t.badges.c.status_index) + 1, 0)).where(
                t.badges.c.organization_id == self.organization_id
            )
        ).scalar_one()
        slot = BadgeSlot(badge_id=uuid.uuid4(), status_index=int(next_index))
        signed = sign(slot)
        if not signed.credential_jwt:
            raise AAAFError("INVALID_REQUEST", "A badge is recorded only with its signed credential.")
        return connection.execute(
            insert(t.badges)
            .values(
                id=slot.badge_id,
                assessment_id=assessment_id,
                agent_id=agent_id,
                organization_id=self.organization_id,
                status_index=slot.status_index,
                svg_url=signed.svg_url,
                png_url=signed.png_url,
                json_data=dict(signed.json_data),
                credential_jwt=signed.credential_jwt,
                issued_at=issued_at,
                valid_until=valid_until,
                revoked=False,
            )
            .returning(*t.badges.c)
        ).one()

    @staticmethod
    def _supersede(
        connection: Connection, row: Row[Any] | Badge, *, reason: str, at: datetime, as_read: bool = False
    ) -> int:
        """Supersede ``row`` (``as_read``: only if it is still current and as revoked as it was
        read); the number of rows changed."""
        values: dict[str, object] = {"superseded_at": at}
        if not row.revoked:  # an earlier revocation keeps its own record
            values.update(revoked=True, revoked_at=at, revoke_reason=reason)
        b = t.badges.c
        which = update(t.badges).where(b.id == row.id)
        if as_read:
            which = which.where(b.superseded_at.is_(None), b.revoked == bool(row.revoked))
        return connection.execute(which.values(**values)).rowcount

    def _supersede_as_seen(
        self,
        connection: Connection,
        assessment_id: uuid.UUID,
        seen: Sequence[Badge] | None,
        *,
        reason: str | None,
        at: datetime,
    ) -> bool:
        """Whether the credentials the caller read (``seen``) still hold, so that the current
        one need not be read again: none was current — one inserted since makes the insert
        fail on ``uq_badges_one_current``, and the retry reads — or the current one is
        superseded here, still current and as revoked as read.  False: read it."""
        if seen is None:
            return False
        expected = next((b for b in seen if b.current and b.assessment_id == assessment_id), None)
        if expected is None:
            return True
        if reason is None:  # refused (CONFLICT) on the current one read
            return False
        return self._supersede(connection, expected, reason=reason, at=at, as_read=True) == 1

    def supersede_badge(self, assessment_id: uuid.UUID | str, *, reason: str, at: datetime) -> Badge | None:
        """Retire the assessment's current credential: its scores are no longer the assessment's.

        The row stays, with its bit set (``revoked``, ``revoked_at``, ``revoke_reason`` =
        ``reason``, e.g. "superseded: appeal <id> accepted") and ``superseded_at``, so the
        credential already handed out verifies as revoked and says why; a new credential
        can then be issued with a fresh bit.  None when there is no current credential.
        """
        with self._writing() as connection:
            assessment = self._assessment_row(connection, assessment_id)
            current = self._current_badge_row(connection, assessment.id)
            if current is None:
                return None
            self._supersede(connection, current, reason=reason, at=at)
            refresh_badge_standing(connection, [assessment.id])
            row = connection.execute(select(t.badges).where(t.badges.c.id == current.id)).one()
            return badge_from_row(row)

    def get_badge(self, assessment_id: uuid.UUID | str) -> Badge:
        """The assessment's latest credential (current, else the last superseded one), or ``NOT_FOUND``."""
        with self._reading() as connection:
            row = self._badge_row(connection, assessment_id)
        if row is None:
            raise not_found("Badge", assessment_id)
        return badge_from_row(row)

    def current_badge(self, assessment_id: uuid.UUID | str) -> Badge | None:
        """The assessment's current (not superseded) credential, or None."""
        if as_uuid(assessment_id) is None:
            return None
        with self._reading() as connection:
            row = connection.execute(
                self._badge_rows_of(assessment_id).where(t.badges.c.superseded_at.is_(None))
            ).one_or_none()
        return None if row is None else badge_from_row(row)

    def badge_credentials(self, assessment_id: uuid.UUID | str) -> list[Badge]:
        """Every credential issued for the assessment, oldest first."""
        if as_uuid(assessment_id) is None:
            return []
        with self._reading() as connection:
            rows = connection.execute(
                self._badge_rows_of(assessment_id).order_by(t.badges.c.status_index)
            ).all()
        return [badge_from_row(row) for row in rows]

    def badges(self, *, agent_id: uuid.UUID | None = None, current_only: bool = False) -> list[Badge]:
        """Every credential (superseded ones included unless ``current_only``), by status index."""
        query = select(t.badges).where(t.badges.c.organization_id == self.organization_id)
        if agent_id is not None:
            query = query.where(t.badges.c.agent_id == agent_id)
        if current_only:
            query = query.where(t.badges.c.superseded_at.is_(None))
        with self._reading() as connection:
            rows = connection.execute(query.order_by(t.badges.c.status_index)).all()
        return [badge_from_row(row) for row in rows]

    def revoke_badge(self, assessment_id: uuid.UUID, *, reason: str, at: datetime) -> Badge:
        """Revoke the assessment's latest credential (kept, never deleted).

        Revoking twice keeps the first record; a superseded credential is already revoked.
        """
        with self._writing() as connection:
            row = self._badge_row(connection, assessment_id)
            if row is None:
                raise not_found("Badge", assessment_id)
            if not row.revoked:
                connection.execute(
                    update(t.badges)
                    .where(t.badges.c.id == row.id)
                    .values(revoked=True, revoked_at=at, revoke_reason=reason)
                )
                refresh_badge_standing(connection, [row.assessment_id])
            row = connection.execute(select(t.badges).where(t.badges.c.id == row.id)).one()
            return badge_from_row(row)
