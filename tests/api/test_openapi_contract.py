"""The committed ``openapi.json`` is the app's (issue 13 §6: the SDKs are generated from it).

Regenerate after changing a route: ``make regen`` (openapi.json, both SDKs, docs/schemas, the CLI index).
"""

from __future__ import annotations

import json
from pathlib import Path

from aaaf.api import openapi_document

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.json"


def test_committed_openapi_matches_the_app() -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert committed == openapi_document(), "openapi.json is stale: run `make regen`"


def test_operation_ids_are_stable_names_and_every_route_has_one() -> None:
    document = openapi_document()
    assert document["openapi"].startswith("3.1")
    ids = [
        operation["operationId"]
        for operations in document["paths"].values()
        for operation in operations.values()
    ]
    assert len(ids) == len(set(ids))
    # our own names (snake_case verbs), not FastAPI's generated path-derived ones
    assert all(op.replace("_", "").isalpha() and op == op.lower() for op in ids), ids
    assert {"create_organization", "create_events_batch", "create_assessment", "list_events"} <= set(ids)
    schemes = document["components"]["securitySchemes"]
    assert {"BearerKey", "ApiKeyHeader"} <= set(schemes)
