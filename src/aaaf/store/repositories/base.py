"""What every organization-scoped repository shares (issue 10 §2): the organization's id, the
engine, the unit of work, and the helpers every concept uses.

A row of another organization is indistinguishable from a missing one (``NOT_FOUND``),
so a tenant can neither read nor probe another's agents, assessments or badges.
Everything returned is a frozen dataclass of :mod:`aaaf.store.records`.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Self

from sqlalchemy import Connection, Engine, Row, select

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.records import (
    Organization,
)
from aaaf.store.row_mapping import record_from_row

AgentRef = uuid.UUID | str


def now_utc() -> datetime:
    """The system clock (timezone-aware UTC): the default of a store opened without one."""
    return datetime.now(UTC)


Clock = Callable[[], datetime]


def as_uuid(value: uuid.UUID | str | None) -> uuid.UUID | None:
    """A UUID from a UUID or its text, None when the text is not one (then nothing matches)."""
    if value is None or isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def not_found(kind: str, ref: object) -> AAAFError:
    return AAAFError("NOT_FOUND", f"{kind} {ref} not found.", {"resource": kind.lower(), "id": str(ref)})


def check_agent_name(name: object) -> str:
    """``name`` as stored (NFKC-normalised, :func:`aaaf.names.name_key`) once it is a
    non-empty string within the id limit, without NUL, lone surrogates or invisible and
    direction-changing characters (issue 21: the same on SQLite and PostgreSQL;
    ``Settings.event_max_id_chars``; docs/security.md "Names")."""
    if not isinstance(name, str) or not name.strip():
        raise AAAFError("INVALID_REQUEST", "An agent needs a non-empty name.", {"field": "name"})
    from aaaf.evidence.limits import printable, text_problem
    from aaaf.names import name_key, name_problem
    from aaaf.settings import get_settings

    problem = text_problem(name, max_chars=get_settings().event_max_id_chars) or name_problem(name)
    if problem is not None:
        raise AAAFError(
            "INVALID_REQUEST", f"agent name {printable(name, 60)!r} {problem}.", {"field": "name"}
        )
    return name_key(name)


def check_one_of(field: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Invalid {field} {value!r}; expected one of {', '.join(allowed)}.",
            {"field": field, "value": value, "allowed": list(allowed)},
        )


def organization_from_row(row: Row[Any]) -> Organization:
    return record_from_row(Organization, row)


class OrgScoped:
    """What every repository of one organization shares: the engine, the organization's id
    and the transaction the repositories run in.

    Cheap to create (it holds the engine and the organization's id).  Every method runs in
    its own transaction, or in the unit of work's when the scope is bound to one
    (:meth:`unit_of_work`).
    """

    def __init__(self, engine: Engine, organization_id: uuid.UUID, *, clock: Clock | None = None) -> None:
        self._engine = engine
        self.organization_id = organization_id
        #: the time of the rows it stamps (``created_at``, ``updated_at``): the store's clock
        self._clock: Clock = clock or now_utc
        self._bound: Connection | None = None
        self._shared_read: Connection | None = None
        #: rows read once in the shared read transaction (:meth:`reading_together`), by kind and key
        self._read_once: dict[tuple[str, str], Any] | None = None

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """The unit of work's connection, else the shared read connection
        (:meth:`reading_together`), else a read connection of its own."""
        if self._bound is not None:
            yield self._bound
            return
        if self._shared_read is not None:
            yield self._shared_read
            return
        with read_connection(self._engine) as connection:
            yield connection

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read with, for the store's readers that take one (the benchmark
        cells): the unit of work's or the shared read's when this scope has one — so that a
        page never holds a second pooled connection while it holds the first — else one of
        its own."""
        with self._reading() as connection:
            yield connection

    @contextmanager
    def reading_together(self) -> Iterator[Self]:
        """This scope with every read in the block on one read connection, in one read
        transaction: one pool checkout for a page's reads.  On PostgreSQL each read of its own
        costs a pool ping and a ROLLBACK besides its statements, two round trips (the agent
        page made 19 reads).  Writes still run in a transaction of their own (or the unit of
        work's), never in the shared read transaction.  An agent's row and the configuration are
        read once in it (the agent page looked its agent up seven times)."""
        if self._bound is not None or self._shared_read is not None:
            yield self
            return
        with read_connection(self._engine) as connection:
            shared = copy.copy(self)
            shared._shared_read = connection
            shared._read_once = {}
            yield shared

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A savepoint in the unit of work's transaction (so that a failed write can be
        retried without losing the rest), else a write transaction of its own."""
        if self._bound is not None:
            with self._bound.begin_nested():
                yield self._bound
            return
        with write_transaction(self._engine) as connection:
            yield connection

    @contextmanager
    def unit_of_work(self) -> Iterator[Self]:
        """This scope bound to one write transaction: everything written through it commits
        together when the block ends, or nothing does (an exception rolls it all back).
        Nested calls join the outer unit of work."""
        if self._bound is not None:
            yield self
            return
        with write_transaction(self._engine) as connection:
            bound = copy.copy(self)
            bound._bound = connection
            yield bound

    def __repr__(self) -> str:
        return f"OrgStore(organization_id={self.organization_id})"

    @property
    def engine(self) -> Engine:
        """The engine this scope runs on (for batch writers and worker processes)."""
        return self._engine

    def organization(self) -> Organization:
        """This organization."""
        with self._reading() as connection:
            row = connection.execute(
                select(t.organizations).where(t.organizations.c.id == self.organization_id)
            ).one_or_none()
        if row is None:
            raise not_found("Organization", self.organization_id)
        return organization_from_row(row)
