"""Building the SQLAlchemy engine for SQLite or PostgreSQL.

SQLite is opened in WAL mode (readers never block the writer), with foreign keys on,
a busy timeout (a writer waits for another instead of failing at once) and
``synchronous=NORMAL`` (safe with WAL: a crash of the process loses nothing committed).
Write transactions begin with ``BEGIN IMMEDIATE`` so that two processes that both read
then write queue on the write lock instead of one failing with "database is locked"
half-way through; read transactions stay deferred so readers never queue.  A write
transaction is asked for with :func:`write_options`.
"""

from __future__ import annotations

import select
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import StaticPool

from aaaf.errors import AAAFError
from aaaf.store.types import dumps_json, loads_json

SQLITE_BUSY_TIMEOUT_MS = 30_000
# libpq otherwise waits on the operating system: with the database host gone from the network
# (no reset, no answer) a connection attempt hangs for minutes and a query already sent for up
# to ~15, so the API could not answer 503 in time (docs/scaling.md "Across hosts").  Values in
# the database URL's query take precedence.
POSTGRES_CONNECT_ARGS: dict[str, Any] = {
    "connect_timeout": 10,  # seconds
    "tcp_user_timeout": 10_000,  # milliseconds a sent packet may stay unacknowledged
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 5,
    "keepalives_count": 3,
}
WRITE_OPTION = "aaaf_write"
# A pooled PostgreSQL connection is pinged at checkout when it has idled longer than this, or
# when its socket has something to read (see _ping_when_in_doubt).
PING_AFTER_IDLE_SECONDS = 1.0
_CHECKED_IN_AT = "aaaf_checked_in_at"


def write_options() -> dict[str, Any]:
    """Execution options that make a connection's transaction a write (``BEGIN IMMEDIATE``)."""
    return {WRITE_OPTION: True}


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` URLs and route them through psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def build_engine(url: str) -> Engine:
    """The engine for ``url`` with the per-dialect settings above.

    A SQLite file whose folder does not exist is ``INVALID_REQUEST`` naming the folder.
    """
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    engine = create_engine(
        url,
        json_serializer=dumps_json,
        json_deserializer=loads_json,
        connect_args={k: v for k, v in POSTGRES_CONNECT_ARGS.items() if k not in parsed.query},
    )
    _ping_when_in_doubt(engine)
    return engine


def _ping_when_in_doubt(engine: Engine) -> None:
    """What ``pool_pre_ping`` does, without its round trip for a connection just used: a
    connection checked in less than ``PING_AFTER_IDLE_SECONDS`` ago whose socket has nothing
    to read is handed out as it is; any other is pinged first, and when the ping finds the
    database gone every pooled connection is replaced (what a failed pre-ping does).

    A backend that was terminated or whose server stopped or crashed has written its last
    message or closed its socket, so its socket is readable: such a connection is always
    pinged.  A connection to a host that vanished from the network without a word looks
    quiet; it was in use a moment ago, and its first statement fails within the TCP timeouts
    (POSTGRES_CONNECT_ARGS), answered 503 like a failed ping.  The ping was one of a batch
    request's six round trips."""
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _checked_in(dbapi_connection: Any, record: Any) -> None:
        if dbapi_connection is not None:
            record.info[_CHECKED_IN_AT] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        checked_in_at = record.info.get(_CHECKED_IN_AT)
        if checked_in_at is None:
            return  # connected for this checkout
        if time.monotonic() - checked_in_at < PING_AFTER_IDLE_SECONDS and quiet(dbapi_connection):
            return
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                raise exc.InvalidatePoolError() from error
            raise


def quiet(dbapi_connection: Any) -> bool:
    """Whether a psycopg connection is open, outside a transaction, with nothing to read."""
    pgconn = getattr(dbapi_connection, "pgconn", None)
    if pgconn is None or dbapi_connection.closed or dbapi_connection.broken:
        return False
    try:
        if pgconn.transaction_status != 0:  # PQTRANS_IDLE
            return False
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except Exception:  # no socket any more: in doubt
        return False


def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    database = parsed.database or ""
    in_memory = database in ("", ":memory:") or parsed.query.get("mode") == "memory"
    kwargs: dict[str, Any] = {"json_serializer": dumps_json, "json_deserializer": loads_json}
    if in_memory:
        # one shared connection, or every checkout would see a different empty database
        kwargs["poolclass"] = StaticPool
        kwargs["connect_args"] = {"check_same_thread": False}
    else:
        # SCORING.md §7 "Databases": a new SQLite file only in an existing folder — a
        # mistyped path must not silently create folders and an empty database
        folder = Path(database).expanduser().resolve().parent
        if not folder.is_dir():
            raise AAAFError(
                "INVALID_REQUEST",
                f"The folder {folder} of the database {database} does not exist; "
                "a new SQLite database is created only in an existing folder (check the path).",
                {"folder": str(folder)},
            )
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # let us issue BEGIN ourselves (pysqlite's implicit BEGIN is always deferred)
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        immediate = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


@contextmanager
def read_connection(engine: Engine) -> Iterator[Connection]:
    """A connection for reads: one deferred transaction.  On SQLite it is rolled back at the
    end.  On PostgreSQL it is ``READ ONLY`` (a write in it is refused: "cannot execute … in a
    read-only transaction") and a read that raised nothing ends with ``COMMIT``, the same round
    trip as ``ROLLBACK`` and the same effect for a read; psycopg forgets every prepared
    statement of the connection at a ``ROLLBACK`` (and sends ``DEALLOCATE ALL``), so with it
    a statement repeated on pooled connections rarely reached its prepared form.  A read that
    raised is still rolled back."""
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            yield connection
            return
        connection.execution_options(postgresql_readonly=True)
        yield connection
        if connection.in_transaction():
            connection.commit()


@contextmanager
def reading_on(source: Engine | Connection) -> Iterator[Connection]:
    """``source`` itself when it is a connection (the caller's open read), else a read
    connection of its own (:func:`read_connection`)."""
    if isinstance(source, Connection):
        yield source
        return
    with read_connection(source) as connection:
        yield connection


@contextmanager
def one_statement_read(engine: Engine) -> Iterator[Connection]:
    """A connection for a read of one statement.  On PostgreSQL it runs in autocommit: no
    ``BEGIN`` before it and no ``ROLLBACK`` after it, two round trips fewer, and under READ
    COMMITTED one statement sees the same either way.  On SQLite, :func:`read_connection`."""
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        yield connection


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A write transaction (``BEGIN IMMEDIATE`` on SQLite), committed unless an exception escapes."""
    with engine.connect() as connection:
        connection.execution_options(**write_options())
        with connection.begin():
            yield connection
