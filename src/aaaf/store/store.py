"""Opening a database and the operations that are not scoped to one organization.

``open_store`` is the one entry point: it builds the engine (SQLite in WAL mode with
foreign keys on and a busy timeout; PostgreSQL through psycopg 3), upgrades the schema
to the Alembic head (migrations are the only way the schema changes, DESIGN.md) and
returns a :class:`Store`.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import DEFAULT_TAXONOMY, AAAFConfig
from aaaf.store import tables as t
from aaaf.store.engine import build_engine, normalise_url, read_connection, write_transaction
from aaaf.store.event_partitions import drop_partitions_before
from aaaf.store.migrate import refuse_outdated_server_schema, upgrade_to_head
from aaaf.store.org_store import (
    OrgStore,
    as_uuid,
    badge_from_row,
    insert_stress_test,
    not_found,
    now_utc,
    organization_from_row,
    stress_test_from_row,
    write_org_config,
)
from aaaf.store.records import Badge, Organization, StressTest
from aaaf.store.repositories.base import Clock

DEFAULT_ORGANIZATION_NAME = "default"
# A fixed id makes creating the default organization race-free on both dialects:
# concurrent first uses insert the same primary key and all but one do nothing.
DEFAULT_ORGANIZATION_ID = uuid.uuid5(uuid.NAMESPACE_URL, "urn:aaaf:organization:default")


class Store:
    """A database holding any number of organizations.

    Thread-safe (one engine with a connection pool); a context manager that disposes of
    the engine on exit.
    """

    def __init__(self, engine: Engine, *, created: bool = False, clock: Clock | None = None) -> None:
        self._engine = engine
        #: the time of the rows it stamps (issue 10 §4: handed in by the front end; default
        #: the system clock)
        self.clock: Clock = clock or now_utc
        #: True when opening it created a new SQLite database file (the CLI says so)
        self.created = created

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for job queues and maintenance; repositories are the API)."""
        return self._engine

    @property
    def url(self) -> str:
        """The database URL (password hidden)."""
        return self._engine.url.render_as_string(hide_password=True)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.dialect.name

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # organizations -------------------------------------------------------------------
    def default_organization(self) -> Organization:
        """The CLI's organization "default", created with its config row on first use.

        Idempotent and safe under concurrent first use: every caller inserts the same
        fixed id with ``ON CONFLICT DO NOTHING``, then reads it.
        """
        dialect_insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert
        stamp = self.clock()
        with write_transaction(self._engine) as connection:
            connection.execute(
                dialect_insert(t.organizations)
                .values(
                    id=DEFAULT_ORGANIZATION_ID,
                    name=DEFAULT_ORGANIZATION_NAME,
                    api_key_hash=None,
                    domain_taxonomy=list(DEFAULT_TAXONOMY),
                    status="active",
                    created_at=stamp,
                    updated_at=stamp,
                )
                .on_conflict_do_nothing(index_elements=[t.organizations.c.id])
            )
            connection.execute(
                dialect_insert(t.org_configs)
                .values(**_default_config_row(DEFAULT_ORGANIZATION_ID, stamp))
                .on_conflict_do_nothing(index_elements=[t.org_configs.c.organization_id])
            )
            row = connection.execute(
                select(t.organizations).where(t.organizations.c.id == DEFAULT_ORGANIZATION_ID)
            ).one()
        return organization_from_row(row)

    def create_organization(
        self,
        name: str,
        *,
        api_key_hash: str | None = None,
        taxonomy: Sequence[str] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> Organization:
        """A new organization with its ``org_configs`` row (document 004 §5.2 step 1).

        ``config`` takes the keys of :meth:`OrgStore.update_config` (weights are checked:
        ``WEIGHT_SUM_INVALID``) and is stored in the same transaction, so an invalid one
        creates nothing; a duplicate ``api_key_hash`` is ``CONFLICT``.
        """
        if not isinstance(name, str) or not name.strip():
            raise AAAFError("INVALID_REQUEST", "An organization needs a non-empty name.", {"field": "name"})
        changes = dict(config or {})
        if taxonomy is not None:
            changes["taxonomy"] = list(taxonomy)
        org_id = uuid.uuid4()
        stamp = self.clock()
        try:
            with write_transaction(self._engine) as connection:
                connection.execute(
                    insert(t.organizations).values(
                        id=org_id,
                        name=name,
                        api_key_hash=api_key_hash,
                        domain_taxonomy=list(DEFAULT_TAXONOMY),
                        status="active",
                        created_at=stamp,
                        updated_at=stamp,
                    )
                )
                connection.execute(insert(t.org_configs).values(**_default_config_row(org_id, stamp)))
                if changes:
                    write_org_config(connection, org_id, AAAFConfig(), changes, now=stamp)
        except IntegrityError as error:
            raise AAAFError("CONFLICT", "An organization with this API key already exists.", {}) from error
        return self.get_organization(org_id)

    def get_organization(self, org_id: uuid.UUID | str) -> Organization:
        """The organization, or ``NOT_FOUND``."""
        wanted = as_uuid(org_id)
        row = None
        if wanted is not None:
            with read_connection(self._engine) as connection:
                row = connection.execute(
                    select(t.organizations).where(t.organizations.c.id == wanted)
                ).one_or_none()
        if row is None:
            raise not_found("Organization", org_id)
        return organization_from_row(row)

    def organizations(self) -> list[Organization]:
        """Every organization, oldest first."""
        with read_connection(self._engine) as connection:
            rows = connection.execute(
                select(t.organizations).order_by(t.organizations.c.created_at, t.organizations.c.id)
            ).all()
        return [organization_from_row(row) for row in rows]

    def drop_event_partitions_before(self, boundary: datetime) -> list[str]:
        """Detach and drop the events partitions entirely before ``boundary`` (PostgreSQL,
        retention: SCORING.md §6); their names.  SQLite's one table has none: []."""
        if self.dialect != "postgresql":
            return []
        with write_transaction(self._engine) as connection:
            return drop_partitions_before(connection, boundary)

    def organization_by_api_key_hash(self, api_key_hash: str) -> Organization | None:
        """The organization whose API key hashes to ``api_key_hash`` (API authentication)."""
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(t.organizations).where(t.organizations.c.api_key_hash == api_key_hash)
            ).one_or_none()
        return None if row is None else organization_from_row(row)

    def update_organization(
        self,
        org_id: uuid.UUID | str,
        *,
        name: str | None = None,
        status: str | None = None,
        api_key_hash: str | None = None,
    ) -> Organization:
        """Rename, (un)suspend or re-key an organization (document 004 §6.2 PATCH)."""
        values: dict[str, Any] = {}
        if name is not None:
            if not name.strip():
                raise AAAFError(
                    "INVALID_REQUEST", "An organization needs a non-empty name.", {"field": "name"}
                )
            values["name"] = name
        if status is not None:
            if status not in t.ORGANIZATION_STATUSES:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Invalid status {status!r}; expected one of {', '.join(t.ORGANIZATION_STATUSES)}.",
                    {"field": "status", "value": status},
                )
            values["status"] = status
        if api_key_hash is not None:
            values["api_key_hash"] = api_key_hash
        organization = self.get_organization(org_id)
        if values:
            values["updated_at"] = self.clock()
            try:
                with write_transaction(self._engine) as connection:
                    connection.execute(
                        update(t.organizations)
                        .where(t.organizations.c.id == organization.id)
                        .values(**values)
                    )
            except IntegrityError as error:
                raise AAAFError(
                    "CONFLICT", "An organization with this API key already exists.", {}
                ) from error
        return self.get_organization(organization.id)

    def scope(self, org_id: uuid.UUID | str, *, exists: bool = False) -> OrgStore:
        """Repositories filtered by one organization (``NOT_FOUND`` if it does not exist).
        ``exists``: the caller has just read a row that names it by its foreign key (the API
        key of the request), so it is not read again."""
        if exists and isinstance(org_id, uuid.UUID):
            return OrgStore(self._engine, org_id, clock=self.clock)
        return OrgStore(self._engine, self.get_organization(org_id).id, clock=self.clock)

    # system-wide -----------------------------------------------------------------------
    def add_system_stress_test(
        self,
        dimension: str,
        *,
        task_definition: Mapping[str, Any],
        complexity_level: int | None = None,
        domain: str | None = None,
        expected_outcome: Mapping[str, Any] | None = None,
    ) -> StressTest:
        """A stress test of the standard library (document 004 §5.3), visible to every org."""
        with write_transaction(self._engine) as connection:
            stress_test_id = insert_stress_test(
                connection,
                organization_id=None,
                dimension=dimension,
                task_definition=task_definition,
                complexity_level=complexity_level,
                domain=domain,
                expected_outcome=expected_outcome,
                now=self.clock(),
            )
            row = connection.execute(
                select(t.stress_tests).where(t.stress_tests.c.id == stress_test_id)
            ).one()
        return stress_test_from_row(row)

    def find_badge(self, assessment_id: uuid.UUID | str) -> Badge | None:
        """The latest badge credential of an assessment, in any organization.

        Badge verification is public (document 004 §6.2 ``/badges/{id}/verify``): the
        verifier does not know the organization.
        """
        wanted = as_uuid(assessment_id)
        if wanted is None:
            return None
        with read_connection(self._engine) as connection:
            # an assessment may have several credentials (0003): the latest is the highest bit
            row = connection.execute(
                select(t.badges)
                .where(t.badges.c.assessment_id == wanted)
                .order_by(t.badges.c.status_index.desc())
                .limit(1)
            ).one_or_none()
        return None if row is None else badge_from_row(row)


