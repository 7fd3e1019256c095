"""A plain check of the commonest well-formed payloads: proves them valid without pydantic.

SCORING.md §1: ``tool_invoked``, ``task_assigned``, ``task_completed`` and
``delegation_decision`` are most of the evidence a batch carries.  For them, :func:`fast_document` checks the fields by their exact JSON types and
ranges, and answers the payload's JSON (orjson's, as :func:`aaaf.evidence.limits.checked_data`
writes it) only when both the storage limits (``aaaf.evidence.limits``) and the payload's
shape (``aaaf.evidence.payloads``) would accept it.  On any doubt — an unknown field, a field
it does not check by hand (``tools_used``, ``delegation_decisions``), an error item that is not
a string, a value of any other type, a bound not met — it answers None and the full check
runs, which also words the errors: so every error, and every accepted event, is what it was.

Exact because each condition here implies the strict validator's: an ``int`` (not ``bool``)
within its bounds, a ``float`` or ``int`` that is finite and within its bounds for a number, a
``str`` of the vocabulary for a closed word, a ``str`` RFC 3339 timestamp for ``assigned_at``,
a ``bool`` for a flag, a non-empty ``str`` for a text (``task_id``, ``tool``).
The limits: every integer here is checked within ±(2^53 − 1); orjson refuses a lone surrogate;
the JSON's length bounds every string's UTF-8 bytes; a NUL is written ``\\u0000`` (any match,
also a quoted backslash, goes to the full check); ``task_id`` gets the id limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import orjson

from aaaf.evidence.canonical import MAX_SAFE_INTEGER
from aaaf.evidence.limits import EventLimits
from aaaf.evidence.timestamps import parse_rfc3339
from aaaf.evidence.vocabulary import COMPLETION_STATUSES, DELEGATION_CHOICES

_ABSENT: Any = object()
_INF = math.inf
_MAX = MAX_SAFE_INTEGER
_STATUSES = frozenset(COMPLETION_STATUSES)
_CHOICES = frozenset(DELEGATION_CHOICES)

# task_assigned's and task_completed's fields are counted, not compared with a set of names: each
# known field present is checked, so the payload has no other when their count is its length
# (with find below for `in`: validating bench_api's 1 000-event batch 42.1 -> 39.1 M instructions, callgrind)
_DECISION_FIELDS = frozenset(
    {"task_id", "task_fragment", "decision", "delegate_to", "ground_truth", "optimal_delegate", "correct"}
)
# tool_invoked's fields, all required (ToolInvokedData)
_TOOL_FIELDS = ("task_id", "tool", "success", "unnecessary", "error_recovered")


def _document(data: dict[str, Any], max_bytes: int) -> bytes | None:
    """``data`` as orjson's JSON when it is within the storage limits (module docstring)."""
    try:
        text = orjson.dumps(data)
    except (orjson.JSONEncodeError, TypeError):
        return None
    # find, not `in`: bytes' `in` raises and clears a TypeError per call in CPython 3.11
    return text if len(text) <= max_bytes and text.find(b"\\u0000") == -1 else None


def _amount(value: Any) -> bool:
    """A finite number ≥ 0 (``Duration``, ``Money``)."""
    kind = type(value)
    return (kind is float and 0.0 <= value < _INF) or (kind is int and 0 <= value <= _MAX)


def _task_assigned(data: dict[str, Any], limits: EventLimits, parsed: str | None) -> bytes | None:
    task_id, level = data.get("task_id"), data.get("complexity_level")
    domain, assigned_at = data.get("domain"), data.get("assigned_at")
    if not (
        type(task_id) is str
        and 0 < len(task_id) <= limits.id_chars
        and type(level) is int
        and 1 <= level <= 5
        and type(domain) is str
        and domain
        and type(assigned_at) is str
    ):
        return None
    autonomy = data.get("autonomy_level", _ABSENT)
    if autonomy is _ABSENT:
        if len(data) != 4:  # an unknown field beside the four required
            return None
    elif not (len(data) == 5 and type(autonomy) is int and 0 <= autonomy <= 3):
        return None
    # the event's timestamp text, already parsed, is often the same: 44 600 -> 41 300 instructions
    # an event of bench_api's (half task_assigned, each assigned_at its timestamp), callgrind
    if assigned_at != parsed:
        try:
            parse_rfc3339(assigned_at)
        except ValueError:
            return None
    return _document(data, limits.string_bytes)


def _task_completed(data: dict[str, Any], limits: EventLimits, parsed: str | None) -> bytes | None:
    task_id, status, revisions = (
        data.get("task_id"),
        data.get("completion_status"),
        data.get("revision_count"),
    )
    errors = data.get("errors")
    if not (
        type(task_id) is str
        and 0 < len(task_id) <= limits.id_chars
        and type(status) is str
        and status in _STATUSES
        and _amount(data.get("time_to_complete_seconds", _ABSENT))
        and type(revisions) is int
        and 0 <= revisions <= _MAX
        and type(errors) is list
    ):
        return None
    for error in errors:
        if type(error) is not str:
            return None
    # the five required fields, then the optional ones present (tools_used and
    # delegation_decisions, not checked here, go to the full check as unknown ones do)
    if len(data) > 5 and _completed_options(data) != len(data) - 5:
        return None
    return _document(data, limits.string_bytes)


