"""The stored assessment result is a versioned model (docs/architecture.md "The store"): results
stored before the shape had a version are read and upgraded, the current one is read as it is,
a newer one is refused, and the store writes the version and reads old rows through the reader
(on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from aaaf.errors import AAAFError
from aaaf.models.stored_result import (
    STORED_RESULT_VERSION,
    StoredResult,
    read_stored_result,
    stored_result_dict,
    upgraded,
)
from aaaf.store import tables as t
from aaaf.store.engine import write_transaction

# a result as the first releases stored it: no version, no type (they were all passive_only),
# no evidence summary, no configuration snapshot, calibration or provenance
AXIS = {
    "composite_score": 0.62,
    "tier": "Proficient",
    "covered": 5,
    "total": 5,
    "weights_used": {"accuracy": 0.25, "speed": 0.15},
    "dimensions": {"accuracy": {"score": 0.7, "sample_size": 40, "evidence_count": 44, "details": {}}},
}
OLDEST = {
    "window_start": "2026-10-01T00:00:00Z",
    "window_end": "2026-10-31T00:00:00Z",
    "performance": AXIS,
    "capability": None,
}
# version 1 as stored just before the version: type, evidence summary, config and provenance
VERSION_1 = {
    "type": "full",
    **OLDEST,
    "evidence_summary": {"tasks": 47},
    "calibration": {"anomalous": False, "deltas": {}, "previous_assessment_id": None},
    "config": {"validity_period_days": 90},
    "evidence_sources": {"performance": {"stress_tested": 0, "reported": 47}},
}


def test_the_oldest_shape_is_read_with_the_defaults_it_left_implicit() -> None:
    read = read_stored_result(OLDEST)
    assert isinstance(read, StoredResult)
    assert read.version == STORED_RESULT_VERSION == 2
    assert read.type == "passive_only" and read.evidence_summary == {}
    assert read.config is None and read.calibration is None and read.evidence_sources is None
    assert read.performance is not None and read.performance.composite_score == 0.62
    assert read.performance.dimensions["accuracy"]["score"] == 0.7
    assert read.capability is None


def test_version_1_gains_only_its_version() -> None:
    data = upgraded(VERSION_1)
    assert data == {"version": 2, **VERSION_1}
    assert list(data) == ["version", *VERSION_1]  # the version first, the rest in stored order
    assert read_stored_result(VERSION_1).config == {"validity_period_days": 90}


def test_the_current_version_is_read_as_it_is_and_written_once() -> None:
    current = stored_result_dict(VERSION_1)
    assert upgraded(current) == current and stored_result_dict(current) == current
    assert read_stored_result(current).model_dump(exclude_unset=True)["type"] == "full"


@pytest.mark.parametrize("version", [3, 0, "2", True])
def test_a_version_this_release_cannot_read_is_refused(version: object) -> None:
    with pytest.raises(AAAFError) as raised:
        upgraded({**VERSION_1, "version": version})
    assert raised.value.code == "INVALID_REQUEST" and "version" in raised.value.message


def test_a_result_that_does_not_fit_the_shape_is_refused_by_the_reader() -> None:
    broken = {**VERSION_1, "performance": {**AXIS, "covered": "five"}}
    with pytest.raises(ValueError, match="covered"):
        read_stored_result(broken)


def test_the_store_writes_the_version_and_reads_an_old_row_upgraded(store) -> None:
    from tests.store.factories import PERFORMANCE_ROWS, T0, minutes, org_of

    org = org_of(store)
    agent = org.enroll_agent("versioned")
    running = org.create_assessment(agent.id, type="full", window_start=T0 - minutes(60), window_end=T0)
    done = org.complete_assessment(
        running.id,
        result=VERSION_1,
        dimension_rows=PERFORMANCE_ROWS,
        performance_composite=0.62,
        performance_tier="Proficient",
        capability_composite=None,
        capability_tier=None,
        evidence_summary={"tasks": 47},
        valid_until=T0 + minutes(60 * 24 * 90),
        completed_at=T0 + minutes(5),
    )
    assert done.result is not None and done.result["version"] == 2
    with write_transaction(store.engine) as connection:  # as the first releases stored it
        connection.execute(update(t.assessments).where(t.assessments.c.id == done.id).values(result=OLDEST))
    again = org.get_assessment(done.id)
    assert again.result == {"version": 2, **OLDEST, "type": "passive_only", "evidence_summary": {}}
    assert read_stored_result(again.result).type == "passive_only"
