"""Assessment lifecycle and dimension scores (document 004 §7.2; SCORING.md §0, §2.4, §6):
scores stored unrounded and bit-exact, a dimension without evidence stored as null,
one running assessment per agent, an appeal's re-score touching only its dimensions."""

from __future__ import annotations

import threading
import uuid

import pytest

from aaaf.errors import AAAFError
from aaaf.store import Agent, Assessment, DimensionRow, OrgStore, Store, open_store

from .factories import PERFORMANCE_ROWS, T0, minutes, org_of

RESULT = {
    "type": "full",
    "performance": {"composite_score": 0.6180339887498949, "big": 1e16},
    "capability": None,
}
# as stored: the version of the shape first, the evidence summary it always has last
STORED = {"version": 2, **RESULT, "evidence_summary": {}}


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


@pytest.fixture()
def agent(org: OrgStore) -> Agent:
    return org.enroll_agent("assessed")


def start(org: OrgStore, agent: Agent, **kwargs: object) -> Assessment:
    return org.create_assessment(
        agent.id,
        type="full",
        window_start=T0 - minutes(60 * 24 * 30),
        window_end=T0,
        **kwargs,  # type: ignore[arg-type]
    )


def complete(org: OrgStore, assessment: Assessment, **overrides: object) -> Assessment:
    values: dict[str, object] = {
        "result": RESULT,
        "dimension_rows": PERFORMANCE_ROWS,
        "performance_composite": 0.6180339887498949,
        "performance_tier": "Proficient",
        "capability_composite": None,
        "capability_tier": None,
        "evidence_summary": {"tasks": 47, "event_ids": ["e1", "e2"]},
        "valid_until": T0 + minutes(60 * 24 * 90),
        "completed_at": T0 + minutes(5),
    }
    values.update(overrides)
    return org.complete_assessment(assessment.id, **values)  # type: ignore[arg-type]


def test_lifecycle_in_progress_then_completed(org: OrgStore, agent: Agent) -> None:
    running = start(org, agent)
    assert (running.status, running.review_state, running.anomalous) == ("in_progress", "not_required", False)
    assert running.dimensions == () and running.completed_at is None and running.agent_name == "assessed"
    done = complete(org, running, anomalous=True, review_state="pending_review")
    assert done.status == "completed" and done.completed_at == T0 + minutes(5)
    assert (done.anomalous, done.review_state) == (True, "pending_review")
    assert done.result == STORED and done.evidence_summary == {"tasks": 47, "event_ids": ["e1", "e2"]}
    assert done.performance_tier == "Proficient" and done.capability_composite is None
    assert org.get_assessment(done.id) == done
    assert org.get_assessment(str(done.id)) == done
    # the stored result is the document as written, versioned: same keys in the same order, same types
    import orjson

    assert orjson.dumps(done.result) == orjson.dumps(STORED)


def test_scores_are_bit_exact_and_null_stays_null(org: OrgStore, agent: Agent) -> None:
    done = complete(org, start(org, agent))
    stored = {row.dimension: row for row in done.dimensions}
    for expected in PERFORMANCE_ROWS:
        row = stored[expected.dimension]
        if expected.score is None:
            assert row.score is None
            assert row.reason == "no (domain, level) group with ≥ 5 completed tasks"
        else:
            assert row.score is not None and row.score.hex() == expected.score.hex()
        assert (row.sample_size, row.evidence_count, row.details) == (
            expected.sample_size,
            expected.evidence_count,
            expected.details,
        )
    assert done.performance_composite is not None
    assert done.performance_composite.hex() == (0.6180339887498949).hex()
    # document order, whatever the insertion order
    assert [row.dimension for row in done.dimensions] == [row.dimension for row in PERFORMANCE_ROWS]
    consistency = done.dimension_score("performance", "consistency")
    assert consistency is not None and consistency.to_dict()["score"] is None
    assert consistency.to_dict()["reason"].startswith("no (domain")


def test_score_outside_zero_one_is_refused_by_the_schema(org: OrgStore, agent: Agent) -> None:
    from sqlalchemy.exc import IntegrityError

    running = start(org, agent)
    with pytest.raises(IntegrityError):
        complete(org, running, dimension_rows=[DimensionRow("performance", "speed", 1.5, 1, 1, {})])
    assert org.get_assessment(running.id).status == "in_progress"  # nothing half-written


def test_one_running_assessment_per_agent(org: OrgStore, agent: Agent) -> None:
    running = start(org, agent)
    with pytest.raises(AAAFError) as caught:
        start(org, agent)
    assert caught.value.code == "ASSESSMENT_IN_PROGRESS"
    assert caught.value.details["assessment_id"] == str(running.id)
    other = org.enroll_agent("other")
    start(org, other)  # another agent may run at the same time
    complete(org, running)
    start(org, agent)  # and once finished, a new one may start


