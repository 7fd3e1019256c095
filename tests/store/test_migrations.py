"""Migrations are the only way the schema changes (DESIGN.md): they run on SQLite and
PostgreSQL and produce exactly the schema the models describe (an ``alembic check``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Engine, MetaData, Text, UniqueConstraint, inspect, text

from aaaf.store import open_store
from aaaf.store.engine import build_engine, write_options
from aaaf.store.event_partitions import PARTITION_PATTERN
from aaaf.store.migrate import SCHEMA_HEAD, alembic_config, current_revisions, head_revisions, upgrade_to_head
from aaaf.store.tables import metadata, postgresql_metadata

EXPECTED_TABLES = {
    "stress_runs",
    "otlp_pending_spans",
    "organizations",
    "api_keys",
    "issuer_keys",
    "org_config_changes",
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
    "assessment_evidence",
    "eval_runs",
    "webhook_events",
    "webhook_deliveries",
    "oauth_clients",
    "usage_daily",
    "badge_visibility",
    "benchmark_cells",  # 0015_bench_anon (issue 20)
    "stress_libraries",
    "stress_library_installs",
}


@pytest.fixture()
def engine(unmigrated_database_url: str) -> Iterator[Engine]:
    built = build_engine(unmigrated_database_url)
    yield built
    built.dispose()


def schema_differences(engine: Engine, target: MetaData) -> list[object]:
    postgres = engine.dialect.name == "postgresql"
    if postgres:  # events partitioned (0021): event_keys holds their keys' uniqueness
        target = _as_on_postgresql(target)

    def include_name(name: object, kind: str, _parents: object) -> bool:
        if kind != "table":
            return True
        # the job queue's tables (procrastinate's, migration 0010) are not ours to describe,
        # nor are the events' monthly partitions (each is the events table again)
        return not (str(name).startswith("procrastinate_") or PARTITION_PATTERN.match(str(name)))

    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "include_name": include_name}
        )
        return list(compare_metadata(context, target))


def _as_on_postgresql(target: MetaData) -> MetaData:
    """``target`` as PostgreSQL has it: with :data:`postgresql_metadata`'s tables and
    without the events' ``(agent_id, idempotency_key)`` unique constraint (event_keys' key)."""
    out = MetaData(naming_convention=target.naming_convention)
    for table in [*target.sorted_tables, *postgresql_metadata.sorted_tables]:
        copy = table.to_metadata(out)
        if table.name == "events":
            for constraint in list(copy.constraints):
                if isinstance(constraint, UniqueConstraint):
                    copy.constraints.remove(constraint)
    return out


def test_upgrade_creates_every_table_at_head(engine: Engine) -> None:
    assert set(inspect(engine).get_table_names()) == set()
    upgrade_to_head(engine)
    with engine.connect() as connection:
        assert current_revisions(connection) == head_revisions()
        assert head_revisions() == SCHEMA_HEAD  # the constant open_store trusts is the real head
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
        open_store(f"sqlite:///{tmp_path}/aaaf.db") as store,
        store.engine.connect() as connection,
    ):
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 30_000


def test_the_fast_path_head_constant_is_alembics_head() -> None:
    """open_store skips Alembic when the version table says SCHEMA_HEAD: it must be the real head."""
    from aaaf.store.migrate import SCHEMA_HEAD, head_revisions

    assert head_revisions() == SCHEMA_HEAD


def _migrate(engine: Engine, action: str, revision: str) -> None:
    with engine.connect() as connection:
        connection.execution_options(**write_options())
        with connection.begin():
            getattr(command, action)(alembic_config(connection), revision)


def test_0003_turns_badges_into_credentials_keeping_every_bit(engine: Engine) -> None:
    """From one badge row per assessment to one per credential (0003), and back.

    A signed badge stays current; an unsigned leftover of the old two-step issuance is
    superseded with its bit set (it may be named by a credential already handed out).
    """
    import uuid
    from datetime import UTC, datetime

    from sqlalchemy import insert, select
    from sqlalchemy.exc import IntegrityError

    from aaaf.store import tables as t

    _migrate(engine, "upgrade", "0002_trust_history")
    at = datetime(2026, 4, 16, 12, 0, tzinfo=UTC)
    org_id, agent_id = uuid.uuid4(), uuid.uuid4()
    signed_assessment, unsigned_assessment, later_assessment = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    signed_badge, unsigned_badge = uuid.uuid4(), uuid.uuid4()
    with engine.begin() as connection:
        connection.execute(insert(t.organizations).values(id=org_id, name="o", domain_taxonomy=[]))
        connection.execute(
            insert(t.agents).values(
                id=agent_id, organization_id=org_id, name="a", claimed_domains=[], tools=[], metadata={}
            )
        )
        for assessment_id in (signed_assessment, unsigned_assessment, later_assessment):
            connection.execute(
                insert(t.assessments).values(
                    id=assessment_id,
                    agent_id=agent_id,
                    type="full",
                    status="completed",
                    window_start=at,
                    window_end=at,
                )
            )
        common = {
            "agent_id": agent_id,
            "organization_id": org_id,
            "json_data": {},
            "issued_at": at,
            "valid_until": at,
        }
        connection.execute(
            insert(t.badges).values(
                id=signed_badge,
                assessment_id=signed_assessment,
                status_index=0,
                credential_jwt="a.b.c",
                **common,
            )
        )
        connection.execute(
            insert(t.badges).values(
                id=unsigned_badge, assessment_id=unsigned_assessment, status_index=1, **common
            )
        )

    upgrade_to_head(engine)
    assert schema_differences(engine, metadata) == []
    with engine.connect() as connection:
        rows = {row.id: row for row in connection.execute(select(t.badges))}
        reviewed = connection.execute(select(t.assessments.c.reviewed_by, t.assessments.c.reviewed_at)).all()
    assert set(reviewed) == {(None, None)}
    kept, leftover = rows[signed_badge], rows[unsigned_badge]
    assert (kept.status_index, kept.credential_jwt, kept.revoked, kept.superseded_at) == (
        0,
        "a.b.c",
        False,
        None,
    )
    assert leftover.status_index == 1 and leftover.revoked and leftover.superseded_at is not None
    assert leftover.revoke_reason == "superseded: issuance interrupted before signing"
    assert leftover.revoked_at is not None

    new_row = {
        "agent_id": agent_id,
        "organization_id": org_id,
        "json_data": {},
        "issued_at": at,
        "valid_until": at,
    }
    with engine.begin() as connection:  # a second credential of an assessment, once the first is superseded
        connection.execute(
            insert(t.badges).values(
                id=uuid.uuid4(),
                assessment_id=unsigned_assessment,
                status_index=2,
                credential_jwt="d.e.f",
                **new_row,
            )
        )
    refused = [
        {"assessment_id": signed_assessment, "status_index": 3, "credential_jwt": "g"},  # two current
        {"assessment_id": later_assessment, "status_index": 3},  # current without a JWT
        {"assessment_id": later_assessment, "status_index": 2, "credential_jwt": "g"},  # a bit taken
        {"assessment_id": later_assessment, "status_index": -1, "credential_jwt": "g"},  # kept from 0001
        {"assessment_id": later_assessment, "status_index": 3, "credential_jwt": "g", "superseded_at": at},
    ]
    for values in refused:
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(insert(t.badges).values(id=uuid.uuid4(), **new_row, **values))

    _migrate(engine, "downgrade", "0002_trust_history")
    with engine.connect() as connection:
        left = connection.execute(
            text("SELECT assessment_id, status_index FROM badges ORDER BY status_index")
        ).all()
    assert [row[1] for row in left] == [0, 2]  # only the current credential of each assessment
    upgrade_to_head(engine)
    assert schema_differences(engine, metadata) == []


def test_0004_keys_events_stored_without_id_by_their_content(engine: Engine) -> None:
    """Why 4 on an existing database: keyless events stored before 0004 get their derived
    key, so re-sending them after the upgrade stores nothing; copies the old code stored
    twice keep one key; a keyed row's digest is computed from the row when needed."""
    import uuid
    from datetime import UTC, datetime

    from sqlalchemy import insert, select

    from aaaf.evidence.canonical import event_digest
    from aaaf.store import OrgStore
    from aaaf.store import tables as t
    from aaaf.store.event_writer import Stored

    from .factories import completed

    _migrate(engine, "upgrade", "0003_badge_credentials")
    at = datetime(2026, 4, 16, 12, 0, tzinfo=UTC)
    org_id, agent_id = uuid.uuid4(), uuid.uuid4()
    twice, once, keyed = completed("twice", at), completed("once", at), completed("keyed", at, key="k1")
    rows = [(twice, None), (twice, None), (once, None), (keyed, "k1")]
    with engine.begin() as connection:
        connection.execute(insert(t.organizations).values(id=org_id, name="o", domain_taxonomy=[]))
        connection.execute(
            insert(t.agents).values(
                id=agent_id, organization_id=org_id, name="a", claimed_domains=[], tools=[], metadata={}
            )
        )
        for event, key in rows:
            connection.execute(
                insert(t.events).values(
                    id=uuid.uuid4(),
                    agent_id=agent_id,
                    type=event.type,
                    task_id=event.task_id,
                    idempotency_key=key,
                    timestamp=event.timestamp,
                    data=dict(event.data),
                )
            )
    upgrade_to_head(engine)
    assert schema_differences(engine, metadata) == []
    with engine.connect() as connection:
        stored = connection.execute(
            select(t.events.c.task_id, t.events.c.idempotency_key, t.events.c.content_digest)
        ).all()
    digest = {e.task_id: event_digest(agent_id, e.type, e.timestamp, dict(e.data)) for e in (twice, once)}
    assert sorted((task, key or "", content or "") for task, key, content in stored) == sorted(
        [
            ("keyed", "k1", ""),
            ("once", digest["once"], digest["once"]),
            ("twice", digest["twice"], digest["twice"]),
            ("twice", "", ""),
        ]
    )
    org = OrgStore(engine, org_id)
    assert org.add_events([(agent_id, e) for e in (twice, once, keyed)]) == [Stored.DUPLICATE] * 3
    assert org.add_events([(agent_id, completed("other", at, key="k1"))]) == [Stored.CONFLICT]
    assert org.count_events(agent_id) == 4

    _migrate(engine, "downgrade", "0003_badge_credentials")
    with engine.connect() as connection:
        keys = connection.execute(text("SELECT idempotency_key FROM events")).scalars().all()
    assert sorted(key or "" for key in keys) == ["", "", "", "k1"]
    upgrade_to_head(engine)


