"""The ``issuer_keys`` table: named signing-key slots, private halves sealed (SCORING.md §7).

The store only keeps text: what is sealed, and how, is :mod:`aaaf.secret_box`'s business,
and building the key is the service's (:mod:`aaaf.services.issuer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction


@dataclass(frozen=True)
class StoredIssuerKey:
    name: str
    kid: str
    public_pem: str
    private_key_sealed: str
    created_at: datetime

    def __repr__(self) -> str:  # never the sealed private half, even in logs
        return f"StoredIssuerKey(name={self.name!r}, kid={self.kid!r})"


class IssuerKeys:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def get(self, name: str) -> StoredIssuerKey | None:
        with read_connection(self._engine) as connection:
            row = connection.execute(select(t.issuer_keys).where(t.issuer_keys.c.name == name)).one_or_none()
        return None if row is None else StoredIssuerKey(**row._asdict())

    def add_unless_present(self, key: StoredIssuerKey) -> StoredIssuerKey:
        """Store ``key`` in its slot unless the slot is taken; return the slot's key (ours,
        or the one another process stored first)."""
        try:
            with write_transaction(self._engine) as connection:
                connection.execute(insert(t.issuer_keys).values(**key.__dict__))
        except IntegrityError:
            pass
        stored = self.get(key.name)
        assert stored is not None
        return stored

    def public_keys(self) -> list[tuple[str, str]]:
        """Every stored key's (kid, public PEM): verification needs no secret."""
        with read_connection(self._engine) as connection:
            rows = connection.execute(
                select(t.issuer_keys.c.kid, t.issuer_keys.c.public_pem).order_by(t.issuer_keys.c.created_at)
            ).all()
        return [(row.kid, row.public_pem) for row in rows]
