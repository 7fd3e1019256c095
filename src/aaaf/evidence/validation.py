"""Validate raw events into ``ValidEvent``s, every failure naming its field (SCORING.md §1).

The envelope (``id``, ``agent_id``/``agent``, ``type``, ``timestamp``, ``data``) is checked
by hand — it is small, and its rules (agent fallback, future tolerance, idempotency key)
are not pydantic's; the payload is checked by the strict shape of its type
(``aaaf.evidence.payloads``), whose compiled validator is built once at import — except a
well-formed ``task_assigned`` or ``task_completed``, which a plain check proves valid with the
same answer (``aaaf.evidence.fast_payloads``; anything else it leaves to the validator).  That
validator also rejects what JSON cannot carry — NaN, ±infinity, non-string keys, sets,
Python objects — anywhere, unknown fields included, since they are stored and may be
read later.  Only when it fails does a Python walk of ``data`` look for such a value, to
name it by its path (pydantic's path would run through the branches of the JSON union).

Codes (document 004 §6.4): an unknown ``type`` is ``INVALID_EVENT_TYPE``; everything else
is ``INVALID_REQUEST``.  Messages start with the field path:
``data.tools_used[0].successes: must be at most invocations (12), got 13``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeGuard

from pydantic import ValidationError

from aaaf.evidence.fast_payloads import fast_document
from aaaf.evidence.limits import DEFAULT_LIMITS, EventLimits, checked_data, text_problem
from aaaf.evidence.models import EventError, EventValidationError, ValidEvent, valid_event
from aaaf.evidence.payloads import PAYLOAD_ADAPTERS, RULE_ERROR, field_phrase, one_of_phrase, show_value
from aaaf.evidence.timestamps import parse_rfc3339, same_instant_in_postgres, timestamp_problem
from aaaf.evidence.vocabulary import EVIDENCE_EVENT_TYPES
from aaaf.evidence.warnings import quiet
from aaaf.scoring.results import iso

DEFAULT_FUTURE_TOLERANCE_SECONDS = 300.0  # SCORING.md §1: 5 minutes (config)

_PAYLOAD_VALIDATORS = {name: adapter.validator for name, adapter in PAYLOAD_ADAPTERS.items()}

_GENERIC_PHRASES: dict[str, str] = {
    "int_type": "an integer",
    "float_type": "a number",
    "string_type": "a string",
    "bool_type": "a boolean (true or false)",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "string_too_short": "a non-empty string",
    "finite_number": "a finite number",
    "container_type": "an object or a list",
}
_BOUND_PHRASES: dict[str, str] = {
    "greater_than_equal": "≥ {ge}",
    "greater_than": "> {gt}",
    "less_than_equal": "≤ {le}",
    "less_than": "< {lt}",
}


def _invalid(field: str | None, message: str, problems: list[str] | None = None) -> EventValidationError:
    text = f"{field}: {message}" if field else message
    return EventValidationError("INVALID_REQUEST", field, text, problems)


def _path(location: Sequence[str | int]) -> str:
    return "data" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in location)


def _payload_problems(event_type: str, error: ValidationError) -> list[tuple[str, str]]:
    """Translate pydantic's errors into (field path, "must be …, got …") pairs."""
    problems: list[tuple[str, str]] = []
    for item in error.errors(include_url=False):
        location: list[str | int] = list(item["loc"])
        context = item.get("ctx") or {}
        kind = item["type"]
        if kind == "missing":
            message = "Missing required field"
        elif kind == RULE_ERROR:
            if "field" in context:
                location.append(context["field"])
            message = str(context["message"])
        else:
            phrase = field_phrase(event_type, location)
            if phrase is None:
                if kind == "literal_error":
                    phrase = f"one of {context.get('expected')}"
                elif kind in _BOUND_PHRASES:
                    bounds = {
                        name: f"{value:g}"
                        for name, value in context.items()
                        if isinstance(value, float | int)
                    }
                    phrase = _BOUND_PHRASES[kind].format(**bounds)
                else:
                    phrase = _GENERIC_PHRASES.get(kind, item["msg"])
            message = f"must be {phrase}, got {show_value(item['input'])}"
        problems.append((_path(location), message))
    return problems


