"""RFC 3339 timestamps with an explicit offset: the only time format evidence may use.

SCORING.md §1 requires ``RFC 3339 with offset``; a naive local time would silently shift
a task across a window bound or a recency step (§2.1), so it is rejected, not guessed.
``datetime.fromisoformat`` alone accepts ISO 8601 forms RFC 3339 does not (``20260416``,
``+0100``, a missing offset), hence the shape check first.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

_RFC3339 = re.compile(
    # an offset's hours 00-23 and minutes 00-59 (RFC 3339's time-numoffset): the datetime would
    # also read "+00:99" (as 1 h 39 min)
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)",
    re.ASCII,
)

RFC3339_PHRASE = "an RFC 3339 timestamp with offset (e.g. 2026-04-16T14:30:00Z)"


def parse_rfc3339(text: str) -> datetime:
    """Parse an RFC 3339 timestamp with offset into an aware datetime in UTC.

    Raises ``ValueError`` whose message is the short reason (``no UTC offset``, ``not
    RFC 3339``, ``no such date or time``, ``out of range``) for anything else: no offset, a date only, ISO
    8601 basic format, an impossible date, an instant before year 1 or after year 9999 in UTC.
    ``timestamp_problem`` words it for a user.  Fractional seconds beyond microseconds
    are truncated (``datetime.fromisoformat`` does so), as a datetime cannot hold them.
    """
    if _RFC3339.fullmatch(text) is None:
        if _RFC3339.fullmatch(text + "Z") is not None:
            raise ValueError("no UTC offset")
        raise ValueError("not RFC 3339")
    try:
        parsed = datetime.fromisoformat(text.upper())  # RFC 3339 allows 't' and 'z'
    except ValueError:
        raise ValueError("no such date or time") from None
    if parsed.tzinfo is UTC:
        return parsed
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00:00+05:00 is in year 0 in UTC, out of a datetime's range
        raise ValueError("out of range") from None


def same_instant_in_postgres(text: str) -> bool:
    """Whether PostgreSQL's ``timestamptz`` input reads from ``text``, which
    :func:`parse_rfc3339` accepted, the instant that function gives, so that the text itself may
    be written (the event writer's ``COPY``): a ``T`` or a space between date and time, ``Z`` or
    an offset after it (both read them alike), and at most six digits of fraction — PostgreSQL
    rounds further digits where the datetime truncates them; a lower-case ``t`` or ``z`` is
    not taken either (the datetime reads them upper-cased), nor an offset of 16 hours or more
    (PostgreSQL refuses one, "time zone displacement out of range", where RFC 3339 and the
    datetime take up to 23:59)."""
    # at most six digits of fraction: at most 20 + 7 characters with Z, 25 + 7 with an offset
    last = text[-1]
    return (
        len(text) <= (27 if last == "Z" else 32)
        and last != "z"
        and text[10] != "t"
        # an offset's hours below 16, by characters (no slice to allocate)
        and (last == "Z" or text[-5] == "0" or (text[-5] == "1" and text[-4] < "6"))
    )


def timestamp_problem(shown: str, reason: str) -> str:
    """The user-facing message for a bad timestamp: what it must be, what it was, why."""
    return f"must be {RFC3339_PHRASE}, got {shown} ({reason})"
