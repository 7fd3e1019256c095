"""Alembic environment of the AAAF store, run programmatically (see aaaf.store.migrate).

The caller hands over an open connection in ``config.attributes["connection"]`` (inside
its transaction); without one, ``sqlalchemy.url`` from the Config is used.  SQLite runs
in batch mode (ALTER TABLE by copy) with transactional DDL; on PostgreSQL an advisory
lock held until commit keeps two processes from migrating the same database at once.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, text

from aaaf.store.engine import build_engine, write_options
from aaaf.store.tables import metadata

MIGRATION_LOCK_KEY = 0x4141_4146  # "AAAF"

config = context.config


def _run(connection: Connection) -> None:
    is_sqlite = connection.dialect.name == "sqlite"
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=is_sqlite,
        transactional_ddl=True,
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection and no sqlalchemy.url given to the AAAF migrations")
    engine = build_engine(url)
    try:
        with engine.connect() as own_connection:
            own_connection.execution_options(**write_options())
            _run(own_connection)
            own_connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("the AAAF migrations run online only (SQLite needs batch mode on a live connection)")
run_migrations_online()
