"""JSON Schemas of the input events, one per event type, generated from the payload shapes the
validator itself uses (:data:`aaaf.evidence.payloads.PAYLOAD_SHAPES`), so they cannot drift
from what ``aaaf collect`` and ``POST /api/v1/events`` accept (docs/evidence-format.md).

``scripts/gen_schemas.py`` writes them into ``docs/schemas/events/`` and the table of fields of
docs/evidence-format.md; ``tests/models/test_event_schemas.py`` fails when either drifts.

A schema says the shape; a few rules need more than one field (``successes ≤ invocations``, a
delegate when delegating, a timestamp not in the future…) and are checked by the validator only,
named in the page.  Unknown fields are allowed (``additionalProperties``) and kept: producers can
add fields before any scorer reads them; ``aaaf collect`` warns about them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from aaaf.evidence.limits import DEFAULT_ID_CHARS
from aaaf.evidence.payloads import PAYLOAD_SHAPES

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
TABLE_START = "<!-- generated: the fields of each event type (scripts/gen_schemas.py) -->"
TABLE_END = "<!-- end of generated fields -->"

# what each type is for, in the page's words
PURPOSE: dict[str, str] = {
    "task_assigned": "a task given to the agent (its domain and complexity)",
    "task_completed": "how the task ended: status, time, revisions, errors, tools, checklist",
    "task_revised": "a revision the agent's work needed",
    "tool_invoked": "one tool call and whether it succeeded",
    "delegation_decision": "whether the agent did a task itself or delegated it, and to whom",
    "delegation_outcome": "how a delegated task turned out",
    "orchestration_plan": "a plan of sub-tasks the agent orchestrates",
    "orchestration_result": "how the orchestration went: failures injected, recovered",
    "eval_result": "one eval observation on a trust dimension (the trust score)",
    "workflow_run": "one run of a workflow (the workflow score)",
    "memory_operation": "a read or write of the agent's memory files",
    "task_audited": "an auditor's finding on one task (it replaces the self-reports)",
}


def _without_model_descriptions(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop the models' own docstrings (written for developers); keep the fields' phrases."""
    schema = dict(schema)
    schema.pop("description", None)
    definitions = {}
    for name, definition in (schema.get("$defs") or {}).items():
        definition = dict(definition)
        definition.pop("description", None)
        definitions[name] = definition
    if definitions:
        schema["$defs"] = definitions
    return schema


def event_schema(event_type: str) -> dict[str, Any]:
    """The JSON Schema (2020-12) of a whole event of ``event_type``: envelope and ``data``."""
    payload = _without_model_descriptions(TypeAdapter(PAYLOAD_SHAPES[event_type]).json_schema())
    definitions = payload.pop("$defs", {})
    definitions["Data"] = payload
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"https://aaaf.dev/schemas/events/{event_type}.json",
        "title": f"{event_type} event",
        "description": f"An AAAF evidence event: {PURPOSE[event_type]}.",
        "type": "object",
        "properties": {
            "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": DEFAULT_ID_CHARS,
                "description": "Your id of the event: re-sending it stores nothing new. Without one, the "
                "event's content identifies it.",
            },
            "agent": {"type": "string", "minLength": 1, "description": "The agent's name (or id)."},
            "agent_id": {"type": "string", "description": "The agent's id (instead of agent)."},
            "type": {"const": event_type},
            "timestamp": {
                "type": "string",
                "description": "When it happened: RFC 3339 with a time zone (2026-11-02T09:00:00Z), "
                "not in the future.",
            },
            "data": {"$ref": "#/$defs/Data"},
        },
        "required": ["type", "timestamp", "data"],
        "additionalProperties": True,
        "$defs": definitions,
    }


def schema_text(event_type: str) -> str:
    return json.dumps(event_schema(event_type), indent=2, ensure_ascii=False) + "\n"


def write_event_schemas(directory: Path) -> list[Path]:
    """Write ``directory/<type>.json`` for every event type; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for event_type in PAYLOAD_SHAPES:
        path = directory / f"{event_type}.json"
        path.write_text(schema_text(event_type), encoding="utf-8")
        written.append(path)
    return written


def _field_list(event_type: str) -> tuple[list[str], list[str]]:
    """(required, optional) ``data`` fields, as the schema says (the shapes' NotRequired marks)."""
    data = event_schema(event_type)["$defs"]["Data"]
    required = list(data.get("required", []))
    return required, [name for name in data.get("properties", {}) if name not in required]


def fields_table() -> str:
    """The page's generated table: each type, what it is for, its required and optional fields."""
    lines = [
        TABLE_START,
        "",
        "| type | what it records | required `data` fields | optional `data` fields | schema |",
        "|---|---|---|---|---|",
    ]
    for event_type in PAYLOAD_SHAPES:
        required, optional = _field_list(event_type)
        lines.append(
            f"| `{event_type}` | {PURPOSE[event_type]} | {', '.join(f'`{f}`' for f in required) or '—'} | "
            f"{', '.join(f'`{f}`' for f in optional) or '—'} | [{event_type}.json](schemas/events/{event_type}.json) |"
        )
    lines += ["", TABLE_END]
    return "\n".join(lines)


def page_with_table(page: str) -> str:
    """``page`` (docs/evidence-format.md) with its generated table replaced by the current one."""
    before, rest = page.split(TABLE_START, 1)
    after = rest.split(TABLE_END, 1)[1]
    return before + fields_table() + after
