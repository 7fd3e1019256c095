"""Event types are data (issue 31 §3), on SQLite and PostgreSQL: the database holds no copy of
the event-type list, so a new type is a line in ``aaaf.scoring.records.EVENT_TYPES`` and no
migration; and the check that models and migrations agree now sees CHECK constraints too
(``compare_metadata`` does not)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from alembic import command
from sqlalchemy import CheckConstraint, Engine, insert, inspect, select

from aaaf.store import open_store
from aaaf.store import tables as t
from aaaf.store.engine import build_engine, write_options, write_transaction
from aaaf.store.migrate import alembic_config, upgrade_to_head
from aaaf.store.tables import metadata


@pytest.fixture()
def engine(unmigrated_database_url: str) -> Iterator[Engine]:
    built = build_engine(unmigrated_database_url)
    yield built
    built.dispose()


def _declared_checks() -> dict[str, set[str]]:
    """table → the names of the CHECK constraints the models declare (naming convention applied)."""
    out: dict[str, set[str]] = {}
    for table in metadata.sorted_tables:
        names = {str(c.name) for c in table.constraints if isinstance(c, CheckConstraint) and c.name}
        out[table.name] = names
    return out


def _migrated_checks(engine: Engine) -> dict[str, set[str]]:
    inspector = inspect(engine)
    return {
        table.name: {c["name"] for c in inspector.get_check_constraints(table.name) if c.get("name")}
        for table in metadata.sorted_tables
    }


def test_the_check_constraints_of_models_and_migrations_agree(engine: Engine) -> None:
    upgrade_to_head(engine)
    assert _migrated_checks(engine) == _declared_checks()
    assert "ck_events_type" not in _migrated_checks(engine)["events"]
    assert "ck_organizations_status" in _migrated_checks(engine)["organizations"]  # they are seen


def test_a_type_added_to_the_list_later_needs_no_migration(unmigrated_database_url: str) -> None:
    engine = build_engine(unmigrated_database_url)
    try:
        upgrade_to_head(engine)
        with open_store(unmigrated_database_url) as store:
            agent = store.scope(store.default_organization().id).enroll_agent("a")
        with write_transaction(engine) as connection:  # the database itself admits any type
            connection.execute(
                insert(t.events).values(
                    id=uuid.uuid4(),
                    agent_id=agent.id,
                    type="a_type_added_later",
                    timestamp=datetime(2026, 11, 28, tzinfo=UTC),
                    data={},
                )
            )
        with engine.connect() as connection:
            assert connection.execute(select(t.events.c.type)).scalars().all() == ["a_type_added_later"]
    finally:
        engine.dispose()


def test_downgrade_puts_the_constraint_back(engine: Engine) -> None:
    upgrade_to_head(engine)
    with engine.connect() as connection:
        connection.execution_options(**write_options())
        with connection.begin():
            command.downgrade(alembic_config(connection), "0019_dashboard_sessions")
    assert "ck_events_type" in _checks_of(engine, "events")
    upgrade_to_head(engine)
    assert "ck_events_type" not in _checks_of(engine, "events")


def _checks_of(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_check_constraints(table) if c.get("name")}
