"""What every table of the schema is declared on: the one ``MetaData`` with its constraint
naming convention, and the column and CHECK helpers (:mod:`aaaf.store.tables`,
:mod:`aaaf.store.tables_access`, :mod:`aaaf.store.tables_shared` and
:mod:`aaaf.store.tables_summary` declare their tables on it)."""

from __future__ import annotations

from sqlalchemy import Column, MetaData, func

from aaaf.store.types import UTCDateTime

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


def one_of(column: str, values: tuple[str, ...]) -> str:
    """SQL for a CHECK that ``column`` takes one of ``values`` (fixed literals only)."""
    quoted = ", ".join("'" + value.replace("'", "''") + "'" for value in values)
    return f"{column} IN ({quoted})"


def created_at_column() -> Column[object]:
    return Column("created_at", UTCDateTime(), nullable=False, server_default=func.current_timestamp())
