"""``/docs``: Swagger UI with its assets served by this server, never from a CDN (SCORING.md
§7 "Public routes"; many companies' machines reach no CDN).

The assets are the ones the ``fastapi-offline`` package ships; the online validator badge
(which would call out to validator.swagger.io) is switched off.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_PATH = "/docs/assets"


def assets_directory() -> Path:
    import fastapi_offline

    return Path(fastapi_offline.__file__).resolve().parent / "static"


def install_docs(app: FastAPI) -> None:
    app.mount(ASSETS_PATH, StaticFiles(directory=assets_directory()), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} — API reference",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},
        )
