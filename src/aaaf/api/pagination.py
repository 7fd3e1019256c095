"""Lists as SCORING.md §7 "Shapes" says: ``{"items": [...], "next_cursor": "…" | null}``.

``?limit=`` (default 100, at most 1 000) and ``?cursor=`` (the previous page's
``next_cursor``).  A cursor is opaque to clients: the URL-safe base64 of the sort key of
the last item returned, so a page starts right after it (keyset paging: an item added or
removed meanwhile does not shift later pages).
"""

from __future__ import annotations

import base64
import binascii
import json
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Annotated, TypeVar

from fastapi import Query
from pydantic import BaseModel

from aaaf.errors import AAAFError

DEFAULT_LIMIT = 100
MAX_LIMIT = 1_000

T = TypeVar("T")
PageT = TypeVar("PageT", bound=BaseModel)

LimitQuery = Annotated[
    int, Query(ge=1, le=MAX_LIMIT, description="Items per page (default 100, at most 1 000).")
]
CursorQuery = Annotated[str | None, Query(description="The previous page's `next_cursor`.")]


def encode_cursor(key: Sequence[str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(key)).encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> list[str] | None:
    """The sort key a cursor holds; ``INVALID_REQUEST`` naming ``cursor`` when it is not one."""
    if cursor is None or cursor == "":
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        key = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        key = None
    if not isinstance(key, list) or not all(isinstance(part, str) for part in key):
        raise AAAFError("INVALID_REQUEST", "cursor: not a cursor this server returned.", {"field": "cursor"})
    return key


def paginate(
    items: Sequence[T],
    *,
    key: Callable[[T], list[str]],
    cursor: str | None,
    limit: int,
    descending: bool = False,
    render: Callable[[T], object],
    page: type[PageT],
) -> PageT:
    """The page (``{"items", "next_cursor"}``, a ``page`` model whose items ``render`` gives) of
    ``items`` (already sorted by ``key``, ascending unless ``descending``) after ``cursor``."""
    after = decode_cursor(cursor)
    start = 0
    if after is not None:
        if descending:
            start = next((i for i, item in enumerate(items) if key(item) < after), len(items))
        else:
            start = next((i for i, item in enumerate(items) if key(item) > after), len(items))
    return _page(items[start : start + limit], start + limit < len(items), key, render, page)


def time_key(moment: datetime) -> str:
    """A timestamp as a cursor key part that sorts as the instant does (fixed width, UTC)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")


def keyset_page(
    rows: Sequence[T],
    *,
    limit: int,
    key: Callable[[T], list[str]],
    render: Callable[[T], object],
    page: type[PageT],
) -> PageT:
    """The page of rows a query read with ``LIMIT limit + 1`` after the cursor's key (paging
    in SQL, not in Python): the extra row only says that there is a next page."""
    return _page(rows[:limit], len(rows) > limit, key, render, page)


def _page(
    shown: Sequence[T],
    more: bool,
    key: Callable[[T], list[str]],
    render: Callable[[T], object],
    page: type[PageT],
) -> PageT:
    return page.model_validate(
        {
            "items": [render(item) for item in shown],
            "next_cursor": encode_cursor(key(shown[-1])) if more and shown else None,
        }
    )


def time_id_after(cursor: str | None) -> tuple[datetime, uuid.UUID] | None:
    """The ``(created_at, id)`` a :func:`time_key` + id cursor holds (``INVALID_REQUEST`` otherwise)."""
    key = decode_cursor(cursor)
    if key is None:
        return None
    try:
        if len(key) != 2:
            raise ValueError("not a (time, id) cursor")
        return datetime.fromisoformat(key[0]).replace(tzinfo=UTC), uuid.UUID(key[1])
    except ValueError:
        raise AAAFError(
            "INVALID_REQUEST", "cursor: not a cursor this server returned.", {"field": "cursor"}
        ) from None
