"""The ``dashboard_sessions`` table: signed-in browsers, recorded so that signing out ends a
session at once (docs/security.md "Sessions")."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Engine, insert, select, update

from aaaf.store import tables_access as t
from aaaf.store.engine import read_connection, write_transaction


def start_session(
    engine: Engine, organization_id: uuid.UUID, *, at: datetime, expires_at: datetime
) -> uuid.UUID:
    """Record a new session of ``organization_id``; its id (what the cookie names)."""
    session_id = uuid.uuid4()
    with write_transaction(engine) as connection:
        connection.execute(
            insert(t.dashboard_sessions).values(
                id=session_id, organization_id=organization_id, created_at=at, expires_at=expires_at
            )
        )
    return session_id


def session_is_live(engine: Engine, session_id: uuid.UUID, *, now: datetime) -> bool:
    """Whether the session exists, has not ended and has not expired."""
    table = t.dashboard_sessions
    with read_connection(engine) as connection:
        row = connection.execute(
            select(table.c.expires_at, table.c.ended_at).where(table.c.id == session_id)
        ).one_or_none()
    return row is not None and row.ended_at is None and row.expires_at > now


def end_session(engine: Engine, session_id: uuid.UUID, *, at: datetime) -> None:
    """End the session (signing out); a cookie naming it signs nobody in from now on."""
    table = t.dashboard_sessions
    with write_transaction(engine) as connection:
        connection.execute(
            update(table).where(table.c.id == session_id, table.c.ended_at.is_(None)).values(ended_at=at)
        )
