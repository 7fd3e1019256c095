"""The shared shape of an organization's credential tables (SCORING.md §7 "Admin and keys").

API keys and OAuth clients are stored the same way: a row per credential holding only the
SHA-256 of its secret, its scopes, its creation and revocation times.  A revoked credential
stays on the record and never authenticates again; revoking twice keeps the first time.
:class:`CredentialTable` is that table's repository once; :mod:`aaaf.store.api_keys` and
:mod:`aaaf.store.oauth_clients` name their table, record type and lookup column.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from sqlalchemy import Engine, Table, insert, select, update

from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.org_store import not_found
from aaaf.store.row_mapping import record_from_row

R = TypeVar("R")


class CredentialTable(Generic[R]):
    """A credential table; every method but :meth:`_by_column` is scoped by organization."""

    table: ClassVar[Table]
    record: ClassVar[type[Any]]
    noun: ClassVar[str]  # what NOT_FOUND names ("API key", "OAuth client")

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def _insert(self, organization_id: uuid.UUID, *, at: datetime, **values: Any) -> R:
        row_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            connection.execute(
                insert(self.table).values(id=row_id, organization_id=organization_id, created_at=at, **values)
            )
            row = connection.execute(select(self.table).where(self.table.c.id == row_id)).one()
        return self._record(row)

    def _record(self, row: Any) -> R:
        return record_from_row(self.record, row)  # type: ignore[no-any-return]

    def of_organization(
        self,
        organization_id: uuid.UUID,
        *,
        include_revoked: bool = True,
        after: tuple[datetime, uuid.UUID] | None = None,
        limit: int | None = None,
    ) -> list[R]:
        """The organization's credentials, oldest first (a keyset page: after ``(created_at, id)``)."""
        c = self.table.c
        query = select(self.table).where(c.organization_id == organization_id)
        if not include_revoked:
            query = query.where(c.revoked_at.is_(None))
        if after is not None:
            query = query.where((c.created_at > after[0]) | ((c.created_at == after[0]) & (c.id > after[1])))
        query = query.order_by(c.created_at, c.id)
        if limit is not None:
            query = query.limit(limit)
        with read_connection(self._engine) as connection:
            rows = connection.execute(query).all()
        return [self._record(row) for row in rows]

    def get(self, organization_id: uuid.UUID, row_id: uuid.UUID) -> R:
        """One credential of this organization (``NOT_FOUND`` otherwise)."""
        c = self.table.c
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(self.table).where((c.id == row_id) & (c.organization_id == organization_id))
            ).one_or_none()
        if row is None:
            raise not_found(self.noun, row_id)
        return self._record(row)

    def revoke(self, organization_id: uuid.UUID, row_id: uuid.UUID, *, at: datetime) -> R:
        """Revoke a credential of this organization (``NOT_FOUND`` otherwise); revoking twice
        keeps the first revocation time."""
        c = self.table.c
        mine = (c.id == row_id) & (c.organization_id == organization_id)
        with write_transaction(self._engine) as connection:
            row = connection.execute(select(self.table).where(mine)).one_or_none()
            if row is None:
                raise not_found(self.noun, row_id)
            if row.revoked_at is None:
                connection.execute(update(self.table).where(mine).values(revoked_at=at))
            row = connection.execute(select(self.table).where(mine)).one()
        return self._record(row)

    def _by_column(self, column: str, value: str) -> R | None:
        """The credential whose ``column`` holds ``value``, revoked or not (the caller decides)."""
        with read_connection(self._engine) as connection:
            row = connection.execute(select(self.table).where(self.table.c[column] == value)).one_or_none()
        return None if row is None else self._record(row)