def _completed_options(data: dict[str, Any]) -> int:
    """How many of ``task_completed``'s optional fields are present, when those present are
    well formed; -1 when one is not."""
    get = data.get
    present = 0
    value = get("cost_usd", _ABSENT)
    if value is not _ABSENT:
        if not _amount(value):
            return -1
        present += 1
    value = get("budget_usd", _ABSENT)
    if value is not _ABSENT:
        if not _amount(value):
            return -1
        present += 1
    value = get("review_checklist", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not dict:
            return -1
        for item, passed in value.items():
            if type(item) is not str or type(passed) is not bool:
                return -1
        present += 1
    value = get("milestone_fraction", _ABSENT)
    if value is not _ABSENT:
        if not ((type(value) is float and 0.0 <= value <= 1.0) or (type(value) is int and 0 <= value <= 1)):
            return -1
        present += 1
    value = get("milestones", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not list:
            return -1
        for milestone in value:
            if not (
                type(milestone) is dict
                and len(milestone) == 2
                and type(milestone.get("name")) is str
                and type(milestone.get("passed")) is bool
            ):
                return -1
        present += 1
    value = get("domain", _ABSENT)
    if value is not _ABSENT:
        if not (type(value) is str and value):
            return -1
        present += 1
    value = get("complexity_level", _ABSENT)
    if value is not _ABSENT:
        if not (type(value) is int and 1 <= value <= 5):
            return -1
        present += 1
    value = get("autonomy_level", _ABSENT)
    if value is not _ABSENT:
        if not (type(value) is int and 0 <= value <= 3):
            return -1
        present += 1
    return present


# callgrind, synthetic.py's tool_invoked events: validate_event 51 100 -> 43 200 instructions an event
def _tool_invoked(data: dict[str, Any], limits: EventLimits, parsed: str | None) -> bytes | None:
    # five fields, each one of the five present and well typed: no unknown field, none missing
    task_id, tool, success, unnecessary, recovered = map(data.get, _TOOL_FIELDS)
    if not (
        len(data) == 5
        and type(task_id) is str
        and 0 < len(task_id) <= limits.id_chars
        and type(tool) is str
        and tool
        and type(success) is bool
        and type(unnecessary) is bool
        and type(recovered) is bool
    ):
        return None
    return _document(data, limits.string_bytes)


# callgrind, the 11 329 delegation_decision events of synthetic.py's 200 x 1 000 fleet: validate_event
# 516.6 -> 439.0 M instructions (45 600 -> 38 800 an event); a whole collect of that fleet, ids repeatable
# (benchmarks/count_collect_work.py): 32 287.7 -> 32 213.4 M, validation's saving alone (rows stored the same)
def _delegation_decision(data: dict[str, Any], limits: EventLimits, parsed: str | None) -> bytes | None:
    if not data.keys() <= _DECISION_FIELDS:
        return None
    task_id, fragment = data.get("task_id"), data.get("task_fragment")
    decision, truth = data.get("decision"), data.get("ground_truth")
    if not (
        type(task_id) is str
        and 0 < len(task_id) <= limits.id_chars
        and type(fragment) is str
        and fragment
        and type(decision) is str
        and decision in _CHOICES
        and type(truth) is str
        and truth in _CHOICES
    ):
        return None
    delegate, optimal = data.get("delegate_to"), data.get("optimal_delegate")  # absent or null: None
    # a delegation names its delegate (the shape's rule, worded by the full check)
    if delegate is None and decision == "delegate":
        return None
    if not (_name_or_null(delegate) and _name_or_null(optimal)):
        return None
    correct = data.get("correct", _ABSENT)
    if correct is not _ABSENT and type(correct) is not bool:
        return None
    return _document(data, limits.string_bytes)


def _name_or_null(value: Any) -> bool:
    """``NullableName``: a non-empty string or null."""
    return value is None or (type(value) is str and value != "")


# callgrind, bench_api's 1 000 events: validation 51 100 -> 44 600 instructions an event
# (~4.6 % of a 1 000-event POST /events/batch)
FAST_CHECKS: dict[str, Callable[[dict[str, Any], EventLimits, str | None], bytes | None]] = {
    "tool_invoked": _tool_invoked,
    "delegation_decision": _delegation_decision,
    "task_assigned": _task_assigned,
    "task_completed": _task_completed,
}


def fast_document(
    event_type: str, data: dict[str, Any], limits: EventLimits, parsed: str | None = None
) -> bytes | None:
    """``data``'s JSON when ``data`` is certainly a valid, storable payload of ``event_type``
    (module docstring); None when the full check must decide.  ``parsed`` is a text that
    :func:`aaaf.evidence.timestamps.parse_rfc3339` has already accepted (the event's own
    ``timestamp``): a payload timestamp equal to it is not parsed again."""
    check = FAST_CHECKS.get(event_type)
    if check is None or type(data) is not dict:
        return None
    return check(data, limits, parsed)


__all__ = ["FAST_CHECKS", "fast_document"]
