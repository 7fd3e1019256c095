"""The (database, organization's repositories, organization) triple that badge issuing,
revocation and the status list take (document 004 §4, §5.1 step 6).

:class:`OrgSession` is what those services read of it — the CLI's ``Session`` is one — and
:class:`ScopedOrg` builds one for a single organization where no front end did (a job, a route,
the public verification, a status list rewritten after an appeal): :func:`org_session` of
an organization's repositories, :func:`org_session_by_id` of its id.
"""

from __future__ import annotations

import uuid
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from aaaf.services.issuer import Database
from aaaf.store.org_store import OrgStore
from aaaf.store.records import Organization

if TYPE_CHECKING:
    from aaaf.store.store import Store


class OrgSession(Protocol):
    """An organization's repositories, its record, and the database they live in (where the
    issuer key is kept and beside which the status list file is written)."""

    @property
    def store(self) -> Database: ...

    @property
    def org(self) -> OrgStore: ...

    @property
    def organization(self) -> Organization: ...


@dataclass(frozen=True)
class ScopedOrg:
    """An :class:`OrgSession` for one organization."""

    store: Database
    org: OrgStore
    organization: Organization


def org_session(store: Database, org: OrgStore) -> ScopedOrg:
    """The session of the organization ``org`` is scoped to."""
    return ScopedOrg(store, org, org.organization())


def org_session_by_id(store: Store, organization_id: uuid.UUID | str) -> ScopedOrg:
    """The session of the organization with this id (``NOT_FOUND`` when there is none)."""
    organization = store.get_organization(organization_id)
    return ScopedOrg(store, store.scope(organization.id, exists=True), organization)


def page_reads(org: OrgStore) -> AbstractContextManager[OrgStore]:
    """``org`` with every read of the block on one read connection and transaction, the agent
    and the configuration read once (a dashboard page's reads: one pool checkout)."""
    return org.reading_together()
