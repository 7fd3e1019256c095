"""Pooled PostgreSQL connections are pinged at checkout only when in doubt
(:func:`aaaf.store.engine._ping_when_in_doubt`): one checked in a moment ago with nothing to
read is handed out without a round trip; one whose backend was terminated meanwhile, or that
idled past ``PING_AFTER_IDLE_SECONDS``, is pinged, and a dead one is replaced before the
caller sees it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.pool import NullPool

from aaaf.store import engine as engine_module
from aaaf.store.engine import build_engine

pytestmark = pytest.mark.postgres
POSTGRES = [pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture()
def engine(store_url: str) -> Iterator[Engine]:
    built = build_engine(store_url)
    yield built
    built.dispose()


def _pings(engine: Engine) -> list[int]:
    """Counts the checkout pings (the dialect's ``do_ping``) from now on."""
    pings: list[int] = []
    real = engine.dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        pings.append(1)
        return real(dbapi_connection)

    engine.dialect.do_ping = counted  # type: ignore[method-assign]
    return pings


def _backend(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_a_connection_just_used_is_not_pinged(engine: Engine) -> None:
    first = _backend(engine)  # connected: nothing to ping
    pings = _pings(engine)
    assert [_backend(engine) for _ in range(5)] == [first] * 5
    assert pings == []


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_a_terminated_backend_is_replaced_at_checkout(engine: Engine, store_url: str) -> None:
    first = _backend(engine)
    admin = create_engine(store_url, poolclass=NullPool)
    try:
        with admin.connect() as connection:
            assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first}).scalar_one()
            # the backend has gone once the server lists it no more
            for _ in range(200):
                alive = connection.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": first}
                ).scalar_one()
                if not alive:
                    break
                connection.execute(text("SELECT pg_sleep(0.01)"))
    finally:
        admin.dispose()
    pings = _pings(engine)
    second = _backend(engine)  # no error: the dead connection was pinged and replaced
    assert second != first
    assert pings == [1]


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_a_connection_idle_too_long_is_pinged(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _backend(engine)
    monkeypatch.setattr(engine_module, "PING_AFTER_IDLE_SECONDS", 0.0)
    pings = _pings(engine)
    assert _backend(engine) == first
    assert pings == [1]


@pytest.mark.parametrize("store_url", POSTGRES, indirect=True)
def test_every_checkout_is_counted_once(engine: Engine) -> None:
    """The listeners run on each checkout from the pool, not on each statement."""
    _backend(engine)
    checkouts: list[int] = []
    event.listen(engine, "checkout", lambda *_: checkouts.append(1))
    pings = _pings(engine)
    with engine.connect() as connection:
        for _ in range(3):
            connection.execute(text("SELECT 1"))
    assert checkouts == [1] and pings == []
