"""An assessment's event ids in the form SQLite stores them (``assessment_evidence``,
:mod:`aaaf.store.evidence`): each id as its 16 UUID bytes, concatenated, and each
dimension's positions in that list as JSON text.

Without SQLAlchemy, so that ``assess --all``'s helper processes (which never import it:
:mod:`aaaf.store.sqlite_events`) can pack the traces they send back.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

import orjson

from aaaf.scoring.trace import DimensionEvidence

_UUID_BYTES = 16
_split_uuid_hex = itemgetter(slice(0, 8), slice(8, 12), slice(12, 16), slice(16, 20), slice(20, 32))


def pack_event_ids(event_ids: Sequence[str]) -> bytes:
    """Canonical UUID texts → their 16 bytes each, concatenated (joined and converted in C).

    Every event id of the store is a UUID (``events.id``); anything else is a ``ValueError``.
    """
    packed = bytes.fromhex("".join(event_ids).replace("-", ""))
    if len(packed) != _UUID_BYTES * len(event_ids):
        raise ValueError("event ids must be UUIDs to be stored with an assessment")
    return packed


def unpack_event_ids(packed: bytes) -> tuple[str, ...]:
    """The canonical UUID texts back, in their stored order."""
    text = packed.hex()
    width = 2 * _UUID_BYTES
    return tuple(
        "-".join(_split_uuid_hex(text[start : start + width])) for start in range(0, len(text), width)
    )


class PackedTrace(NamedTuple):
    """A :class:`DimensionEvidence` in the form SQLite stores it: the ids' UUID bytes
    concatenated and the positions as JSON text.

    ``assess --all``'s helper processes send their traces back packed: two strings pickle in
    microseconds, where a thousand id strings and twelve lists of positions per agent made
    the largest part of what each chunk sent back (450 of 540 kB for ten agents, measured).
    """

    event_ids: bytes
    dimension_events: str


def pack_trace(trace: DimensionEvidence) -> PackedTrace:
    # lists of ints: the same text as the store's dumps_json, which needs SQLAlchemy's module
    return PackedTrace(pack_event_ids(trace.event_ids), orjson.dumps(dict(trace.positions)).decode())


NO_TRACE = PackedTrace(b"", "{}")
"""What a failed assessment stores: no ids, no dimension."""


def packed_trace(trace: DimensionEvidence | PackedTrace | None) -> PackedTrace:
    """``trace`` in its stored form, whichever form it came in (``None``: :data:`NO_TRACE`)."""
    if trace is None:
        return NO_TRACE
    return trace if isinstance(trace, PackedTrace) else pack_trace(trace)
