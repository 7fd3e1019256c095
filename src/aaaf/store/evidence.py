"""The ``assessment_evidence`` rows: an assessment's scheme spec and the event ids each
dimension used (migration 0004; SCORING.md §0 'Traceability', §2.4, §6 retention).

Functions on the caller's connection, so that the row is written in the same transaction
as the assessment it belongs to.  The ids are stored once per assessment, each dimension as
positions in that list (:mod:`aaaf.scoring.trace`); the list itself is the events' UUIDs,
16 bytes each, concatenated (16 kB for 1 000 events instead of 39 kB of JSON text: the
``assess --all`` write is one transaction, and its size is its cost).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, insert, select

from aaaf.scoring.trace import DimensionEvidence
from aaaf.store import tables as t
from aaaf.store.records import AssessmentEvidence
from aaaf.store.trace_codec import PackedTrace, packed_trace, unpack_event_ids
from aaaf.store.types import loads_json

if TYPE_CHECKING:  # a type only: the scheme specs (pydantic) load when an assessment is written
    from aaaf.scoring.spec import SchemeSpec


def evidence_values(
    assessment_id: uuid.UUID, spec: SchemeSpec, trace: DimensionEvidence | PackedTrace | None
) -> dict[str, Any]:
    """The row of one assessment (a failed one has a spec and no ids)."""
    packed = packed_trace(trace)
    return {
        "assessment_id": assessment_id,
        "scheme": spec.name,
        "scheme_version": spec.version,
        "config": spec.config,  # shared by a run's rows: the batch writer serialises it once
        "event_ids": packed.event_ids,
        "dimension_events": loads_json(packed.dimension_events),
    }


def sqlite_evidence_row(
    assessment_id: uuid.UUID, spec: SchemeSpec, trace: DimensionEvidence | PackedTrace | None, config: str
) -> tuple[Any, ...]:
    """The row of one assessment as SQLite stores it (``assessment_evidence``'s column order),
    with the spec's config already serialised (``config``: a run's rows share it)."""
    packed = packed_trace(trace)
    return (assessment_id.hex, spec.name, spec.version, config, packed.event_ids, packed.dimension_events)


def write_evidence(connection: Connection, values: Mapping[str, Any]) -> None:
    """Insert or replace the row of ``values['assessment_id']``."""
    table = t.assessment_evidence
    connection.execute(delete(table).where(table.c.assessment_id == values["assessment_id"]))
    connection.execute(insert(table).values(**values))


def read_evidence(connection: Connection, assessment_id: uuid.UUID) -> AssessmentEvidence | None:
    """The row of an assessment (the caller checked the organization), None when none was recorded."""
    row = connection.execute(
        select(t.assessment_evidence).where(t.assessment_evidence.c.assessment_id == assessment_id)
    ).one_or_none()
    if row is None:
        return None
    event_ids = unpack_event_ids(bytes(row.event_ids))
    positions = {str(name): tuple(int(i) for i in indexes) for name, indexes in row.dimension_events.items()}
    for name, indexes in positions.items():
        if any(index < 0 or index >= len(event_ids) for index in indexes):
            raise ValueError(f"assessment {assessment_id}: stored event positions of {name} are out of range")
    return AssessmentEvidence(
        assessment_id=row.assessment_id,
        scheme=row.scheme,
        scheme_version=row.scheme_version,
        config=dict(row.config),
        event_ids=event_ids,
        dimension_events=positions,
    )
