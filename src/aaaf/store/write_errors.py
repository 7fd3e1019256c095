"""Why the database refused a write: the event's values, or the database's state.

``aaaf collect`` splits a failed chunk and rejects the one event the database refused for
what it holds (a value out of range, a constraint, a row too large), but stops (exit 1) when
the database itself failed (locked, connection lost).  Telling the two apart reads the
driver's error — SQLSTATE on PostgreSQL, the primary result code on SQLite — so it lives in
the store, and no service needs to know a driver.
"""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError, StatementError

from aaaf.errors import AAAFError

# SQLSTATE classes that blame the row, not the server: data exception, integrity
# constraint violation, program limit exceeded (an index row too large)
_ROW_SQLSTATE_CLASSES = ("22", "23", "54")
# SQLite primary result codes that blame the row: TOOBIG, CONSTRAINT, MISMATCH
_ROW_SQLITE_CODES = frozenset({18, 19, 20})


def blames_the_event(error: Exception) -> bool:
    """Whether a failed insert was refused for what an event holds (split the chunk and
    reject that event) rather than for the database's state (stop: exit 1)."""
    if isinstance(error, AAAFError):
        return False
    if isinstance(error, ValueError | TypeError | OverflowError):
        return True
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return False
        original = error.orig
        state = getattr(original, "sqlstate", None)
        if isinstance(state, str):
            return state[:2] in _ROW_SQLSTATE_CLASSES
        if isinstance(original, sqlite3.Error):
            return (getattr(original, "sqlite_errorcode", 0) & 0xFF) in _ROW_SQLITE_CODES
        return False
    if isinstance(error, StatementError):  # a value the driver could not bind
        return isinstance(error.orig, ValueError | TypeError | OverflowError)
    return False