def _default_config_row(org_id: uuid.UUID, stamp: Any) -> dict[str, Any]:
    """An ``org_configs`` row holding document 004 §7.2's defaults (= AAAFConfig's)."""
    defaults = AAAFConfig()
    return {
        "id": uuid.uuid5(org_id, "org_config"),
        "organization_id": org_id,
        "assessment_window_days": defaults.window_days,
        "validity_period_days": defaults.validity_days,
        "min_tasks_performance": defaults.min_tasks_performance,
        "min_tasks_capability": defaults.min_tasks_capability,
        "recency_weights": t.DEFAULT_RECENCY_WEIGHTS_JSON,
        "reassessment_task_threshold": defaults.reassessment_task_threshold,
        "extra": {},
        "created_at": stamp,
        "updated_at": stamp,
    }


def open_store(url: str | None = None, *, clock: Clock | None = None) -> Store:
    """Open the database at ``url``: an empty one gets its schema, an outdated SQLite file is
    upgraded to head, an outdated PostgreSQL schema is refused naming ``aaaf db upgrade``.

    ``None`` takes ``Settings.database_url`` (``AAAF_DATABASE_URL``).  ``clock`` stamps the
    rows it writes (default: the system clock).  A SQLite file is
    created only in an existing folder (else ``INVALID_REQUEST`` naming the folder,
    SCORING.md §7 "Databases"); ``Store.created`` says whether this call created it.
    """
    if url is None:
        from aaaf.settings import get_settings

        url = get_settings().database_url
    new_file = _new_sqlite_file(url)
    engine = build_engine(url)
    try:
        if engine.dialect.name != "sqlite":
            refuse_outdated_server_schema(engine)
        upgrade_to_head(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, created=new_file is not None and new_file.exists(), clock=clock)


def _new_sqlite_file(url: str) -> Path | None:
    """The file a SQLite ``url`` names when it does not exist yet (or is empty), else None."""
    parsed = make_url(normalise_url(url))
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    if parsed.query.get("mode") == "memory" or database.startswith("file:"):
        return None
    path = Path(database).expanduser().resolve()
    if path.exists() and path.stat().st_size > 0:
        return None
    return path
