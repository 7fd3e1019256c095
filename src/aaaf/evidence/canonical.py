"""The id of an event sent without one: SHA-256 of its RFC 8785 form (SCORING.md §1, 2026-11-23).

SCORING.md §1: an event without ``id`` gets the SHA-256 (hex) of the RFC 8785 (JSON
Canonicalization Scheme) form of ``{agent: the resolved agent's id, type, timestamp: the
instant in UTC with microseconds, data}``, so the same event sent by the CLI (agent by
name) and by the API (agent by id), with any timestamp spelling, is one event.  The same
digest of an event *with* an id is its content digest: a known id whose stored digest
differs is ``DUPLICATE_CONFLICT``.  Every front end calls :func:`event_digest`; the
instant is spelled by :func:`instant_text` (``YYYY-MM-DDTHH:MM:SS.ffffffZ``).

Pure: no I/O, no clock.  The ``rfc8785`` package is the reference; it costs ~45 µs per
event, so the common case — object keys all ASCII — is written by orjson with sorted keys
and each float pre-formatted as an ECMAScript number (:func:`es6_number`, RFC 8785
§3.2.2.3) through ``orjson.Fragment``; for ASCII keys and strings without lone surrogates
the two give the same bytes (a property test compares them).  Keys with other characters
go to ``rfc8785`` itself (it sorts by UTF-16 code units, orjson by code points).
"""

from __future__ import annotations

import hashlib
import math
import re
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import orjson
import rfc8785

# I-JSON (RFC 7493 §2.2), which RFC 8785 follows: integers beyond this are not exact as doubles
MAX_SAFE_INTEGER = 2**53 - 1


# Where orjson's output may differ from RFC 8785 for ASCII text: a float written ``1.0`` or
# with an exponent (ECMAScript writes ``1`` and uses exponents only outside 1e-7..1e21), or
# an integer of 16+ digits (maybe beyond ±(2^53 − 1)), a non-finite float (written null).  A match inside a string only sends
# the value down the exact path.  Plain decimals (``0.85``) are the same in both.  Three
# searches with literal prefixes are ~10x faster than one alternation.
_INTEGRAL_FLOAT = re.compile(rb"\.0(?![0-9])")
_EXPONENT = re.compile(rb"e[+-]?[0-9]")
_ALL_DIGITS_TO_9 = bytes.maketrans(b"012345678", b"999999999")
_SIXTEEN_DIGITS = b"9" * 16


def _orjson_may_differ(text: bytes) -> bool:
    return (
        not text.isascii()
        or b"null" in text  # orjson writes NaN and ±infinity as null
        or _INTEGRAL_FLOAT.search(text) is not None
        or _EXPONENT.search(text) is not None
        or _SIXTEEN_DIGITS in text.translate(_ALL_DIGITS_TO_9)
    )


class _NeedsReference(Exception):
    """A key that orjson would sort differently from RFC 8785 (not ASCII)."""


def instant_text(timestamp: datetime) -> str:
    """The instant in UTC with microseconds, ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (SCORING.md §1).

    ``2026-04-16T16:30:00+02:00`` and ``2026-04-16T14:30:00.000Z`` both give
    ``2026-04-16T14:30:00.000000Z``.  A naive datetime is refused (its instant is unknown).
    """
    if timestamp.tzinfo is None or timestamp.utcoffset() is None:
        raise ValueError("timestamp must be timezone-aware")
    if timestamp.tzinfo is not UTC:
        timestamp = timestamp.astimezone(UTC)
    return timestamp.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def es6_number(value: float) -> str:
    """A finite float as ECMAScript's Number.prototype.toString writes it (RFC 8785 §3.2.2.3).

    The digits are the shortest that round-trip (Python's ``repr`` gives the same ones);
    the layout is ECMA-262's: plain for 1e-7 < |x| < 1e21, else ``d.ddde±n``.
    """
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    text = repr(abs(value))
    mantissa, _, exponent_text = text.partition("e")
    exponent = int(exponent_text) if exponent_text else 0
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + exponent  # value = 0.<digits> × 10^point
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= point <= 21:
        body = digits + "0" * (point - k)
    elif 0 < point <= 21:
        body = digits[:point] + "." + digits[point:]
    elif -6 < point <= 0:
        body = "0." + "0" * (-point) + digits
    else:
        power = point - 1
        head = digits if k == 1 else digits[0] + "." + digits[1:]
        body = f"{head}e{'+' if power > 0 else '-'}{abs(power)}"
    return sign + body


