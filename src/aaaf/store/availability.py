"""Whether an error means "the database cannot be reached right now" (docs/jobs.md
"When the database goes away"; docs/api.md, 503 ``SERVICE_UNAVAILABLE``).

Such an error is transient: the request or job that met it is answered 503 with
``Retry-After`` (the API) or retried with backoff (a job), never recorded as a failure of the
work itself.  It is a lost or refused connection, a pool that could not hand one out in
time, or an operation the server cancelled while shutting down — wherever it sits in the
chain of causes (SQLAlchemy wraps psycopg's errors; procrastinate wraps them again).
"""

from __future__ import annotations

import psycopg
from sqlalchemy import exc as sa_exc

UNAVAILABLE_TYPES: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.TimeoutError,  # the pool had no connection to give within its timeout
    psycopg.OperationalError,
    psycopg.InterfaceError,
    ConnectionError,
)
"""The exception classes an unreachable database raises (the API maps each to 503)."""


def database_unavailable(error: BaseException) -> bool:
    """True when ``error`` or one of its causes says the database cannot be reached."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, UNAVAILABLE_TYPES):
            return True
        if isinstance(current, sa_exc.DBAPIError) and current.connection_invalidated:
            return True
        current = current.__cause__ or current.__context__
    return False
