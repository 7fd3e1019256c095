"""Running the Alembic migrations from code: no alembic.ini is needed at run time.

Migrations are the only way the schema changes (DESIGN.md).  ``upgrade_to_head`` is
called by ``open_store``; it costs one version query when the database is already at
head.  For developers::

    python -m aaaf.store.migrate upgrade  --url sqlite:///./aaaf.db
    python -m aaaf.store.migrate current  --url ...
    python -m aaaf.store.migrate revision --url ... -m "add a column"   # autogenerate a draft
"""

from __future__ import annotations

import argparse
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from aaaf.store.engine import build_engine, write_options

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")

# The head revision of the packaged migrations, so that opening an up-to-date database costs
# one query and no Alembic import (about half a second per CLI command).  A test checks it
# against Alembic's own view of the migration scripts.
SCHEMA_HEAD: frozenset[str] = frozenset({"0027_summary_due_index"})


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic Config built in code, pointing at the packaged migrations."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    """The head revision(s) of the packaged migrations (read once per process)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revisions(connection: Connection) -> frozenset[str]:
    from alembic.runtime.migration import MigrationContext

    return frozenset(MigrationContext.configure(connection).get_current_heads())


def _stored_revisions(connection: Connection) -> frozenset[str] | None:
    """The version rows, read with plain SQL; None when there is no version table yet."""
    try:
        return frozenset(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
    except DBAPIError:
        connection.rollback()
        return None


def refuse_outdated_server_schema(engine: Engine) -> None:
    """SCORING.md §7 "Databases": an outdated PostgreSQL schema stops the command (exit 2)
    naming ``aaaf db upgrade`` — a server database is migrated on purpose, once, not by
    whichever process happens to open it first.  An empty one gets its schema on first use."""
    with engine.connect() as connection:
        stored = _stored_revisions(connection)
    if stored is None or not stored or stored == SCHEMA_HEAD:
        return
    from aaaf.errors import AAAFError

    raise AAAFError(
        "INVALID_REQUEST",
        f"The database schema is at {', '.join(sorted(stored))}, older than this version of AAAF"
        f" ({', '.join(sorted(SCHEMA_HEAD))}): run `aaaf db upgrade` (with the same --db) first.",
        {"schema": sorted(stored), "head": sorted(SCHEMA_HEAD)},
    )


def upgrade_to_head(engine: Engine) -> None:
    """Upgrade the database to head in one write transaction (a no-op when it is there)."""
    with engine.connect() as connection:
        if _stored_revisions(connection) == SCHEMA_HEAD:
            return
        from alembic import command

        if current_revisions(connection) == head_revisions():
            return
        connection.rollback()
        connection.execution_options(**write_options())
        with connection.begin():
            command.upgrade(alembic_config(connection), "head")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m aaaf.store.migrate", description=__doc__)
    parser.add_argument("action", choices=("upgrade", "current", "revision"))
    parser.add_argument("--url", required=True)
    parser.add_argument("-m", "--message", default="schema change")
    args = parser.parse_args(argv)
    from alembic import command

    if args.action == "upgrade":
        engine = build_engine(args.url)
        try:
            upgrade_to_head(engine)
        finally:
            engine.dispose()
    elif args.action == "current":
        command.current(alembic_config(url=args.url))
    else:
        command.revision(alembic_config(url=args.url), message=args.message, autogenerate=True)


if __name__ == "__main__":
    main()
