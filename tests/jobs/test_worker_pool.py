"""procrastinate's pool in a worker (:func:`aaaf.jobs.queue.build_app`): its connections run in
autocommit — each of procrastinate's queries one round trip, no ``BEGIN`` and ``COMMIT`` around
it — and one is pinged at checkout only when in doubt: a quiet connection is handed out as it
is, one whose backend was terminated is pinged and replaced before procrastinate sees it."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import psycopg_pool
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from aaaf.jobs import queue
from aaaf.jobs.queue import build_app

pytestmark = pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)


def _terminate(store_url: str, pid: int) -> None:
    admin = create_engine(store_url, poolclass=NullPool)
    try:
        with admin.connect() as connection:
            assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar_one()
            for _ in range(200):  # gone once the server lists it no more
                if not connection.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
                ).scalar_one():
                    break
                connection.execute(text("SELECT pg_sleep(0.01)"))
    finally:
        admin.dispose()


def test_the_pool_runs_in_autocommit_and_pings_only_when_in_doubt(
    store: Any, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pings: list[int] = []
    ping = psycopg_pool.AsyncConnectionPool.check_connection

    async def counted(connection: Any) -> None:
        pings.append(1)
        await ping(connection)

    monkeypatch.setattr(psycopg_pool.AsyncConnectionPool, "check_connection", staticmethod(counted))
    real_pool = getattr(queue, "_autocommit_pool", None)
    if real_pool is not None:  # one connection, so that the test knows which one it gets
        monkeypatch.setattr(
            queue, "_autocommit_pool", lambda **arguments: real_pool(**arguments, min_size=1, max_size=1)
        )
    app = build_app(store_url, lambda: store)

    async def backend(pool: Any) -> tuple[int, bool]:
        """The backend of the connection the pool hands out, and whether its query left it
        outside a transaction (autocommit)."""
        async with pool.connection() as connection:
            pid = (await (await connection.execute("SELECT pg_backend_pid()")).fetchone())[0]
            return pid, connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE

    async def run() -> tuple[list[tuple[int, bool]], int, tuple[int, bool], int]:
        async with app.open_async():
            pool = app.connector.pool  # type: ignore[attr-defined]
            await backend(pool)  # the pool's first connection, ready
            pings.clear()
            quiet = [await backend(pool) for _ in range(3)]
            pings_when_quiet = len(pings)
            _terminate(store_url, quiet[0][0])
            replaced = await backend(pool)
            return quiet, pings_when_quiet, replaced, len(pings)

    quiet, pings_when_quiet, replaced, all_pings = asyncio.run(run())
    assert [idle for _, idle in quiet] == [True] * 3  # old code: in a transaction (BEGIN ... COMMIT)
    assert pings_when_quiet == 0  # old code: 3, one at each checkout
    assert len({pid for pid, _ in quiet}) == 1
    assert replaced[0] != quiet[0][0] and all_pings == 1  # the terminated one pinged and replaced
