"""The ``assessment_evidence`` rows: an assessment's scheme spec and the event ids each
dimension used (migration 0004; SCORING.md §0 'Traceability', §2.4, §6 retention).

Functions on the caller's connection, so that the row is written in the same transaction
as the assessment it belongs to.  The stored form of the ids is :mod:`aaaf.scoring.trace`'s.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, delete, insert, select

from aaaf.scoring.spec import SchemeSpec
from aaaf.scoring.trace import DimensionEvidence
from aaaf.store import tables as t
from aaaf.store.records import AssessmentEvidence


def evidence_values(
    assessment_id: uuid.UUID, spec: SchemeSpec, trace: DimensionEvidence | None
) -> dict[str, Any]:
    """The row of one assessment (a failed one has a spec and no ids)."""
    return {
        "assessment_id": assessment_id,
        "scheme": spec.name,
        "scheme_version": spec.version,
        "config": dict(spec.config),
        "event_ids": list(trace.event_ids) if trace is not None else [],
        "dimension_events": dict(trace.positions) if trace is not None else {},
    }


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
    event_ids = tuple(row.event_ids)
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
