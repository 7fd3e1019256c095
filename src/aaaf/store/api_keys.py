"""An organization's API keys (SCORING.md §7 "Admin and keys"): rows hold only a hash.

The key itself (``ak_`` + 43 URL-safe characters, 256 random bits) is shown once, when it
is created; the store keeps its SHA-256 (a key this long needs no slow hash: there is
nothing to guess), a display prefix (``ak_`` + 8 characters) and its scopes.  A revoked
key stays on the record with its revocation time and never authenticates again.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Row, insert, select, update

from aaaf.scoring.results import iso
from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.org_store import not_found
from aaaf.store.row_mapping import record_from_row


@dataclass(frozen=True)
class ApiKey:
    """A stored key: never the key itself, never its hash in ``to_dict``."""

    id: uuid.UUID
    organization_id: uuid.UUID
    name: str | None
    prefix: str
    scopes: tuple[str, ...]
    created_at: datetime
    revoked_at: datetime | None
    last_used_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": str(self.organization_id),
            "name": self.name,
            "prefix": self.prefix,
            "scopes": list(self.scopes),
            "created_at": iso(self.created_at),
            "revoked_at": None if self.revoked_at is None else iso(self.revoked_at),
            "last_used_at": None if self.last_used_at is None else iso(self.last_used_at),
        }


def _key_from_row(row: Row[Any]) -> ApiKey:
    return record_from_row(ApiKey, row)


class ApiKeys:
    """The ``api_keys`` table; every method but :meth:`by_hash` is scoped by organization."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def add(
        self,
        organization_id: uuid.UUID,
        *,
        key_hash: str,
        prefix: str,
        scopes: Sequence[str],
        name: str | None,
        at: datetime,
    ) -> ApiKey:
        key_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            connection.execute(
                insert(t.api_keys).values(
                    id=key_id,
                    organization_id=organization_id,
                    name=name,
                    prefix=prefix,
                    key_hash=key_hash,
                    scopes=list(scopes),
                    created_at=at,
                )
            )
            row = connection.execute(select(t.api_keys).where(t.api_keys.c.id == key_id)).one()
        return _key_from_row(row)

    def of_organization(
        self,
        organization_id: uuid.UUID,
        *,
        include_revoked: bool = True,
        after: tuple[datetime, uuid.UUID] | None = None,
        limit: int | None = None,
    ) -> list[ApiKey]:
        """The organization's keys, oldest first (a keyset page: after ``(created_at, id)``)."""
        c = t.api_keys.c
        query = select(t.api_keys).where(c.organization_id == organization_id)
        if not include_revoked:
            query = query.where(c.revoked_at.is_(None))
        if after is not None:
            query = query.where((c.created_at > after[0]) | ((c.created_at == after[0]) & (c.id > after[1])))
        query = query.order_by(c.created_at, c.id)
        if limit is not None:
            query = query.limit(limit)
        with read_connection(self._engine) as connection:
            rows = connection.execute(query).all()
        return [_key_from_row(row) for row in rows]

    def revoke(self, organization_id: uuid.UUID, key_id: uuid.UUID, *, at: datetime) -> ApiKey:
        """Revoke a key of this organization (``NOT_FOUND`` otherwise); revoking twice keeps
        the first revocation time."""
        mine = (t.api_keys.c.id == key_id) & (t.api_keys.c.organization_id == organization_id)
        with write_transaction(self._engine) as connection:
            row = connection.execute(select(t.api_keys).where(mine)).one_or_none()
            if row is None:
                raise not_found("API key", key_id)
            if row.revoked_at is None:
                connection.execute(update(t.api_keys).where(mine).values(revoked_at=at))
            row = connection.execute(select(t.api_keys).where(mine)).one()
        return _key_from_row(row)

    def by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash, revoked or not (authentication decides what that means)."""
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(t.api_keys).where(t.api_keys.c.key_hash == key_hash)
            ).one_or_none()
        return None if row is None else _key_from_row(row)

    def touch(self, key_id: uuid.UUID, *, at: datetime) -> None:
        """Record the key's last use."""
        with write_transaction(self._engine) as connection:
            connection.execute(update(t.api_keys).where(t.api_keys.c.id == key_id).values(last_used_at=at))
