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

from aaaf.scoring.results import iso
from aaaf.store import tables_access as t
from aaaf.store.credentials import CredentialTable


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


class OAuthClients(CredentialTable[OAuthClient]):
    """The ``oauth_clients`` table; every method but :meth:`by_client_id` is scoped by organization."""

    table = t.oauth_clients
    record = OAuthClient
    noun = "OAuth client"

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
        return self._insert(
            organization_id,
            at=at,
            client_id=client_id,
            secret_hash=secret_hash,
            name=name,
            scopes=list(scopes),
        )

    def by_client_id(self, client_id: str) -> OAuthClient | None:
        """The client with this public id, revoked or not (the token endpoint decides)."""
        return self._by_column("client_id", client_id)