def _first_unstorable(node: dict[Any, Any] | list[Any]) -> tuple[list[str | int], str] | None:
    """The path to the first value JSON cannot carry faithfully, and why (SCORING.md §1:
    non-finite numbers are rejected anywhere, so are values the store could not write)."""
    pairs: Iterable[tuple[Any, Any]] = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in pairs:
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            continue
        if isinstance(value, float):
            if math.isfinite(value):
                continue
            return [key], f"must be a finite number, got {show_value(float(value))}"
        if kind is dict or kind is list:
            if kind is dict:
                for inner_key in value:
                    if type(inner_key) is not str:
                        return [key], f"object keys must be strings, got {show_value(inner_key)}"
            found = _first_unstorable(value)
            if found is not None:
                found[0].insert(0, key)
                return found
            continue
        return [key], f"must be a JSON value, got {show_value(value)}"
    return None


def _plain_text(value: Any, max_chars: int) -> TypeGuard[str]:
    """Whether ``value`` is a non-empty ASCII string of at most ``max_chars`` without NUL:
    what :func:`text_problem` accepts, decided without the call (ids and names mostly are)."""
    return type(value) is str and 0 < len(value) <= max_chars and value.isascii() and "\x00" not in value


def _agent_of(raw: dict[str, Any], default_agent: str | None, limits: EventLimits) -> str:
    named_id = raw.get("agent_id")
    named = raw.get("agent")
    if named_id is not None and named is not None and named_id != named:
        raise _invalid("agent_id", f"agent_id {show_value(named_id)} and agent {show_value(named)} disagree")
    field = "agent_id" if named_id is not None or named is None else "agent"
    agent = named_id if named_id is not None else named
    if agent is None:
        if default_agent is None:
            raise _invalid(
                "agent_id", "Missing required field (no agent_id in the event and no default agent)"
            )
        return default_agent
    if type(agent) is not str or not agent:
        raise _invalid(field, f"must be a non-empty string, got {show_value(agent)}")
    problem = text_problem(agent, max_chars=limits.id_chars)
    if problem is not None:
        raise _invalid(field, problem)
    return agent


def _timestamp_of(raw: dict[str, Any]) -> datetime:
    if "timestamp" not in raw:
        raise _invalid("timestamp", "Missing required field")
    value = raw["timestamp"]
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise _invalid("timestamp", "must be timezone-aware, got a naive datetime")
        try:
            return value.astimezone(UTC)
        except OverflowError:  # year 1 at +05:00 is in year 0 in UTC: parse_rfc3339's "out of range"
            raise _invalid("timestamp", timestamp_problem(show_value(value), "out of range")) from None
    if type(value) is not str:
        raise _invalid("timestamp", timestamp_problem(show_value(value), "not a string"))
    try:
        return parse_rfc3339(value)
    except ValueError as reason:
        raise _invalid("timestamp", timestamp_problem(show_value(value), str(reason))) from None


def _checked_payload(
    event_type: str, validator: Any, data: dict[str, Any], limits: EventLimits
) -> bytes | None:
    """The full check of ``data``: the storage limits, then the payload's shape; its JSON
    when the limits' one orjson pass wrote it.  Raises the event's first problem."""
    unstorable_text, data_json = checked_data(data, limits)
    if unstorable_text is not None:
        raise _invalid(*unstorable_text)
    try:
        validator.validate_python(data)
    except ValidationError as error:
        # What JSON cannot carry is reported first, by its own path (pydantic's path
        # through the JsonData union names union branches, not fields).
        unstorable = _first_unstorable({"data": data})
        if unstorable is not None:
            location, message = unstorable
            raise _invalid(_path(location[1:]), message) from None
        problems = _payload_problems(event_type, error)
        texts = [f"{path}: {message}" for path, message in problems]
        raise EventValidationError("INVALID_REQUEST", problems[0][0], texts[0], texts) from None
    return data_json


