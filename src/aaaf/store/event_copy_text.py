"""The text of a chunk's ``COPY`` into PostgreSQL (:mod:`aaaf.store.event_writer`'s fast and
staged paths): the rows of ``event_keys`` and of ``events``, formatted in one pass as psycopg's
``Copy.write_row`` would format them, for one ``Copy.write`` each."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

import orjson

from aaaf.store.types import json_default


class Columns:
    """One chunk's values, column by column (:func:`aaaf.store.event_writer.write_events` fills
    them); ids and agent ids as 32 hex digits."""

    __slots__ = (
        "agent_ids",
        "data",
        "digests",
        "documents",
        "ids",
        "instants",
        "keys",
        "positions",
        "task_ids",
        "timestamps",
        "types",
    )

    def __init__(self) -> None:
        self.positions: list[int] = []
        self.ids: list[str] = []
        self.agent_ids: list[str] = []
        self.types: list[str] = []
        self.task_ids: list[str | None] = []
        self.keys: list[str] = []
        self.timestamps: list[datetime] = []
        # the timestamp as the client spelled it, when PostgreSQL reads the same instant from it
        # (aaaf.evidence.timestamps.same_instant_in_postgres), else None
        self.instants: list[str | None] = []
        self.data: list[Mapping[str, Any]] = []
        self.documents: list[bytes | None] = []  # data as validation's orjson wrote it, if it did
        self.digests: list[str | None] = []  # None for an event with an id (see write_events)

    def rows(self) -> Iterator[tuple[str, str, str, str | None, str, datetime, Any, str | None]]:
        """Each row's values in the event writer's WRITTEN_COLUMNS order: (id, agent id, type,
        task id, key, timestamp, data, content digest)."""
        return zip(
            self.ids,
            self.agent_ids,
            self.types,
            self.task_ids,
            self.keys,
            self.timestamps,
            self.data,
            self.digests,
            strict=True,
        )


# COPY's text format: a backslash escapes, so these characters of a value are written escaped
# (what psycopg's write_row does: its _dump_repl)
_COPY_ESCAPES_FROM = "\\\b\t\n\v\f\r"
_COPY_ESCAPES = str.maketrans(
    {"\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r"}
)
_COPY_NULL = "\\N"
_SPECIAL = tuple(_COPY_ESCAPES_FROM)
_TWO_DIGITS = [f"{number:02d}" for number in range(100)]
_THREE_DIGITS = [f"{number:03d}" for number in range(1000)]


class CopyText:
    """A chunk's rows as the text of its two ``COPY`` (keys; events in WRITTEN_COLUMNS order),
    built in one pass: what psycopg's ``write_row`` sends, at half its cost per row (a
    1 000-event chunk: 3.2 -> 1.7 ms of the writer's CPU, both COPY included)."""

    __slots__ = ("events", "keys")

    def __init__(self, columns: Columns) -> None:
        dumps = orjson.dumps
        keys, task_ids = columns.keys, columns.task_ids
        # keys and task ids are the client's text: escaped when one of the chunk's needs it
        # (ids and agent ids are hex digits, types known words, digests hex digits, data
        # orjson's JSON, which writes every control character escaped but keeps backslashes)
        plain = "".join(keys) + "".join(task for task in task_ids if task is not None)
        if any(special in plain for special in _SPECIAL):
            keys = [key.translate(_COPY_ESCAPES) for key in keys]
            task_ids = [None if task is None else task.translate(_COPY_ESCAPES) for task in task_ids]
        key_lines: list[str] = []
        event_lines: list[str] = []
        days: dict[tuple[int, int, int], str] = {}
        for event_id, agent_id, event_type, task_id, key, timestamp, spelt, data, written, digest in zip(
            columns.ids,
            columns.agent_ids,
            columns.types,
            task_ids,
            keys,
            columns.timestamps,
            columns.instants,
            columns.data,
            columns.documents,
            columns.digests,
            strict=True,
        ):
            if spelt is not None:  # the client's text, read by PostgreSQL as the same instant:
                instant = spelt  # 11.6 -> 5.9 k instructions an event here, validation 2.6 k more (callgrind, bench_api's)
            elif timestamp.tzinfo is UTC:  # validated events': str(timestamp) from tables (7 300 of
                # its 13 000 instructions fewer, callgrind: ~4 % of a 1 000-event request)
                year, month, day = timestamp.year, timestamp.month, timestamp.day
                date = days.get((year, month, day))
                if date is None:
                    date = days[(year, month, day)] = f"{year:04d}-{month:02d}-{day:02d} "
                hours, minutes = _TWO_DIGITS[timestamp.hour], _TWO_DIGITS[timestamp.minute]
                seconds, micro = _TWO_DIGITS[timestamp.second], timestamp.microsecond
                if micro:
                    fraction = f"{_THREE_DIGITS[micro // 1000]}{_THREE_DIGITS[micro % 1000]}"
                    instant = f"{date}{hours}:{minutes}:{seconds}.{fraction}+00:00"
                else:
                    instant = f"{date}{hours}:{minutes}:{seconds}+00:00"
            else:
                instant = str(timestamp)  # as psycopg writes a datetime
            # validation's orjson text of the document when it wrote one (the same bytes:
            # 4 700 instructions an event fewer, callgrind, ~2.5 % of a 1 000-event request)
            document = (dumps(data, default=json_default) if written is None else written).decode()
            if "\\" in document:
                document = document.replace("\\", "\\\\")
            key_lines.append(f"{agent_id}\t{key}\t{instant}\n")
            event_lines.append(
                f"{event_id}\t{agent_id}\t{event_type}\t{_COPY_NULL if task_id is None else task_id}\t"
                f"{key}\t{instant}\t{document}\t{_COPY_NULL if digest is None else digest}\n"
            )
        self.keys = "".join(key_lines)
        self.events = "".join(event_lines)
