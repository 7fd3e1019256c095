"""Published stress-task libraries and their installs (issue 20 §3, the marketplace's first step).

An organization publishes a library (validated by :mod:`aaaf.services.stress_libraries`)
under a name and a version; (organization, name, version) is unique and a version, once
published, never changes.  ``private`` libraries are seen by their organization only;
``shared`` ones by every organization — without their publisher: a shared library's name is
held by the first organization that shared it (another organization sharing the same name is
``CONFLICT``), so name and version identify it without saying whose it is.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Row, and_, insert, or_, select
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.store import tables_shared as t
from aaaf.store.repositories.base import OrgScoped
from aaaf.store.row_mapping import record_from_row


@dataclass(frozen=True)
class PublishedLibrary:
    id: uuid.UUID
    organization_id: uuid.UUID
    name: str
    version: str
    visibility: str
    description: str | None
    content: Mapping[str, Any]
    documents: Mapping[str, str]
    digest: str
    task_count: int
    graders: tuple[str, ...]
    created_at: datetime


def _library_from_row(row: Row[Any]) -> PublishedLibrary:
    return record_from_row(PublishedLibrary, row)


class StressLibraryRepository(OrgScoped):
    """The organization's published libraries, the shared ones it can see, and its installs."""

    def _visible(self) -> ColumnElement[bool]:
        lib = t.stress_libraries
        return or_(lib.c.organization_id == self.organization_id, lib.c.visibility == "shared")

    def publish_library(
        self,
        *,
        name: str,
        version: str,
        visibility: str,
        description: str | None,
        content: Mapping[str, object],
        documents: Mapping[str, str],
        digest: str,
        task_count: int,
        graders: Sequence[str],
    ) -> PublishedLibrary:
        """Store a new (name, version); ``CONFLICT`` when this version exists (versions are
        immutable) or when another organization shares a library of this name."""
        lib = t.stress_libraries
        library_id = uuid.uuid4()
        try:
            with self._writing() as connection:
                mine = connection.execute(
                    select(lib.c.id).where(
                        lib.c.organization_id == self.organization_id,
                        lib.c.name == name,
                        lib.c.version == version,
                    )
                ).first()
                if mine is not None:
                    raise _version_exists(name, version)
                if visibility == "shared":
                    taken = connection.execute(
                        select(lib.c.id).where(
                            lib.c.name == name,
                            lib.c.visibility == "shared",
                            lib.c.organization_id != self.organization_id,
                        )
                    ).first()
                    if taken is not None:
                        raise AAAFError(
                            "CONFLICT",
                            f"Another organization shares a library named {name!r}; choose another name.",
                            {"field": "name", "name": name},
                        )
                connection.execute(
                    insert(lib).values(
                        id=library_id,
                        organization_id=self.organization_id,
                        name=name,
                        version=version,
                        visibility=visibility,
                        description=description,
                        content=dict(content),
                        documents=dict(documents),
                        digest=digest,
                        task_count=task_count,
                        graders=list(graders),
                        created_at=self._clock(),
                    )
                )
        except IntegrityError as error:  # a concurrent publication of the same version
            raise _version_exists(name, version) from error
        found = self.find_library(name, version)
        assert found is not None
        return found

    def stress_libraries(self) -> list[PublishedLibrary]:
        """The organization's own libraries and every shared one, by name and version."""
        lib = t.stress_libraries
        with self._reading() as connection:
            rows = connection.execute(
                select(lib).where(self._visible()).order_by(lib.c.name, lib.c.created_at, lib.c.version)
            ).all()
        return [_library_from_row(row) for row in rows]

    def find_library(self, name: str, version: str) -> PublishedLibrary | None:
        """(name, version) as this organization sees it: its own first, else a shared one."""
        lib = t.stress_libraries
        with self._reading() as connection:
            rows = connection.execute(
                select(lib).where(self._visible(), lib.c.name == name, lib.c.version == version)
            ).all()
        own = [row for row in rows if row.organization_id == self.organization_id]
        chosen = own or sorted(rows, key=lambda row: (row.created_at, str(row.id)))
        return _library_from_row(chosen[0]) if chosen else None

    def install_library(self, library_id: uuid.UUID) -> bool:
        """Record the install (False: it was installed already)."""
        installs = t.stress_library_installs
        with self._writing() as connection:
            present = connection.execute(
                select(installs.c.library_id).where(
                    installs.c.organization_id == self.organization_id, installs.c.library_id == library_id
                )
            ).first()
            if present is not None:
                return False
            connection.execute(
                insert(installs).values(
                    organization_id=self.organization_id, library_id=library_id, installed_at=self._clock()
                )
            )
        return True

    def installed_libraries(self) -> list[PublishedLibrary]:
        """The libraries this organization installed (still visible to it), by name and version."""
        lib, installs = t.stress_libraries, t.stress_library_installs
        with self._reading() as connection:
            rows = connection.execute(
                select(lib)
                .join(installs, and_(installs.c.library_id == lib.c.id))
                .where(installs.c.organization_id == self.organization_id, self._visible())
                .order_by(lib.c.name, lib.c.version)
            ).all()
        return [_library_from_row(row) for row in rows]


def _version_exists(name: str, version: str) -> AAAFError:
    return AAAFError(
        "CONFLICT",
        f"Library {name} version {version} is already published; a published version never changes — "
        "publish a new version.",
        {"field": "version", "name": name, "version": version},
    )
