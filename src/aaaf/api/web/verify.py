"""The public verification page, ``GET /verify/{assessment_id}`` (HTML; issue 17; SCORING.md §7
"Public routes"; document 004 §4.5: badges link this page, not the JSON).

A thin shell over :func:`aaaf.services.badge_page.verification_page`, whose verdict is the
public verification's own (``GET /api/v1/badges/{id}/verify`` stays the JSON answer; there is
no content negotiation).  No key, no JavaScript, no CDN: one Jinja2 template and one
stylesheet served from the package.  An unknown or private badge gets a 404 page saying what
that means.  Neither route is part of the API, so neither appears in ``openapi.json``.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from aaaf.api.deps import ContextDep, NowDep, StoreDep
from aaaf.errors import AAAFError

router = APIRouter(include_in_schema=False)

# the verdict can change at any moment (a revocation): a page is never served from a cache
NO_STORE = {"Cache-Control": "no-store"}
STYLESHEET = "verify.css"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The pages' Jinja2 environment (templates under ``aaaf/api/web/templates``, autoescaped)."""
    return Environment(
        loader=PackageLoader("aaaf.api.web", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **values: Any) -> str:
    return environment().get_template(template).render(**values)


@lru_cache(maxsize=1)
def stylesheet() -> bytes:
    return files("aaaf.api.web").joinpath("static", STYLESHEET).read_bytes()


def page_origin(request: Request, settings: Any) -> str:
    """Where the page's links point: the configured public base URL, or — when none was
    configured (``AAAF_PUBLIC_BASE_URL`` unset) — the origin the page was requested at, so a
    stranger's ``curl`` and every link work from wherever the page is served."""
    if "public_base_url" in settings.model_fields_set:
        return str(settings.public_base_url).rstrip("/")
    return str(request.base_url).rstrip("/")


@router.get("/verify/{assessment_id}", response_class=HTMLResponse)
def verify_page(
    assessment_id: str, request: Request, store: StoreDep, now: NowDep, context: ContextDep
) -> HTMLResponse:
    """Whether the badge of ``assessment_id`` is genuine, in words and colour (public)."""
    from aaaf.services.badge_page import verification_page

    try:
        page = verification_page(store, assessment_id, now, base_url=page_origin(request, context.settings))
    except AAAFError as error:
        if error.code != "NOT_FOUND":
            raise
        body = render("verify/not_found.html", assessment_id=assessment_id)
        return HTMLResponse(body, status_code=404, headers=NO_STORE)
    return HTMLResponse(render("verify/page.html", page=page), headers=NO_STORE)


@router.get(f"/static/{STYLESHEET}")
def verify_stylesheet() -> Response:
    """The page's stylesheet, from the package (no CDN)."""
    return Response(stylesheet(), media_type="text/css", headers={"Cache-Control": "public, max-age=3600"})
