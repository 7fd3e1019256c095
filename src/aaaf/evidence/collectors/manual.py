"""Manual event entry: one event from command-line flags or from JSON text (document 004 §8,
phase 1 "manual_collector").

These functions only assemble the raw event of SCORING.md §1; validation stays in one
place (``aaaf.evidence.validation.validate_event``), so an event typed by hand meets
exactly the rules an event from a log or the API meets.  Problems with the text itself
(not JSON, not an object) are reported as ``EventValidationError`` naming the field, like
every other evidence problem.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from aaaf.evidence.models import EventValidationError
from aaaf.evidence.payloads import show_value
from aaaf.scoring.results import iso


def _json_object(text: str, field: str | None, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as problem:
        prefix = f"{field}: " if field else ""
        raise EventValidationError(
            "INVALID_REQUEST",
            field,
            f"{prefix}{what} is not valid JSON ({problem.msg} at line {problem.lineno} column {problem.colno})",
        ) from None
    if not isinstance(value, dict):
        prefix = f"{field}: " if field else ""
        raise EventValidationError(
            "INVALID_REQUEST", field, f"{prefix}{what} must be a JSON object, got {show_value(value)}"
        )
    return value


def event_from_flags(
    event_type: str,
    agent: str | None,
    timestamp: str | None,
    data_json: str | None,
    *,
    now: datetime,
    key: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    """The raw event for ``aaaf event add --type T --agent A [--timestamp TS] --data JSON``.

    ``timestamp`` defaults to ``now`` (an event entered by hand usually happened just
    now); ``data_json`` defaults to an empty object; ``task_id`` is a convenience that
    fills ``data.task_id`` (it must not contradict a ``task_id`` in the data); ``key`` is
    the idempotency key (the event's ``id``).  ``agent`` may be None when the caller
    validates with a default agent.  Validate the result with ``validate_event``.
    """
    data = _json_object(data_json, "data", "--data") if data_json is not None else {}
    if task_id is not None:
        if "task_id" in data and data["task_id"] != task_id:
            raise EventValidationError(
                "INVALID_REQUEST",
                "data.task_id",
                f"data.task_id: --task-id {show_value(task_id)} contradicts data.task_id "
                f"{show_value(data['task_id'])}",
            )
        data["task_id"] = task_id
    event: dict[str, Any] = {
        "type": event_type,
        "timestamp": timestamp if timestamp is not None else iso(now),
        "data": data,
    }
    if agent is not None:
        event["agent_id"] = agent
    if key is not None:
        event["id"] = key
    return event


def event_from_text(text: str) -> dict[str, Any]:
    """One raw event from JSON text (e.g. ``echo '{...}' | aaaf event add -``).

    The text must hold exactly one JSON object; validate it with ``validate_event``.
    """
    if not text.strip():
        raise EventValidationError("INVALID_REQUEST", None, "no event given: the input is empty")
    return _json_object(text, None, "the event")
