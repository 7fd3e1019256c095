"""The (database, organization's repositories, organization) triple that badge issuing,
revocation and the status list take (document 004 §4, §5.1 step 6).

:class:`OrgSession` is what those services read of it — the CLI's ``Session`` is one — and
:class:`ScopedOrg` builds one for a single organization where no front end did (a job, the
public verification, a status list rewritten after an appeal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from aaaf.services.issuer import Database
from aaaf.store.org_store import OrgStore
from aaaf.store.records import Organization


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
