"""An organization's OAuth 2.0 clients (client-credentials grant, RFC 6749 §4.4; issue 13 §3).

A client is a ``client_id`` (``oc_`` + 22 URL-safe characters, public) and a secret
(``ocs_`` + 43 URL-safe characters, 256 random bits) shown once at creation and stored only
as its SHA-256, with the scopes the tokens it obtains may hold.  A revoked client stays on
the record with its revocation time; neither its secret nor the tokens it was issued are
accepted afterwards.
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
class OAuthClient:
    """A stored client: never its secret, never the secret's hash in ``to_dict``."""

    id: uuid.UUID
    organization_id: uuid.UUID
    client_id: str
    secret_hash: str
    name: str | None
    scopes: tuple[str, ...]
    created_at: datetime
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "organization_id": str(self.organization_id),
            "client_id": self.client_id,
            "name": self.name,
            "scopes": list(self.scopes),
            "created_at": iso(self.created_at),
            "revoked_at": None if self.revoked_at is None else iso(self.revoked_at),
        }


def _client_from_row(row: Row[Any]) -> OAuthClient:
    return record_from_row(OAuthClient, row)


class OAuthClients:
    """The ``oauth_clients`` table; every method but :meth:`by_client_id` is scoped by organization."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def add(
        self,
        organization_id: uuid.UUID,
        *,
        client_id: str,
        secret_hash: str,
        scopes: Sequence[str],
        name: str | None,
        at: datetime,
    ) -> OAuthClient:
        row_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            connection.execute(
                insert(t.oauth_clients).values(
                    id=row_id,
                    organization_id=organization_id,
                    client_id=client_id,
                    secret_hash=secret_hash,
                    name=name,
                    scopes=list(scopes),
                    created_at=at,
                )
            )
            row = connection.execute(select(t.oauth_clients).where(t.oauth_clients.c.id == row_id)).one()
        return _client_from_row(row)

    def of_organization(
        self,
        organization_id: uuid.UUID,
        *,
        after: tuple[datetime, uuid.UUID] | None = None,
        limit: int | None = None,
    ) -> list[OAuthClient]:
        """The organization's clients, oldest first (keyset page: after ``(created_at, id)``)."""
        c = t.oauth_clients.c
        query = select(t.oauth_clients).where(c.organization_id == organization_id)
        if after is not None:
            query = query.where((c.created_at > after[0]) | ((c.created_at == after[0]) & (c.id > after[1])))
        query = query.order_by(c.created_at, c.id)
        if limit is not None:
            query = query.limit(limit)
        with read_connection(self._engine) as connection:
            rows = connection.execute(query).all()
        return [_client_from_row(row) for row in rows]

    def get(self, organization_id: uuid.UUID, row_id: uuid.UUID) -> OAuthClient:
        c = t.oauth_clients.c
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(t.oauth_clients).where((c.id == row_id) & (c.organization_id == organization_id))
            ).one_or_none()
        if row is None:
            raise not_found("OAuth client", row_id)
        return _client_from_row(row)

    def revoke(self, organization_id: uuid.UUID, row_id: uuid.UUID, *, at: datetime) -> OAuthClient:
        """Revoke a client of this organization (``NOT_FOUND`` otherwise); revoking twice keeps
        the first revocation time."""
        c = t.oauth_clients.c
        mine = (c.id == row_id) & (c.organization_id == organization_id)
        with write_transaction(self._engine) as connection:
            row = connection.execute(select(t.oauth_clients).where(mine)).one_or_none()
            if row is None:
                raise not_found("OAuth client", row_id)
            if row.revoked_at is None:
                connection.execute(update(t.oauth_clients).where(mine).values(revoked_at=at))
            row = connection.execute(select(t.oauth_clients).where(mine)).one()
        return _client_from_row(row)

    def by_client_id(self, client_id: str) -> OAuthClient | None:
        """The client with this public id, revoked or not (the token endpoint decides)."""
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(t.oauth_clients).where(t.oauth_clients.c.client_id == client_id)
            ).one_or_none()
        return None if row is None else _client_from_row(row)
