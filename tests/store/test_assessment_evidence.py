"""Every stored assessment keeps its scheme spec and the event ids each dimension used
(migration 0004, SCORING.md §0 'Traceability', §6), on SQLite and PostgreSQL, through the
one-agent path and assess --all's batch writer alike."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.evidence.validation import validate_event
from aaaf.scoring import aaaf as engine
from aaaf.scoring.spec import config_to_json
from aaaf.services.assess import assess_agent, assess_many
from aaaf.store.trace_codec import pack_event_ids, unpack_event_ids
from tests.cli.events_factory import NOW, agent_log


def _enrol(org, name: str, tasks: int):
    agent = org.enroll_agent(name)
    org.add_events(
        [
            (agent.id, validate_event(e, now=NOW, default_agent=name))
            for e in agent_log(None, tasks, prefix=name)
        ]
    )
    return agent


def _expected_ids(org, agent) -> dict[str, tuple[str, ...]]:
    result = engine.assess(org.events(agent.id), org.config(), NOW, assessment_type="passive_only")
    return {
        name: dim.event_ids
        for axis in (result.performance, result.capability)
        if axis is not None
        for name, dim in axis.dimensions.items()
    }


def test_one_agent_path_round_trips_spec_and_ids(store) -> None:
    org = store.scope(store.default_organization().id)
    org.set_weights(
        "performance",
        {
            "task_completion_rate": 0.4,
            "accuracy": 0.1,
            "speed": 0.1,
            "consistency": 0.2,
            "review_compliance": 0.2,
        },
    )
    agent = _enrol(org, "coder", 36)
    record = assess_agent(org, "coder", now=NOW)
    evidence = org.assessment_evidence(record.id)
    assert evidence is not None
    assert (evidence.scheme, evidence.scheme_version) == ("aaaf", "1")
    assert evidence.config == config_to_json(org.config())
    assert list(evidence.config["performance_weights"].values()) == [0.4, 0.1, 0.1, 0.2, 0.2]
    expected = _expected_ids(org, agent)
    assert {name: evidence.ids_of(name) for name in evidence.dimension_events} == expected
    # the ids are the store's own event ids, and evidence_count is their number
    stored_ids = {e.id for e in org.events(agent.id)}
    assert set(evidence.event_ids) <= stored_ids and evidence.event_ids
    for dim in record.dimensions:
        assert dim.evidence_count == len(evidence.ids_of(dim.dimension))
    assert evidence.to_dict()["dimensions"]["accuracy"] == list(expected["accuracy"])


def test_batch_path_writes_the_same_rows_and_failed_ones_keep_their_spec(store) -> None:
    org = store.scope(store.default_organization().id)
    agents = [_enrol(org, "a", 36), _enrol(org, "b", 12)]
    outcomes = assess_many(org, agents, now=NOW, workers=1)
    a, b = outcomes
    assert a.assessment is not None and b.error is not None
    evidence = org.assessment_evidence(a.assessment.id)
    assert evidence is not None
    assert {name: evidence.ids_of(name) for name in evidence.dimension_events} == _expected_ids(
        org, agents[0]
    )
    single = assess_agent(org, "a", now=NOW)
    again = org.assessment_evidence(single.id)
    assert again is not None
    assert (again.event_ids, again.dimension_events, again.config) == (
        evidence.event_ids,
        evidence.dimension_events,
        evidence.config,
    )
    # b had too little evidence: refused, and a refusal stores nothing (no failed record)
    assert b.error.code == "INSUFFICIENT_EVIDENCE" and org.assessments(agents[1].id) == []


def test_another_organization_cannot_read_the_evidence(store) -> None:
    org = store.scope(store.default_organization().id)
    _enrol(org, "coder", 36)
    record = assess_agent(org, "coder", now=NOW)
    other = store.scope(store.create_organization("other").id)
    with pytest.raises(AAAFError) as refused:
        other.assessment_evidence(record.id)
    assert refused.value.code == "NOT_FOUND"


def test_event_ids_are_stored_as_16_bytes_each_and_come_back_as_text() -> None:
    ids = ("0190d5a2-7c1e-7b3a-9f00-0123456789ab", "00000000-0000-0000-0000-000000000001")
    packed = pack_event_ids(ids)
    assert len(packed) == 32 and unpack_event_ids(packed) == ids
    assert pack_event_ids(()) == b"" and unpack_event_ids(b"") == ()
    with pytest.raises(ValueError):
        pack_event_ids(("e00001",))


def test_a_packed_trace_is_the_stored_form_of_its_trace() -> None:
    """What a helper sends back (PackedTrace) gives the very row the trace itself gives."""
    import uuid

    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.scoring.spec import aaaf_spec
    from aaaf.scoring.trace import DimensionEvidence
    from aaaf.store.evidence import evidence_values, sqlite_evidence_row
    from aaaf.store.trace_codec import PackedTrace, pack_trace
    from aaaf.store.types import dumps_json

    trace = DimensionEvidence(
        tuple(str(uuid.UUID(int=n)) for n in (3, 1, 2)), {"accuracy": [2, 0], "speed": [], "consistency": [1]}
    )
    packed = pack_trace(trace)
    assert packed == PackedTrace(
        pack_event_ids(trace.event_ids), '{"accuracy":[2,0],"speed":[],"consistency":[1]}'
    )
    assert packed.dimension_events == dumps_json(dict(trace.positions))
    assert unpack_event_ids(packed.event_ids) == trace.event_ids
    spec, assessment_id = aaaf_spec(AAAFConfig()), uuid.uuid4()
    assert evidence_values(assessment_id, spec, packed) == evidence_values(assessment_id, spec, trace)
    config = dumps_json(spec.config)
    row = sqlite_evidence_row(assessment_id, spec, packed, config)
    assert row == sqlite_evidence_row(assessment_id, spec, trace, config)
    assert row[4:] == (packed.event_ids, packed.dimension_events)
    assert sqlite_evidence_row(assessment_id, spec, None, config)[4:] == (b"", "{}")
