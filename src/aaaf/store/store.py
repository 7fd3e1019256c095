"""Opening a database and the operations that are not scoped to one organization.

``open_store`` is the one entry point: it builds the engine (SQLite in WAL mode with
foreign keys on and a busy timeout; PostgreSQL through psycopg 3), upgrades the schema
to the Alembic head (migrations are the only way the schema changes, DESIGN.md) and
returns a :class:`Store`.
"""

from __future__ import annotations

import uuid
from types import TracebackType
from typing import Any

from aaaf.store.org_store import OrgStore
from aaaf.store.records import Badge, Organization

DEFAULT_ORGANIZATION_NAME = "default"
# A fixed id makes creating the default organization race-free on both dialects:
# concurrent first uses insert the same primary key and all but one do nothing.
DEFAULT_ORGANIZATION_ID = uuid.uuid5(uuid.NAMESPACE_URL, "urn:aaaf:organization:default")


class Store:
    """A database holding any number of organizations.

    Thread-safe (one engine with a connection pool); a context manager that disposes of
    the engine on exit.
    """

    def __init__(self, engine: Any) -> None:
        raise NotImplementedError

    @property
    def url(self) -> str:
        """The database URL (password hidden)."""
        raise NotImplementedError

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # organizations -------------------------------------------------------------------
    def default_organization(self) -> Organization:
        """The CLI's organization "default", created with its config row on first use.

        Idempotent and safe under concurrent first use (fixed id, insert-or-ignore).
        """
        raise NotImplementedError

    def create_organization(
        self,
        name: str,
        *,
        api_key_hash: str | None = None,
        taxonomy: list[str] | tuple[str, ...] | None = None,
        config: dict[str, Any] | None = None,
    ) -> Organization:
        """A new organization with its ``org_configs`` row (document 004 §5.2 step 1).

        ``config`` takes the keys of :meth:`OrgStore.update_config` (weights are checked:
        ``WEIGHT_SUM_INVALID``); a duplicate ``api_key_hash`` is ``CONFLICT``.
        """
        raise NotImplementedError

    def get_organization(self, org_id: uuid.UUID | str) -> Organization:
        """The organization, or ``NOT_FOUND``."""
        raise NotImplementedError

    def organizations(self) -> list[Organization]:
        """Every organization, oldest first."""
        raise NotImplementedError

    def organization_by_api_key_hash(self, api_key_hash: str) -> Organization | None:
        """The organization whose API key hashes to ``api_key_hash`` (API authentication)."""
        raise NotImplementedError

    def update_organization(
        self,
        org_id: uuid.UUID | str,
        *,
        name: str | None = None,
        status: str | None = None,
        api_key_hash: str | None = None,
    ) -> Organization:
        """Rename, (un)suspend or re-key an organization (document 004 §6.2 PATCH)."""
        raise NotImplementedError

    def scope(self, org_id: uuid.UUID | str) -> OrgStore:
        """Repositories filtered by one organization (``NOT_FOUND`` if it does not exist)."""
        raise NotImplementedError

    # public, unscoped look-ups ---------------------------------------------------------
    def find_badge(self, assessment_id: uuid.UUID | str) -> Badge | None:
        """A badge by its assessment id in any organization.

        Badge verification is public (document 004 §6.2 ``/badges/{id}/verify``): the
        verifier does not know the organization.
        """
        raise NotImplementedError


def open_store(url: str | None = None) -> Store:
    """Open (and create or upgrade to head) the database at ``url``.

    ``None`` takes ``Settings.database_url`` (``AAAF_DATABASE_URL``).  For a SQLite file
    the parent directory is created.
    """
    raise NotImplementedError
