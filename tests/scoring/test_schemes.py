"""Schemes as one protocol, registered by name; specs replay exactly (issue 10 §1)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring import trust as trust_scheme
from aaaf.scoring import workflow as workflow_scheme
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.layered import LayeredConfig
from aaaf.scoring.schemes import SchemeSpec, get_scheme, replay, scheme_names
from aaaf.scoring.trust import TrustConfig
from aaaf.scoring.workflow import WorkflowConfig

AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def test_the_four_schemes_are_registered_under_their_names() -> None:
    assert scheme_names() == ("aaaf", "layered", "trust", "workflow")
    for name in scheme_names():
        scheme = get_scheme(name)
        assert scheme.name == name and scheme.version
        assert isinstance(scheme.default_config(), scheme.config_type)
        assert scheme.config_schema()["type"] == "object"
    with pytest.raises(AAAFError) as unknown:
        get_scheme("karma")
    assert (
        unknown.value.code == "INVALID_REQUEST" and "aaaf, layered, trust, workflow" in unknown.value.message
    )


@pytest.mark.parametrize(
    ("name", "config"),
    [
        ("aaaf", replace(AAAFConfig(), window_days=14, speed_baselines={1: 60.0, 2: 0.1 + 0.2})),
        (
            "layered",
            LayeredConfig(
                resamples=2000, confidence=0.9, weights={"fact": 0.5, "behavior": 0.25, "judge": 0.25}
            ),
        ),
        ("workflow", WorkflowConfig(window=7, cap=0.2)),
    ],
)
def test_a_spec_round_trips_through_json_to_the_same_config(name: str, config: object) -> None:
    scheme = get_scheme(name)
    spec = scheme.spec(config)
    again = SchemeSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec
    assert scheme.config_from_dict(again.config) == config  # floats and int keys exactly


def test_a_trust_spec_round_trips_with_its_nested_configs() -> None:
    scheme = get_scheme("trust")
    config = scheme.config_type(
        trust=replace(TrustConfig(), security_gate_threshold=55.5), weights_override={"safety": 0.2}
    )
    spec = json.loads(json.dumps(scheme.spec(config).to_dict()))
    assert scheme.config_from_dict(spec["config"]) == config


def test_bad_recorded_configs_are_named() -> None:
    with pytest.raises(AAAFError) as bad:
        get_scheme("aaaf").config_from_dict({"window_days": "a month"})
    assert "window_days" in bad.value.message
    with pytest.raises(AAAFError) as cap:
        get_scheme("workflow").config_from_dict({"cap": 0})
    assert "cap" in cap.value.message


def test_entry_points_are_the_schemes_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """score(evidence, config, at) is the scheme's own entry point, config and time passed through."""
    seen: dict[str, object] = {}
    monkeypatch.setattr(aaaf_scheme, "assess", lambda e, c, at: seen.setdefault("aaaf", (e, c, at)))
    monkeypatch.setattr(
        trust_scheme, "score_trust_from_events", lambda e, **kw: seen.setdefault("trust", (e, kw))
    )
    config = AAAFConfig()
    get_scheme("aaaf").score([], config, AT)
    assert seen["aaaf"] == ([], config, AT)
    trust = get_scheme("trust")
    get_scheme("trust").score([], trust.default_config(), AT)
    assert seen["trust"][1]["at"] == AT and seen["trust"][1]["config"] == TrustConfig()


def test_workflow_counts_runs_up_to_at_and_replay_refuses_another_version() -> None:
    def run(task: str, stamp: str, quality: float) -> dict[str, object]:
        return {
            "task_id": task,
            "miner": "m1",
            "dag_steps": 1,
            "steps_completed": 1,
            "output_quality": quality,
            "actual_cost": 0.0,
            "max_budget": 1.0,
            "actual_seconds": 0.0,
            "max_latency_seconds": 1.0,
            "declared_retry_budget": 0,
            "actual_retries": 0,
            "timeouts": 0,
            "hard_failures": 0,
        }

    runs = [
        workflow_scheme.WorkflowRun.from_mapping(run("t1", "", 1.0), timestamp="2026-11-19T00:00:00Z"),
        workflow_scheme.WorkflowRun.from_mapping(run("t2", "", 0.0), timestamp="2026-11-21T00:00:00Z"),
    ]
    scheme = get_scheme("workflow")
    result = scheme.score(runs, WorkflowConfig(), AT)
    assert [(a.agent, a.runs_total, a.window_mean) for a in result.agents] == [
        ("m1", 1, 1.0)
    ]  # t2 is after `at`
    spec = scheme.spec(WorkflowConfig())
    assert replay(spec, runs, AT).digest() == result.digest()
    with pytest.raises(AAAFError) as stale:
        replay(SchemeSpec("workflow", "0", spec.config), runs, AT)
    assert stale.value.code == "CONFLICT"
