"""A PostgreSQL database of the test's own, and the levers a site-reliability engineer pulls on
it (issue 34 §7): terminate every backend of that database (``pg_terminate_backend``), or stop
it accepting connections for a while (``ALLOW_CONNECTIONS false``) — nobody else's database
is touched."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from tests.conftest import POSTGRES_URL, _require_postgres


class OwnDatabase:
    """A fresh database at the schema head; ``url`` for the processes under test."""

    def __init__(self) -> None:
        self.name = f"aaaf_outage_{uuid.uuid4().hex[:12]}"
        self.admin = create_engine(POSTGRES_URL, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{self.name}"'))
        self.url = make_url(POSTGRES_URL).set(database=self.name).render_as_string(hide_password=False)

    def terminate_backends(self) -> int:
        """Terminate every connection to this database; how many there were."""
        with self.admin.connect() as connection:
            return len(
                connection.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": self.name},
                ).all()
            )

    def allow_connections(self, allowed: bool) -> None:
        with self.admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS {str(allowed).lower()}'))

    @contextmanager
    def down(self) -> Iterator[None]:
        """The database out of reach: no new connection, every open one terminated."""
        self.allow_connections(False)
        self.terminate_backends()
        try:
            yield
        finally:
            self.allow_connections(True)

    @contextmanager
    def terminating_every(self, seconds: float) -> Iterator[list[int]]:
        """Terminate this database's backends every ``seconds`` while the block runs; yields the
        list of how many each round terminated."""
        rounds: list[int] = []
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(seconds):
                rounds.append(self.terminate_backends())

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        try:
            yield rounds
        finally:
            stop.set()
            thread.join(30)

    def drop(self) -> None:
        self.allow_connections(True)
        for _ in range(20):
            self.terminate_backends()
            try:
                with self.admin.connect() as connection:
                    connection.execute(text(f'DROP DATABASE IF EXISTS "{self.name}"'))
                break
            except Exception:
                time.sleep(0.5)
        self.admin.dispose()


@pytest.fixture
def own_database() -> Iterator[OwnDatabase]:
    """A PostgreSQL database of this test's own, migrated to head, dropped afterwards."""
    _require_postgres()
    from aaaf.store import open_store

    database = OwnDatabase()
    try:
        open_store(database.url).close()
        yield database
    finally:
        database.drop()