def _validate(
    raw: Any,
    latest_allowed: datetime,
    now: datetime,
    tolerance_seconds: float,
    default_agent: str | None,
    limits: EventLimits = DEFAULT_LIMITS,
    words: tuple[frozenset[str], frozenset[str]] | None = None,
) -> ValidEvent:
    if not isinstance(raw, dict):
        raise _invalid(None, f"event must be a JSON object, got {show_value(raw)}")

    event_type = raw.get("type")
    if event_type is None:
        raise _invalid("type", "Missing required field")
    if type(event_type) is not str:
        raise _invalid("type", f"must be a string, got {show_value(event_type)}")
    validator = _PAYLOAD_VALIDATORS.get(event_type)
    if validator is None:
        raise EventValidationError(
            "INVALID_EVENT_TYPE",
            "type",
            f"type: Invalid event type {show_value(event_type)} (must be {one_of_phrase(EVIDENCE_EVENT_TYPES)})",
        )

    agent = raw.get("agent_id")
    if agent is None:  # a task log's `agent` name checked inline: ~3 % of collect's CPU
        named = raw.get("agent")
        agent = named if _plain_text(named, limits.id_chars) else _agent_of(raw, default_agent, limits)
    elif (
        type(agent) is not str or not agent or "agent" in raw or len(agent) > 36 or not agent.isascii()
    ):  # the common case (a UUID) skips the call
        agent = _agent_of(raw, default_agent, limits)
    elif "\x00" in agent:
        raise _invalid("agent_id", text_problem(agent) or "")

    key = raw.get("id")
    if key is not None and not _plain_text(key, limits.id_chars):
        if type(key) is not str or not key:
            raise _invalid("id", f"must be a non-empty string (the idempotency key), got {show_value(key)}")
        problem = text_problem(key, max_chars=limits.id_chars)
        if problem is not None:
            raise _invalid("id", problem)

    timestamp = _timestamp_of(raw)
    if timestamp > latest_allowed:
        raise _invalid(
            "timestamp",
            f"Timestamp in future ({iso(timestamp)} is more than {tolerance_seconds:g} s after {iso(now)})",
        )

    if "data" not in raw:
        raise _invalid("data", "Missing required field")
    data = raw["data"]
    if not isinstance(data, dict):
        raise _invalid("data", f"must be an object, got {show_value(data)}")
    # the commonest payloads, well formed, proven so by a plain check (aaaf.evidence.fast_payloads)
    stamp = raw["timestamp"]  # parsed by _timestamp_of when it is text
    data_json = fast_document(event_type, data, limits, stamp if type(stamp) is str else None)
    if data_json is not None:
        # no unknown field in the payload (the plain check counted them): the warnings' second pass over
        # the event is needed only when this says it has something to warn of (validating and looking for
        # warnings in bench_api's 1 000 events: 48.5 -> 46.0 M instructions, callgrind; ~2.3 % of the request)
        silent = words is not None and quiet(raw, data, words[0], words[1])  # no *words: a plain call
    else:
        data_json, silent = _checked_payload(event_type, validator, data, limits), False

    if event_type == "workflow_run":
        miner = data.get("miner")
        if miner is not None and miner != agent:
            raise _invalid(
                "data.miner",
                f"must equal the event's agent {show_value(agent)}, got {show_value(miner)} (docs/scoring.md §6)",
            )

    task_id = data.get("task_id")
    spelt = stamp if type(stamp) is str and same_instant_in_postgres(stamp) else None
    return valid_event(agent, event_type, timestamp, data, task_id, key, data_json, spelt, silent)


def _latest_allowed(now: datetime, future_tolerance_seconds: float) -> datetime:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone-aware")
    if not math.isfinite(future_tolerance_seconds) or future_tolerance_seconds < 0:
        raise ValueError(
            f"future_tolerance_seconds must be a finite number ≥ 0, got {future_tolerance_seconds}"
        )
    return now + timedelta(seconds=future_tolerance_seconds)


def validate_event(
    raw: Any,
    *,
    now: datetime,
    default_agent: str | None = None,
    future_tolerance_seconds: float = DEFAULT_FUTURE_TOLERANCE_SECONDS,
    limits: EventLimits = DEFAULT_LIMITS,
) -> ValidEvent:
    """Check one raw event against every rule of SCORING.md §1 and return it validated.

    ``now`` (timezone-aware) is the clock the future check compares with: a timestamp
    more than ``future_tolerance_seconds`` after it is rejected ("Timestamp in future");
    exactly at the tolerance is accepted.  ``default_agent`` is used when the event names
    no ``agent_id``/``agent`` (a task log whose agent the CLI gives).  ``limits`` bound
    ids and strings and refuse NUL characters and lone surrogates (``aaaf.evidence.limits``).

    Raises ``EventValidationError`` (``INVALID_EVENT_TYPE`` or ``INVALID_REQUEST``) whose
    ``field`` is the offending field's path.
    """
    latest_allowed = _latest_allowed(now, future_tolerance_seconds)
    return _validate(raw, latest_allowed, now, future_tolerance_seconds, default_agent, limits)


