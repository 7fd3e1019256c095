"""The one way a database row becomes a record (issue 10 §2: "one way of mapping rows to records").

A record is a frozen dataclass whose fields are named as the table's columns.
:func:`record_from_row` reads each field from the row's column of the same name and
converts it by the field's declared type — ``tuple[...]`` → a tuple, ``Mapping[...]`` /
``dict[...]`` → a dict (a copy the record owns), ``bool`` → a bool (SQLite stores 0/1) — a
``None`` staying ``None`` where the type allows it.  What is not a column of the row (an
assessment's dimension rows, a joined name) is passed by keyword.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

R = TypeVar("R")

_CONVERTERS: dict[Any, Callable[[Any], Any]] = {tuple: tuple, Mapping: dict, dict: dict, bool: bool}


def _converter(annotation: Any) -> Callable[[Any], Any] | None:
    """The conversion a field of this declared type needs, ``None`` for none."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        convert = _converter(inner)
        if convert is None:
            return None
        return lambda value: None if value is None else convert(value)
    return _CONVERTERS.get(origin if origin is not None else annotation)


_FIELDS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _fields_of(record_type: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Each field's name and converter, worked out once per record type."""
    fields = _FIELDS.get(record_type)
    if fields is None:
        hints = typing.get_type_hints(record_type)
        fields = _FIELDS[record_type] = tuple(
            (field.name, _converter(hints[field.name])) for field in dataclasses.fields(record_type)
        )
    return fields


def record_from_row(record_type: type[R], row: Any, **given: Any) -> R:
    """``record_type`` from ``row``: each field from its column, converted by its type;
    ``given`` fields as they are (they need not be columns)."""
    columns = row._mapping  # by column name: a Row's attributes include its own methods
    values: dict[str, Any] = {}
    for name, convert in _fields_of(record_type):
        if name in given:
            values[name] = given[name]
        elif name in columns:
            value = columns[name]
            values[name] = value if convert is None else convert(value)
    return record_type(**values)
