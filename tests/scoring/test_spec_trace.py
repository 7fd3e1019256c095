"""The recorded scheme spec round-trips the config exactly; the stored form of the event ids
gives every dimension its ids back (aaaf.scoring.spec, aaaf.scoring.trace)."""

from __future__ import annotations

import json

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as engine
from aaaf.scoring.core import DimensionResult
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.results import AAAFResult
from aaaf.scoring.spec import SchemeSpec, aaaf_config_of, aaaf_spec, config_from_json
from aaaf.scoring.trace import decode, encode, of_result, with_event_ids
from tests.scoring.factories import WINDOW_END, Events


def test_every_config_field_round_trips_through_json() -> None:
    config = AAAFConfig().with_overrides(
        window_days=45,
        recency_weights=((10, 1.0), (45, 0.3)),
        performance_weights={
            "accuracy": 0.3,
            "task_completion_rate": 0.2,
            "speed": 0.1,
            "consistency": 0.2,
            "review_compliance": 0.2,
        },
        taxonomy=("code", "legal"),
        checklist=("memory_written",),
        speed_baselines={1: 60.0, 2: 120.5, 3: 1e4, 4: 0.1 + 0.2, 5: 86400.0},
        baseline_errors_per_task=0.7,
        consistency_min_group=3,
    )
    spec = aaaf_spec(config)
    assert (spec.name, spec.version) == ("aaaf", "1")
    stored = json.loads(json.dumps(spec.to_dict()))
    again = aaaf_config_of(SchemeSpec(stored["name"], stored["version"], stored["config"]))
    assert again == config
    # the weight table keeps its order (a result's weights_used follows it)
    assert list(again.performance_weights) == list(config.performance_weights)


def test_a_spec_of_another_scheme_or_field_is_refused() -> None:
    with pytest.raises(AAAFError):
        aaaf_config_of(SchemeSpec("trust", "1", {}))
    with pytest.raises(AAAFError, match="charisma"):
        config_from_json({"charisma": 1})


def test_stored_ids_give_each_dimension_its_ids_back() -> None:
    dims = [
        DimensionResult("a", 1.0, 1, 3, event_ids=("e1", "e2", "e3")),
        DimensionResult("b", None, 0, 0),
        DimensionResult("c", 0.5, 1, 2, event_ids=("e3", "e9")),
    ]
    trace = encode(dims, ("e1", "e2", "e3"))  # e9 is not in the given union: appended
    assert trace.event_ids == ("e1", "e2", "e3", "e9")
    assert dict(trace.positions) == {"a": [0, 1, 2], "b": [], "c": [2, 3]}
    back = decode(trace.event_ids, trace.positions)
    assert back.by_dimension() == {"a": ("e1", "e2", "e3"), "b": (), "c": ("e3", "e9")}
    with pytest.raises(ValueError):
        decode(("e1",), {"a": [1]})


def test_a_result_rebuilt_from_json_gets_its_ids_back() -> None:
    ev = Events()
    events = [e for i in range(4) for e in ev.task(f"t{i}", seconds=600.0 * (i + 1))]
    result = engine.assess(events, AAAFConfig(), WINDOW_END, enforce_minimums=False)
    trace = of_result(result)
    assert trace.event_ids == result.event_ids
    rebuilt = with_event_ids(AAAFResult.from_dict(result.to_dict()), trace.by_dimension())
    assert rebuilt.event_ids == result.event_ids
    for axis in ("performance", "capability"):
        before, after = result.axis(axis), rebuilt.axis(axis)
        assert before is not None and after is not None
        assert {n: d.event_ids for n, d in after.dimensions.items()} == {
            n: d.event_ids for n, d in before.dimensions.items()
        }


def test_a_repeated_id_in_the_union_keeps_its_first_place() -> None:
    dims = [DimensionResult("a", 1.0, 1, 2, event_ids=("e2", "e1"))]
    trace = encode(dims, ("e1", "e2", "e1"))
    assert trace.event_ids == ("e1", "e2") and dict(trace.positions) == {"a": [1, 0]}
