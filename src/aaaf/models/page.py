"""One page of a list (docs/api.md "Pages"): ``{"items": [...], "next_cursor": "…" | null}``."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """One page of a list (docs/api.md)."""

    items: list[T]
    next_cursor: str | None
