"""``GET /health`` (public, SCORING.md §7): the server answers and its database too."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from sqlalchemy import text

from aaaf.api.deps import StoreDep
from aaaf.api.models import Health

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Health, operation_id="health")
def health(store: StoreDep) -> dict[str, Any]:
    from importlib.metadata import version

    with store.engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    return {"status": "ok", "database": store.dialect, "version": version("aaaf")}
