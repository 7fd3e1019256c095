"""Column types that mean the same thing on SQLite and PostgreSQL (SCORING.md §6).

* :class:`UTCDateTime` — ``TIMESTAMPTZ`` on PostgreSQL, ISO text on SQLite; always
  written as UTC and always read back timezone-aware UTC, so comparisons and ordering
  agree on both dialects and ``iso()`` emits 'Z'.
* :data:`JSONDocument` — ``json`` on PostgreSQL, JSON text on SQLite: the document is
  kept exactly as written on both.  Not ``JSONB`` (document 004 §7.2's type): JSONB
  re-orders keys, turns a float such as ``1e16`` into an integer and drops the sign of
  ``-0.0``, which would break SCORING.md §0 (byte-identical result JSON, unrounded
  floats) and §2.4 (unchallenged dimensions byte-identical after an appeal) on
  PostgreSQL only.  The store never queries inside a document, so JSONB's operators
  and indexes would buy nothing.
* :class:`TextArray` — ``TEXT[]`` on PostgreSQL, a JSON list on SQLite.
* :data:`Score` — ``double precision`` on PostgreSQL, ``REAL`` (8-byte IEEE) on SQLite:
  scores are stored unrounded so appeals can reproduce them bit for bit.

JSON is (de)serialised with orjson by the engine (see :mod:`aaaf.store.engine`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, DateTime, Double, Text
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

JSONDocument: TypeEngine[Any] = JSON()
Score: Double[float] = Double(53)


def json_default(value: Any) -> Any:
    """What orjson cannot serialise natively: read-only mappings (e.g. ``MappingProxyType``)."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def dumps_json(value: Any) -> str:
    """The engine's JSON serialiser: orjson, compact, str (what both drivers expect)."""
    return orjson.dumps(value, default=json_default).decode()


def loads_json(text: str | bytes) -> Any:
    return orjson.loads(text)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware timestamp stored as UTC.

    A naive datetime is refused: its instant would depend on the machine's zone.
    On SQLite the value is stored as naive UTC text (which sorts as time does) and
    given its UTC zone back when read; on PostgreSQL it is converted to UTC when read
    whatever the session's TimeZone.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: timestamps must carry a UTC offset")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utc_from_db(value: datetime | str | None) -> datetime | None:
    """Normalise a timestamp read through a raw column (fast paths that bypass UTCDateTime)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


class TextArray(TypeDecorator[list[str]]):
    """A list of strings: ``TEXT[]`` on PostgreSQL, a JSON list on SQLite."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(postgresql.ARRAY(Text()))
        return dialect.type_descriptor(JSON())

    def process_bind_param(self, value: Sequence[str] | None, dialect: Dialect) -> list[str] | None:
        if value is None:
            return None
        if isinstance(value, str):
            raise TypeError("a text array needs a sequence of strings, not one string")
        return [str(item) for item in value]

    def process_result_value(self, value: Any, dialect: Dialect) -> list[str] | None:
        if value is None:
            return None
        return [str(item) for item in value]