def _float_fragment(value: float) -> float | orjson.Fragment:
    """What orjson must write for a float: the float itself where orjson already writes
    ES6's text (a non-integral 1e-5 ≤ |x| < 1e16: the same shortest digits, plain
    notation — the property test against ``rfc8785`` checks it), else the ES6 text."""
    if value.is_integer():
        if -1e16 < value < 1e16:  # the common 1800.0: ES6 writes 1800
            return orjson.Fragment(str(int(value)).encode())
    elif 1e-5 <= abs(value) < 1e16:
        return value
    return orjson.Fragment(es6_number(value).encode())


def _unsafe_integer(value: int) -> ValueError:
    return ValueError(f"integer {value} is outside ±{MAX_SAFE_INTEGER} (RFC 8785, I-JSON)")


def _prepared(value: Any) -> Any:
    """``value`` with every float replaced by its RFC 8785 text (an ``orjson.Fragment``);
    containers are copied only when something inside them changed.  Scalars inside a
    container are handled inline (this runs once per event on the ingest path)."""
    kind = type(value)
    if kind is dict:
        changed: dict[str, Any] | None = None
        for key, inner in value.items():
            if type(key) is not str:
                raise TypeError(f"object keys must be strings, got {type(key).__name__}")
            if not key.isascii():
                raise _NeedsReference
            inner_kind = type(inner)
            if inner_kind is str or inner_kind is bool or inner is None:
                continue
            if inner_kind is int:
                if not -MAX_SAFE_INTEGER <= inner <= MAX_SAFE_INTEGER:
                    raise _unsafe_integer(inner)
                continue
            new = _float_fragment(inner) if inner_kind is float else _prepared(inner)
            if new is not inner:
                if changed is None:
                    changed = dict(value)
                changed[key] = new
        return value if changed is None else changed
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return value
        raise _unsafe_integer(value)
    if kind is float:
        return _float_fragment(value)
    if kind is list or kind is tuple:
        items = [_prepared(inner) for inner in value]
        if kind is list and all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return items
    if isinstance(value, Mapping):  # e.g. a read-only mapping handed to the store
        return _prepared(dict(value))
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def _materialised(value: Any) -> Any:
    """Mappings as dicts and tuples as lists, at any depth (for the reference package)."""
    if isinstance(value, Mapping):
        return {key: _materialised(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [_materialised(inner) for inner in value]
    return value


def canonical_json(value: Any) -> bytes:
    """The RFC 8785 (JCS) form of a JSON value: UTF-8, keys sorted, no whitespace, ES6 numbers.

    Raises ``ValueError`` for a non-finite number, an integer beyond ±(2^53 − 1) or a
    string that is not valid Unicode, ``TypeError`` for a value JSON cannot hold.
    """
    try:
        quick = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError as error:
        if isinstance(error.__cause__, UnicodeEncodeError) or "surrogates" in str(error):
            raise ValueError(str(error)) from None
        quick = None  # e.g. an integer beyond 64 bits: the walk below names it
    if quick is not None and not _orjson_may_differ(quick):
        return quick
    try:
        prepared = _prepared(value)
    except _NeedsReference:
        try:
            return rfc8785.dumps(_materialised(value))
        except rfc8785.CanonicalizationError as error:
            raise ValueError(str(error)) from None
    try:
        return orjson.dumps(prepared, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError as error:
        raise ValueError(str(error)) from None


def event_digest(agent_id: uuid.UUID | str, event_type: str, timestamp: datetime, data: Any) -> str:
    """SHA-256 (hex) of the RFC 8785 form of ``{agent, type, timestamp, data}`` (SCORING.md §1).

    ``agent_id`` is the resolved agent's id (written as its canonical UUID text, lower
    case with dashes, whatever the spelling given); ``timestamp`` is spelled by
    :func:`instant_text`.  This is the id of an event sent without ``id`` and the content
    digest that tells a re-sent event (same digest: nothing new stored) from a
    conflicting one (``DUPLICATE_CONFLICT``).
    """
    agent = str(agent_id) if isinstance(agent_id, uuid.UUID) else str(uuid.UUID(agent_id))
    return digest_for_agent_text(agent, event_type, timestamp, data)


def digest_for_agent_text(agent: str, event_type: str, timestamp: datetime, data: Any) -> str:
    """:func:`event_digest` for an agent id already in canonical UUID text (``str(uuid)``):
    the store's hot path, which knows each agent's text once per batch."""
    document = {"agent": agent, "type": event_type, "timestamp": instant_text(timestamp), "data": data}
    return hashlib.sha256(canonical_json(document)).hexdigest()


__all__ = [
    "MAX_SAFE_INTEGER",
    "canonical_json",
    "digest_for_agent_text",
    "es6_number",
    "event_digest",
    "instant_text",
]
