"""Fixtures shared by every test package: a database on SQLite and on PostgreSQL.

* ``store_url`` — parametrised ``sqlite`` / ``postgresql``: the URL of a database of
  this test's own, schema at head, no rows.  Pass it to ``open_store`` or to the CLI's
  ``--db``.  (SQLite: a copy of a template file migrated once per session.  PostgreSQL: a
  schema migrated once per session — per xdist worker — made the connection's
  ``search_path``, emptied before each test; tests run one at a time per worker.)
* ``store`` — ``open_store(store_url)``, closed after the test.
* ``unmigrated_database_url`` — parametrised likewise: an empty database with no schema
  at all (a fresh SQLite path; a fresh PostgreSQL schema dropped after the test), for
  testing the migrations themselves.

PostgreSQL is ``AAAF_TEST_POSTGRES_URL`` (default: database ``aaaf_test`` of the local server,
created when missing).
When it cannot be reached the ``postgresql`` variants are skipped — unless the
environment variable ``CI`` is ``"true"``, where an unreachable server fails them: CI
must not pass by skipping half the matrix.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from aaaf.store import Store

# SCORING.md §7 "Secrets": a server database needs AAAF_SECRET_KEY in every process that
# signs (the test processes and the CLI subprocesses they start inherit this one); SQLite
# tests that check the generated key file pass their own settings
os.environ.setdefault("AAAF_SECRET_KEY", "dGVzdC1zZWNyZXQtb2YtdGhlLWFhYWYtdGVzdC1zdWl0ZS0zMmJ5dGVz")
# issue 14: the background loop of `aaaf serve` (webhook deliveries, duties) stays off in tests
# unless a test starts its server with it on (tests/api/test_webhooks_delivery.py)
os.environ.setdefault("AAAF_BACKGROUND_INTERVAL_SECONDS", "0")

# a plain postgresql:// URL is routed through psycopg 3, as open_store does
# (a database of the tests' own, created on first use, so that they never share one with anything)
POSTGRES_URL = os.environ.get(
    "AAAF_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/aaaf_test"
).replace("postgresql://", "postgresql+psycopg://", 1)
DIALECTS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@cache
def _postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used (asked once per session), or None when it can."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(POSTGRES_URL, poolclass=NullPool, connect_args={"connect_timeout": 3})
    try:
        _create_database_if_missing()
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:
        return f"PostgreSQL at {POSTGRES_URL} is unreachable: {error.__class__.__name__}: {error}"
    finally:
        engine.dispose()
    return None


def _create_database_if_missing() -> None:
    """Create the database of ``POSTGRES_URL`` through the server's ``postgres`` database when it
    does not exist yet (two xdist workers may race: the loser's "already exists" is fine)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.pool import NullPool

    url = make_url(POSTGRES_URL)
    maintenance = create_engine(
        url.set(database="postgres"),
        poolclass=NullPool,
        isolation_level="AUTOCOMMIT",
        connect_args={"connect_timeout": 3},
    )
    try:
        with maintenance.connect() as connection:
            exists = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": url.database}
            ).first()
            if exists is None:
                try:
                    connection.execute(text(f'CREATE DATABASE "{url.database}"'))
                except DBAPIError as error:  # created meanwhile by the other worker
                    if "already exists" not in str(error) and "pg_database_datname_index" not in str(error):
                        raise
    finally:
        maintenance.dispose()


def _require_postgres() -> None:
    problem = _postgres_problem()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(problem + " (CI=true: the PostgreSQL variant may not be skipped)")
    pytest.skip(problem)


