"""``GET /health`` (public, SCORING.md §7): the server answers and its database too."""

from __future__ import annotations

from functools import cache
from importlib.metadata import version
from typing import Any

from fastapi import APIRouter
from sqlalchemy import text

from aaaf.api.deps import StoreDep
from aaaf.api.models import Health

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Health, operation_id="health")
def health(store: StoreDep) -> dict[str, Any]:
    with store.engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    return {"status": "ok", "database": store.dialect, "version": _version()}


@cache
def _version() -> str:
    # read once: importlib.metadata scans sys.path on every call (7.5 % of a /health request's samples)
    return version("aaaf")