def test_an_outdated_postgresql_schema_asks_for_db_upgrade_and_sqlite_upgrades_itself(
    engine: Engine, unmigrated_database_url: str
) -> None:
    """SCORING.md §7 "Databases": SQLite upgrades itself, PostgreSQL asks for `aaaf db upgrade`."""
    from typer.testing import CliRunner

    from aaaf.cli.main import app
    from aaaf.errors import AAAFError
    from aaaf.store import open_store

    _migrate(engine, "upgrade", "0003_badge_credentials")
    if engine.dialect.name == "sqlite":
        open_store(unmigrated_database_url).close()  # upgraded in place
    else:
        with pytest.raises(AAAFError) as outdated:
            open_store(unmigrated_database_url)
        assert outdated.value.code == "INVALID_REQUEST" and "aaaf db upgrade" in outdated.value.message
        refused = CliRunner().invoke(app, ["agents", "--db", unmigrated_database_url])
        assert refused.exit_code == 2 and "aaaf db upgrade" in refused.output
        upgraded = CliRunner().invoke(app, ["db", "upgrade", "--db", unmigrated_database_url])
        assert upgraded.exit_code == 0, upgraded.output
        open_store(unmigrated_database_url).close()
    with engine.connect() as connection:
        assert current_revisions(connection) == head_revisions()