def event_validator(
    *,
    now: datetime,
    default_agent: str | None = None,
    future_tolerance_seconds: float = DEFAULT_FUTURE_TOLERANCE_SECONDS,
    limits: EventLimits = DEFAULT_LIMITS,
    words: tuple[frozenset[str], frozenset[str]] | None = None,
) -> Callable[[Any], ValidEvent]:
    """:func:`validate_event` with its settings bound once (the ingest hot path: the
    future bound is computed once per batch, not once per event).  With ``words``, the
    organization's taxonomy and checklist, an event is marked ``quiet`` when it has nothing
    to warn of (:func:`aaaf.evidence.warnings.quiet`)."""
    latest_allowed = _latest_allowed(now, future_tolerance_seconds)

    def validate(raw: Any) -> ValidEvent:
        return _validate(raw, latest_allowed, now, future_tolerance_seconds, default_agent, limits, words)

    return validate


def validate_batch(
    raws: Iterable[Any],
    *,
    now: datetime,
    default_agent: str | None = None,
    lines: Sequence[int] | None = None,
    future_tolerance_seconds: float = DEFAULT_FUTURE_TOLERANCE_SECONDS,
    limits: EventLimits = DEFAULT_LIMITS,
) -> tuple[list[tuple[int, ValidEvent]], list[EventError]]:
    """Validate a batch, keeping every valid event and reporting every invalid one.

    SCORING.md §1: one bad event does not sink the batch.  Returns ``(valid, errors)``:
    ``valid`` pairs each event with its 0-based index in ``raws``; each error carries
    that index and, when ``lines`` is given (``lines[i]`` is the file line of
    ``raws[i]``), the line — document 004 §6.2's batch error list.
    """
    latest_allowed = _latest_allowed(now, future_tolerance_seconds)
    valid: list[tuple[int, ValidEvent]] = []
    errors: list[EventError] = []
    for index, raw in enumerate(raws):
        if lines is not None and index >= len(lines):
            raise ValueError(f"lines has {len(lines)} entries but the batch has more events")
        try:
            valid.append(
                (index, _validate(raw, latest_allowed, now, future_tolerance_seconds, default_agent, limits))
            )
        except EventValidationError as error:
            errors.append(error.at(index, lines[index] if lines is not None else None))
    return valid, errors


def validate_stream(
    items: Iterable[tuple[int, Any]],
    *,
    now: datetime,
    default_agent: str | None = None,
    future_tolerance_seconds: float = DEFAULT_FUTURE_TOLERANCE_SECONDS,
    limits: EventLimits = DEFAULT_LIMITS,
) -> Iterator[tuple[int, ValidEvent] | EventError]:
    """Validate ``(line, raw event or EventError)`` pairs as they come, e.g. from
    ``collectors.task_logs.read_jsonl``, without holding the file in memory.

    Yields ``(index, ValidEvent)`` or an ``EventError`` carrying index and line; the index
    is the item's 0-based position in the stream.  Errors already produced upstream (a
    line that is not JSON) pass through unchanged.
    """
    latest_allowed = _latest_allowed(now, future_tolerance_seconds)
    for index, (line, raw) in enumerate(items):
        if isinstance(raw, EventError):
            yield raw
            continue
        outcome: tuple[int, ValidEvent] | EventError
        try:
            outcome = (
                index,
                _validate(raw, latest_allowed, now, future_tolerance_seconds, default_agent, limits),
            )
        except EventValidationError as error:
            outcome = error.at(index, line)
        yield outcome


__all__ = [
    "DEFAULT_FUTURE_TOLERANCE_SECONDS",
    "EventValidationError",
    "event_validator",
    "validate_batch",
    "validate_event",
    "validate_stream",
]
