"""JSON Schemas of the public shapes, as committed in ``docs/schemas/``.

``python scripts/gen_schemas.py`` writes them; ``tests/models/test_schemas.py`` fails when
a committed schema differs from its model.
"""

from __future__ import annotations

import json
from pathlib import Path

from aaaf.models import PUBLIC_SHAPES

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_of(name: str) -> dict[str, object]:
    """The JSON Schema (2020-12) of the public shape ``name``, as printed (``by_alias``)."""
    model = PUBLIC_SHAPES[name]
    body = model.model_json_schema(by_alias=True, mode="serialization")
    return {"$schema": SCHEMA_DIALECT, "$id": f"https://aaaf.dev/schemas/{name}.json", **body}


def schema_text(name: str) -> str:
    return json.dumps(schema_of(name), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(directory: Path) -> list[Path]:
    """Write every public shape's schema as ``directory/<name>.json``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in PUBLIC_SHAPES:
        path = directory / f"{name}.json"
        path.write_text(schema_text(name), encoding="utf-8")
        written.append(path)
    return written
