"""``GET /health`` (public, SCORING.md §7): the server answers, its database too, and whether
anybody runs the queued jobs (:mod:`aaaf.services.queue_health`; docs/jobs.md).

``status`` is ``ok``, or ``degraded`` with the ``reason`` when jobs wait and no worker was seen:
answered with HTTP 200 unless ``AAAF_HEALTH_DEGRADED_STATUS=503`` asks for 503.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from aaaf.api.deps import ContextDep, StoreDep
from aaaf.api.models import Health

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Health, operation_id="health")
def health(store: StoreDep, context: ContextDep) -> Health | JSONResponse:
    from aaaf.services.queue_health import queue_health

    judged = queue_health(store.engine, context)  # its query is the database's check too
    body = Health.model_validate(
        {
            "status": "degraded" if judged.degraded else "ok",
            "database": store.dialect,
            "version": _version(),
            "reason": judged.reason,
            "queue": judged.to_dict(),
        }
    )
    if judged.degraded and context.settings.health_degraded_status == 503:
        return JSONResponse(body.model_dump(mode="json"), status_code=503)
    return body


@cache
def _version() -> str:
    # read once: importlib.metadata scans sys.path on every call (7.5 % of a /health request's samples)
    return version("aaaf")
