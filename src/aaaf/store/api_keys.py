"""An organization's API keys (SCORING.md §7 "Admin and keys"): rows hold only a hash.

The key itself (``ak_`` + 43 URL-safe characters, 256 random bits) is shown once, when it
is created; the store keeps its SHA-256 (a key this long needs no slow hash: there is
nothing to guess), a display prefix (``ak_`` + 8 characters) and its scopes.  A revoked
key stays on the record with its revocation time and never authenticates again.

A key found active is trusted for a few seconds without reading its row again
(:mod:`aaaf.store.verified_keys`).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update

from aaaf.scoring.results import iso
from aaaf.store import tables_access as t
from aaaf.store.credentials import CredentialTable
from aaaf.store.engine import one_statement_read, read_connection, write_transaction
from aaaf.store.verified_keys import verified_keys


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


class ApiKeys(CredentialTable[ApiKey]):
    """The ``api_keys`` table; every method but :meth:`for_request` is scoped by organization."""

    table = t.api_keys
    record = ApiKey
    noun = "API key"

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
        return self._insert(
            organization_id, at=at, name=name, prefix=prefix, key_hash=key_hash, scopes=list(scopes)
        )

    def for_request(self, key_hash: str) -> tuple[ApiKey, int | None] | None:
        """The key with this hash, revoked or not (authentication decides what that means), and its organization's
        ``rate_limit_per_minute`` setting (None: not set), in one read — all a request needs
        to authenticate and limit its caller.  An active key read less than
        :data:`~aaaf.store.verified_keys.VERIFIED_KEY_SECONDS` ago is not read again."""
        from aaaf.store.tables import org_configs
        from aaaf.store.usage import rate_limit_setting

        database = self._engine.url
        remembered = verified_keys.get(database, key_hash)
        if remembered is not None:
            return remembered

        with one_statement_read(self._engine) as connection:  # every request: no BEGIN, no ROLLBACK
            row = connection.execute(
                select(t.api_keys, org_configs.c.extra.label("organization_extra"))
                .select_from(
                    t.api_keys.outerjoin(
                        org_configs, org_configs.c.organization_id == t.api_keys.c.organization_id
                    )
                )
                .where(t.api_keys.c.key_hash == key_hash)
            ).one_or_none()
        if row is None:
            return None
        key, per_minute = self._record(row), rate_limit_setting(row.organization_extra)
        if key.active:
            verified_keys.put(database, key_hash, key, per_minute)
        return key, per_minute

    def revoke(self, organization_id: uuid.UUID, row_id: uuid.UUID, *, at: datetime) -> ApiKey:
        """:meth:`CredentialTable.revoke`; the key is forgotten by this process once revoked."""
        try:
            return super().revoke(organization_id, row_id, at=at)
        finally:
            verified_keys.forget(key_id=row_id)

    def active_count(self, organization_id: uuid.UUID) -> int:
        """How many of the organization's keys are not revoked."""
        with read_connection(self._engine) as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(t.api_keys)
                    .where(t.api_keys.c.organization_id == organization_id, t.api_keys.c.revoked_at.is_(None))
                ).scalar_one()
            )

    def touch(self, key_id: uuid.UUID, *, at: datetime) -> None:
        """Record the key's last use."""
        with write_transaction(self._engine) as connection:
            connection.execute(update(t.api_keys).where(t.api_keys.c.id == key_id).values(last_used_at=at))
        verified_keys.used(key_id, at)
