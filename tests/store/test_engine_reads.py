"""A read connection on PostgreSQL (:func:`aaaf.store.engine.read_connection`) is a ``READ
ONLY`` transaction that ends with ``COMMIT``: a write in it is refused, and the statements it
repeats keep their prepared form (psycopg forgets them all at a ``ROLLBACK``)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, exc, insert, select, text

from aaaf.store import tables as t
from aaaf.store.engine import build_engine, read_connection, write_transaction

pytestmark = pytest.mark.postgres
POSTGRES = [pytest.param("postgresql", marks=pytest.mark.postgres)]
# psycopg prepares a statement at its sixth run on a connection (prepare_threshold 5)
RUNS = 8
_MARK = "aaaf_read_mark"


@pytest.fixture()
def engine(store_url: str) -> Iterator[Engine]:
    built = build_engine(store_url)
    yield built
    built.dispose()


def _prepared(engine: Engine) -> int:
    with read_connection(engine) as connection:
        return int(
            connection.execute(
                text("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE :mark"),
                {"mark": f"%{_MARK}%"},
            ).scalar_one()
        )


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_a_statement_repeated_in_reads_is_prepared(engine: Engine) -> None:
    backends = set()
    for run in range(RUNS):
        with read_connection(engine) as connection:
            backends.add(
                connection.execute(text(f"SELECT pg_backend_pid(), :n AS {_MARK}"), {"n": run}).one()[0]
            )
    assert len(backends) == 1  # one pooled connection throughout
    assert _prepared(engine) == 1  # old code (ROLLBACK at each read's end): 0


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_a_write_in_a_read_connection_is_refused(engine: Engine) -> None:
    name = f"read-only-{uuid.uuid4().hex[:8]}"
    row = {"id": uuid.uuid4(), "name": name, "domain_taxonomy": []}
    with pytest.raises(exc.DBAPIError, match="read-only transaction"), read_connection(engine) as connection:
        connection.execute(insert(t.organizations).values(**row))
    with read_connection(engine) as connection:
        assert (
            connection.execute(select(t.organizations.c.id).where(t.organizations.c.name == name)).all() == []
        )
    # the pooled connection writes again in a write transaction (its read-only mode was reset)
    with write_transaction(engine) as connection:
        connection.execute(insert(t.organizations).values(**row))
    with read_connection(engine) as connection:
        assert connection.execute(
            select(t.organizations.c.id).where(t.organizations.c.name == name)
        ).all() == [(row["id"],)]


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_a_read_that_raised_is_rolled_back(engine: Engine) -> None:
    with pytest.raises(exc.DBAPIError), read_connection(engine) as connection:
        connection.execute(text("SELECT 1 / 0"))
    with read_connection(engine) as connection:
        assert connection.execute(text("SELECT 1")).scalar_one() == 1