class _PostgresSchema:
    """A schema of its own on the test server; connections of ``url`` use it."""

    def __init__(self) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url
        from sqlalchemy.pool import NullPool

        self.name = f"aaaf_test_{uuid.uuid4().hex[:16]}"
        self.admin = create_engine(POSTGRES_URL, poolclass=NullPool)
        with self.admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{self.name}"'))
        url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={self.name}"})
        self.url = url.render_as_string(hide_password=False)

    def drop(self) -> None:
        from sqlalchemy import text

        with self.admin.begin() as connection:
            connection.execute(text("SET LOCAL lock_timeout = '20s'"))
            connection.execute(text(f'DROP SCHEMA "{self.name}" CASCADE'))
        self.admin.dispose()


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per session; tests get copies."""
    from aaaf.store import open_store

    path = tmp_path_factory.mktemp("aaaf-template") / "aaaf.db"
    with open_store(f"sqlite:///{path}") as store, store.engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture(scope="session")
def _postgres_at_head() -> Iterator[Any]:
    """One PostgreSQL schema per session (per xdist worker), migrated to head."""
    _require_postgres()
    from aaaf.store import open_store

    schema = _PostgresSchema()
    open_store(schema.url).close()
    yield schema
    schema.drop()


def _empty_postgres(schema: Any) -> None:
    """Delete every row (children first), keeping the schema and its Alembic version."""
    from sqlalchemy import text

    from aaaf.store.tables import metadata

    with schema.admin.begin() as connection:
        connection.execute(text("SET LOCAL lock_timeout = '20s'"))
        connection.execute(text(f'SET LOCAL search_path = "{schema.name}"'))
        for table in reversed(metadata.sorted_tables):
            connection.execute(table.delete())
        # the job queue's rows (procrastinate, migration 0010), jobs' events before the jobs
        for name in (
            "procrastinate_events",
            "procrastinate_periodic_defers",
            "procrastinate_jobs",
            "procrastinate_workers",
        ):
            connection.execute(text(f"DELETE FROM {name}"))


def copy_sqlite_template(template: Path, target: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        source = template.with_name(template.name + suffix)
        if source.exists():
            shutil.copyfile(source, target.with_name(target.name + suffix))
    return target


@pytest.fixture()
def sqlite_at_head(_sqlite_template: Path, tmp_path: Path) -> Path:
    """``tmp_path / "aaaf.db"``: a SQLite file of this test's own at schema head with no rows,
    for tests that use SQLite alone (a CLI's ``--db``, an in-process app) and do not test
    creating or migrating a database.  A copy of the session's template: migrating a new file
    costs seconds, a copy milliseconds."""
    return copy_sqlite_template(_sqlite_template, tmp_path / "aaaf.db")


@pytest.fixture(params=DIALECTS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of this test's own at schema head with no rows, once per dialect."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("_sqlite_template")
        return f"sqlite:///{copy_sqlite_template(template, tmp_path / 'aaaf.db')}"
    schema = request.getfixturevalue("_postgres_at_head")
    _empty_postgres(schema)
    return str(schema.url)


@pytest.fixture()
def store(store_url: str) -> Iterator[Store]:
    """The store at ``store_url``, closed after the test."""
    from aaaf.store import open_store

    with open_store(store_url) as opened:
        yield opened


@pytest.fixture(params=DIALECTS)
def unmigrated_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database without any schema (for testing the migrations themselves)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    _require_postgres()
    schema = _PostgresSchema()
    try:
        yield schema.url
    finally:
        schema.drop()


# The longest tests (`--durations`, 2 workers), longest first.  `--dist worksteal` (the
# Makefile's) hands each worker one contiguous share of the collection and lets a worker that
# runs out take the other's last tests; so each share starts with its turn of these (dealt
# round-robin), and the run ends when the short tests run out rather than with the long ones
# queued behind each other on one worker.  Only the order changes; a test missing from this
# list merely starts later.
LONGEST_FIRST = (
    "tests/demo/test_readme_tour.py",
    "tests/graders/test_similarity.py::test_embedding_method_scores_meaning_not_wording",
    "tests/scoring/test_verdict_honesty.py",
    "tests/stress/test_suite_reference_agents.py",
    "tests/gate/test_agent_gate.py::test_a_failed_gate_fails_again_when_re_run",
    "tests/gate/test_action.py::test_the_script_gates_an_agent_and_promotes_on_request",
    "tests/gate/test_formats.py::test_inspect_logs_gate_both_ways",
    "tests/multihost/",
    "tests/outages/test_worker_database_outage.py",
    "tests/sdk_typescript/test_node_suite.py",
    "sdk/python/tests/test_sdk_server_killed.py",
    "tests/api/test_sigkill.py",
    "tests/api/test_stress_provenance.py::test_a_real_harness_run_counts_and_every_view_says_where_the_evidence_came_from",
    "tests/api/test_schemes.py::test_eval_runs_upload_list_get_and_compare_match_the_cli",
    "tests/api/test_health_queue.py::test_no_worker_is_degraded_and_said",
    "tests/test_public_api.py::test_aaaf_help_does_not_pay_for_scipy",
)


def _longest_first_shares(items: list[Any], rank: Any, workers: int) -> list[Any]:
    """``items`` as ``workers`` contiguous shares of the sizes worksteal cuts (the first gets
    ``len // workers``, each next one its share of the rest), each share starting with every
    ``workers``-th long test; the other tests keep their order."""
    long_items = sorted((item for item in items if rank(item) < len(LONGEST_FIRST)), key=rank)
    chosen = {id(item) for item in long_items}
    rest = iter([item for item in items if id(item) not in chosen])
    shares: list[Any] = []
    remaining = len(items)
    for worker in range(workers):
        size = remaining // (workers - worker)
        remaining -= size
        share = long_items[worker::workers]
        shares.extend(share)
        shares.extend(next(rest) for _ in range(max(0, size - len(share))))
    shares.extend(rest)
    return shares


@pytest.hookimpl(trylast=True)  # after `-m` and `-k` have deselected: the shares are of what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of ``LONGEST_FIRST`` first in each worker's share, in its order."""

    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
            len(LONGEST_FIRST),
        )

    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    items[:] = _longest_first_shares(list(items), rank, workers)
