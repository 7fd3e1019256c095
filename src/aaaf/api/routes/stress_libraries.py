"""Custom stress-task libraries over HTTP (issue 20 §3), thin over
:mod:`aaaf.services.stress_libraries`:

* ``POST /api/v1/stress-libraries`` (``admin``) — publish ``{name, version, visibility,
  description?, tasks, colleagues?, documents?}`` (the task format of document 004 §5.3,
  validated as ``--library DIR`` is; 400 ``INVALID_REQUEST`` naming the problem); a version
  is immutable (409 ``CONFLICT``); a ``shared`` library with a grader that runs code (a
  ``unit_tests`` check, a ``bash``/``python`` reference action) is refused naming the task
  and the grader;
* ``GET /api/v1/stress-libraries`` (``read``) — the organization's own and every shared
  library (a shared library never names its publisher);
* ``GET /api/v1/stress-libraries/{name}/{version}`` (``read``);
* ``POST /api/v1/stress-libraries/{name}/{version}/install`` (``admin``) — after it, the
  organization's stress runs include the library's tasks.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field

from aaaf.api.deps import Admin, Reader
from aaaf.api.models import Page, Request
from aaaf.api.pagination import CursorQuery, LimitQuery, paginate
from aaaf.models import StressLibrary
from aaaf.services import stress_libraries as library_service

router = APIRouter(prefix="/api/v1/stress-libraries", tags=["stress libraries"])


class LibraryUpload(Request):
    name: str = Field(min_length=1, max_length=64)
    version: str = Field(min_length=1, max_length=64)
    visibility: Literal["private", "shared"] = "private"
    description: str | None = Field(default=None, max_length=2000)
    tasks: list[dict[str, Any]] = Field(min_length=1, max_length=2000)
    colleagues: list[dict[str, Any]] = Field(default_factory=list, max_length=200)
    documents: dict[str, str] = Field(default_factory=dict)


def _key(item: StressLibrary) -> list[str]:
    return [item.name, item.version, "0" if item.owned else "1", item.digest]


@router.post("", status_code=201, response_model=StressLibrary, operation_id="publish_stress_library")
def publish_stress_library(body: LibraryUpload, org: Admin) -> StressLibrary:
    """Publish a library version (validated; immutable once published)."""
    published = library_service.publish_library(
        org,
        name=body.name,
        version=body.version,
        visibility=body.visibility,
        description=body.description,
        content={"colleagues": body.colleagues, "tasks": body.tasks},
        documents=body.documents,
    )
    return published


@router.get("", response_model=Page[StressLibrary], operation_id="list_stress_libraries")
def list_stress_libraries(
    org: Reader, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[StressLibrary]:
    """The organization's own libraries and every shared one (a page, by name and version)."""
    items = sorted(library_service.list_libraries(org), key=_key)
    return paginate(
        items, key=_key, cursor=cursor, limit=limit, render=lambda item: item, page=Page[StressLibrary]
    )


@router.get("/{name}/{version}", response_model=StressLibrary, operation_id="get_stress_library")
def get_stress_library(name: str, version: str, org: Reader) -> StressLibrary:
    return library_service.get_library(org, name, version)


@router.post("/{name}/{version}/install", response_model=StressLibrary, operation_id="install_stress_library")
def install_stress_library(name: str, version: str, org: Admin) -> StressLibrary:
    """Install a library (the organization's own or a shared one); its tasks join the organization's stress runs."""
    return library_service.install_library(org, name, version)