def test_concurrent_starts_cannot_both_succeed(store_url: str) -> None:
    stores = [open_store(store_url) for _ in range(3)]
    try:
        org_id = stores[0].create_organization("race").id
        agent = stores[0].scope(org_id).enroll_agent("a")
        barrier = threading.Barrier(len(stores))
        outcomes: list[str] = []

        def try_start(store: Store) -> None:
            org = store.scope(org_id)
            barrier.wait()
            try:
                start(org, agent)
                outcomes.append("started")
            except AAAFError as error:
                outcomes.append(error.code)

        threads = [threading.Thread(target=try_start, args=(s,)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["ASSESSMENT_IN_PROGRESS"] * 2 + ["started"]
        assert len(stores[0].scope(org_id).assessments(status="in_progress")) == 1
    finally:
        for store in stores:
            store.close()


def test_fail_records_the_error(org: OrgStore, agent: Agent) -> None:
    error = {"code": "INSUFFICIENT_EVIDENCE", "details": {"axis": "performance", "current_count": 12}}
    failed = org.fail_assessment(start(org, agent).id, error, T0)
    assert (failed.status, failed.error, failed.completed_at) == ("failed", error, T0)
    with pytest.raises(AAAFError) as caught:
        complete(org, failed)
    assert caught.value.code == "CONFLICT"


def test_completing_twice_is_a_conflict(org: OrgStore, agent: Agent) -> None:
    done = complete(org, start(org, agent))
    with pytest.raises(AAAFError) as caught:
        complete(org, done)
    assert caught.value.code == "CONFLICT"


def test_single_dimension_names_its_dimension(org: OrgStore, agent: Agent) -> None:
    with pytest.raises(AAAFError) as caught:
        org.create_assessment(agent.id, type="single_dimension", window_start=T0, window_end=T0)
    assert caught.value.code == "INVALID_REQUEST"
    single = org.create_assessment(
        agent.id, type="single_dimension", dimension="speed", window_start=T0, window_end=T0
    )
    assert (single.type, single.dimension) == ("single_dimension", "speed")
    with pytest.raises(AAAFError) as caught:
        org.create_assessment(agent.id, type="partial", window_start=T0, window_end=T0)
    assert caught.value.code == "INVALID_REQUEST"


def test_listing_newest_first_and_latest_completed(org: OrgStore, agent: Agent) -> None:
    first = complete(org, start(org, agent, created_at=T0), completed_at=T0 + minutes(1))
    second = complete(org, start(org, agent, created_at=T0 + minutes(2)), completed_at=T0 + minutes(3))
    third = org.fail_assessment(
        start(org, agent, created_at=T0 + minutes(4)).id, {"code": "X"}, T0 + minutes(5)
    )
    assert [a.id for a in org.assessments(agent.id)] == [third.id, second.id, first.id]
    assert [a.id for a in org.assessments(status="completed")] == [second.id, first.id]
    latest = org.latest_completed_assessment(agent.id)
    assert latest is not None and latest.id == second.id and len(latest.dimensions) == len(PERFORMANCE_ROWS)
    assert org.latest_completed_assessment(org.enroll_agent("new").id) is None


def test_review_state(org: OrgStore, agent: Agent) -> None:
    done = complete(org, start(org, agent), anomalous=True, review_state="pending_review")
    assert org.set_review_state(done.id, "approved").review_state == "approved"
    with pytest.raises(AAAFError) as caught:
        org.set_review_state(done.id, "maybe")
    assert caught.value.code == "INVALID_REQUEST"


def test_replace_dimension_scores_leaves_the_rest_untouched(org: OrgStore, agent: Agent) -> None:
    """An accepted appeal (SCORING.md §2.4): unchallenged rows stay byte-identical."""
    before = complete(org, start(org, agent))
    new_accuracy = DimensionRow("performance", "accuracy", 0.9000000000000001, 40, 44, {"re_scored": True})
    after = org.replace_dimension_scores(
        before.id,
        [new_accuracy],
        performance_composite=0.7071067811865476,
        performance_tier="Proficient",
        capability_composite=None,
        capability_tier=None,
        result={**RESULT, "appeal": "accepted"},
    )
    changed = after.dimension_score("performance", "accuracy")
    assert changed is not None and changed.score is not None
    assert changed.score.hex() == (0.9000000000000001).hex() and changed.details == {"re_scored": True}
    assert changed.id == before.dimension_score("performance", "accuracy").id  # type: ignore[union-attr]
    untouched_before = [row for row in before.dimensions if row.dimension != "accuracy"]
    untouched_after = [row for row in after.dimensions if row.dimension != "accuracy"]
    assert untouched_after == untouched_before
    assert [r.score.hex() if r.score is not None else None for r in untouched_after] == [
        r.score.hex() if r.score is not None else None for r in untouched_before
    ]
    assert after.performance_composite == 0.7071067811865476 and after.result["appeal"] == "accepted"  # type: ignore[index]


def test_replace_needs_a_completed_assessment(org: OrgStore, agent: Agent) -> None:
    with pytest.raises(AAAFError) as caught:
        org.replace_dimension_scores(
            start(org, agent).id,
            [],
            performance_composite=None,
            performance_tier=None,
            capability_composite=None,
            capability_tier=None,
            result={},
        )
    assert caught.value.code == "CONFLICT"


def test_unknown_assessment_is_not_found(org: OrgStore) -> None:
    for ref in (uuid.uuid4(), "nope"):
        with pytest.raises(AAAFError) as caught:
            org.get_assessment(ref)
        assert caught.value.code == "NOT_FOUND"


def test_to_dict_is_json_ready(org: OrgStore, agent: Agent) -> None:
    import orjson

    done = complete(org, start(org, agent))
    as_dict = done.to_dict()
    assert orjson.loads(orjson.dumps(as_dict)) == as_dict
    assert as_dict["completed_at"] == "2026-04-16T12:05:00Z"
    assert as_dict["dimensions"][0]["score"] == 0.1 + 0.2
