"""The SQL statements a store sends, for tests that count or inspect them: the one recorder
every such test uses."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event


@contextmanager
def _recording(source: Any, keep: Callable[[str, Any], None]) -> Iterator[None]:
    """``keep(statement, parameters)`` for each statement ``source`` sends inside the block:
    ``source`` is a store or an organization's repositories (their engine), an engine, or a
    plain ``sqlite3`` connection (its trace callback, which sees no parameters)."""
    if isinstance(source, sqlite3.Connection):
        source.set_trace_callback(lambda statement: keep(statement, None))
        try:
            yield
        finally:
            source.set_trace_callback(None)
        return
    engine = getattr(source, "engine", source)

    def sent(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        keep(statement, parameters)

    event.listen(engine, "before_cursor_execute", sent)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", sent)


@contextmanager
def statements(source: Any) -> Iterator[list[str]]:
    """Every statement ``source`` (see :func:`_recording`) sends inside the block, whitespace
    folded."""
    sent: list[str] = []
    with _recording(source, lambda statement, _parameters: sent.append(" ".join(statement.split()))):
        yield sent


@contextmanager
def statements_with_parameters(source: Any) -> Iterator[list[tuple[str, Any]]]:
    """Every statement ``source`` sends inside the block with its parameters, as sent (to be
    sent again, say under ``EXPLAIN``)."""
    sent: list[tuple[str, Any]] = []
    with _recording(source, lambda statement, parameters: sent.append((statement, parameters))):
        yield sent
