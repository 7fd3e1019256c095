"""Running a caller's action inside the organization's write transaction (issue 14).

A triggered assessment and its job are recorded together: the job queue (procrastinate, on
PostgreSQL) inserts its job row on the very connection that inserts the ``pending``
assessment, so a server killed mid-trigger leaves both or neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection

from aaaf.store.repositories.base import OrgScoped

T = TypeVar("T")


class TransactionRepository(OrgScoped):
    """The write transaction of this scope, lent to an action."""

    def in_transaction(self, action: Callable[[Connection], T]) -> T:
        """``action(connection)`` in this scope's write transaction — the unit of work's when
        the scope is bound to one (a savepoint of it), else a transaction of its own."""
        with self._writing() as connection:
            return action(connection)
