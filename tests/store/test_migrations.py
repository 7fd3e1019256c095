"""Migrations are the only way the schema changes (DESIGN.md): they run on SQLite and
PostgreSQL and produce exactly the schema the models describe (an ``alembic check``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Engine, MetaData, Text, inspect, text

from aaaf.store import open_store
from aaaf.store.engine import build_engine, write_options
from aaaf.store.migrate import alembic_config, current_revisions, head_revisions, upgrade_to_head
from aaaf.store.tables import metadata

EXPECTED_TABLES = {
    "organizations",
    "org_configs",
    "dimension_weight_configs",
    "agents",
    "events",
    "assessments",
    "dimension_scores",
    "badges",
    "appeals",
    "webhooks",
    "stress_tests",
    "stress_test_results",
    "score_history",
    "trust_weight_overrides",
}


@pytest.fixture()
def engine(unmigrated_database_url: str) -> Iterator[Engine]:
    built = build_engine(unmigrated_database_url)
    yield built
    built.dispose()


def schema_differences(engine: Engine, target: MetaData) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, target))


def test_upgrade_creates_every_table_at_head(engine: Engine) -> None:
    assert set(inspect(engine).get_table_names()) == set()
    upgrade_to_head(engine)
    with engine.connect() as connection:
        assert current_revisions(connection) == head_revisions()
        assert head_revisions() == {"0003_badge_credentials"}
    assert set(inspect(engine).get_table_names()) >= EXPECTED_TABLES


def test_models_and_migrations_agree(engine: Engine) -> None:
    upgrade_to_head(engine)
    assert schema_differences(engine, metadata) == []


def test_the_comparison_would_see_a_difference(engine: Engine) -> None:
    """Guards the test above: compare_metadata does look at our tables."""
    upgrade_to_head(engine)
    changed = MetaData(naming_convention=metadata.naming_convention)
    for table in metadata.sorted_tables:
        copy = table.to_metadata(changed)
        if table.name == "events":
            copy.append_column(Column("not_migrated", Text()))
    differences = schema_differences(engine, changed)
    assert [diff[0] for diff in differences] == ["add_column"]  # type: ignore[index]


def test_downgrade_to_base_and_up_again(engine: Engine) -> None:
    upgrade_to_head(engine)
    with engine.connect() as connection:
        connection.execution_options(**write_options())
        with connection.begin():
            command.downgrade(alembic_config(connection), "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    upgrade_to_head(engine)
    assert schema_differences(engine, metadata) == []


def test_opening_twice_is_a_no_op(store_url: str) -> None:
    with open_store(store_url) as first:
        first.default_organization()
    with open_store(store_url) as second:
        assert [org.name for org in second.organizations()] == ["default"]
        with second.engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1


def test_sqlite_pragmas(tmp_path: object) -> None:
    with (
        open_store(f"sqlite:///{tmp_path}/nested/dir/aaaf.db") as store,
        store.engine.connect() as connection,
    ):
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 30_000


def test_the_fast_path_head_constant_is_alembics_head() -> None:
    """open_store skips Alembic when the version table says SCHEMA_HEAD: it must be the real head."""
    from aaaf.store.migrate import SCHEMA_HEAD, head_revisions

    assert head_revisions() == SCHEMA_HEAD
