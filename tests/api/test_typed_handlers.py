"""Every route answers a public model, never a hand-built dict (docs/api.md "Shapes").

A handler is annotated to return a pydantic model (or a ``Response`` it builds itself: a
picture, a JWT, 204), so mypy checks what it returns; and every JSON success answer in the
OpenAPI document names its schema, so both SDKs type it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.responses import Response
from starlette.routing import BaseRoute

from aaaf.api import create_app, openapi_document


def _typed(annotation: Any) -> bool:
    """A model or a Response class, or a union of them (``dict[str, Any]`` is neither)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return all(_typed(part) for part in typing.get_args(annotation))
    if origin is not None:  # a parametrised generic: Page[Agent] is a class, dict[str, Any] is not
        return False
    return isinstance(annotation, type) and issubclass(annotation, BaseModel | Response)


def _api_routes(routes: Iterable[BaseRoute]) -> Iterator[APIRoute]:
    """Every route, through the routers included in the app."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _api_routes(included.routes)
        elif isinstance(route, APIRoute):
            yield route


#: handlers still answering a dict; this list may only shrink (it is empty now).
REMAINING: set[str] = set()


def _untyped_handlers(app: FastAPI) -> list[str]:
    untyped = []
    routes = list(_api_routes(app.routes))
    assert len(routes) > 60  # the walk found the routers' routes
    for route in routes:
        returns = typing.get_type_hints(route.endpoint).get("return")
        if not _typed(returns) and route.operation_id not in REMAINING:
            untyped.append(f"{route.path} {sorted(route.methods)}: {returns!r}")
    return untyped


def test_every_handler_returns_a_model_or_a_response() -> None:
    assert _untyped_handlers(create_app("sqlite://")) == []


def test_the_remaining_list_names_only_untyped_handlers() -> None:
    routes = {route.operation_id: route for route in _api_routes(create_app("sqlite://").routes)}
    for name in REMAINING:
        assert not _typed(typing.get_type_hints(routes[name].endpoint)["return"]), (
            f"{name} is typed now: drop it"
        )


def test_the_check_sees_a_dict_handler() -> None:
    app = FastAPI()

    @app.get("/typed")
    def typed() -> Response:
        return Response()

    @app.get("/untyped")
    def untyped() -> dict[str, Any]:
        return {}

    routes = {route.path: route for route in _api_routes(app.routes)}
    assert _typed(typing.get_type_hints(routes["/typed"].endpoint)["return"])
    assert not _typed(typing.get_type_hints(routes["/untyped"].endpoint)["return"])


def test_every_json_success_answer_names_its_schema() -> None:
    untyped = [
        f"{method.upper()} {path} {status}"
        for path, operations in openapi_document()["paths"].items()
        for method, operation in operations.items()
        for status, answer in operation["responses"].items()
        if status.startswith("2")
        for media, content in answer.get("content", {}).items()
        if media == "application/json" and not _names_a_schema(content.get("schema", {}))
    ]
    assert untyped == []


def _names_a_schema(schema: dict[str, Any]) -> bool:
    if "$ref" in schema:
        return True
    return bool(schema.get("anyOf")) and all(_names_a_schema(part) for part in schema["anyOf"])
