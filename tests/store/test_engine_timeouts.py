"""A PostgreSQL connection gives up on a database host gone from the network (docs/scaling.md
"Across hosts"): libpq's connect and TCP timeouts are set unless the database URL sets its own.
The effect (503 within seconds instead of a request hanging for minutes) is shown with real
hosts in tests/multihost/test_hosts.py."""

from __future__ import annotations

import pytest

from aaaf.store.engine import POSTGRES_CONNECT_ARGS, build_engine
from tests.conftest import POSTGRES_URL, _require_postgres

pytestmark = pytest.mark.postgres


def _dsn(url: str) -> dict[str, str]:
    engine = build_engine(url)
    try:
        with engine.connect() as connection:
            dsn = connection.connection.dbapi_connection.info.dsn  # type: ignore[union-attr]
    finally:
        engine.dispose()
    return dict(part.split("=", 1) for part in dsn.split())


def test_connections_carry_the_timeouts_and_the_url_overrides_them() -> None:
    _require_postgres()
    defaults = _dsn(POSTGRES_URL)
    assert {name: defaults[name] for name in POSTGRES_CONNECT_ARGS} == {
        name: str(value) for name, value in POSTGRES_CONNECT_ARGS.items()
    }
    assert defaults["connect_timeout"] == "10" and defaults["tcp_user_timeout"] == "10000"
    separator = "&" if "?" in POSTGRES_URL else "?"
    chosen = _dsn(f"{POSTGRES_URL}{separator}connect_timeout=3&tcp_user_timeout=2500")
    assert chosen["connect_timeout"] == "3" and chosen["tcp_user_timeout"] == "2500"
    assert chosen["keepalives_idle"] == "30"
