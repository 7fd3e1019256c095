"""The SQL statements a store sends, for tests that count or inspect them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event


@contextmanager
def statements(store: Any) -> Iterator[list[str]]:
    """Every statement ``store``'s engine sends inside the block, whitespace folded."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
