"""The whole library against the three reference agents, once (issue 15 §7, "Done when").

Scored with ``stress_test_only`` (stress evidence alone): the oracle's Performance ≥ 0.9
and every code-graded capability dimension but learning rate ≥ 0.9 (a perfect agent cannot
improve); the careless agent's Performance within [0.4, 0.8]; the random agent's ≤ 0.3
with a lower Capability composite than the oracle's.  ``full`` merges the stress evidence
with passive evidence and ``passive_only`` leaves it out; reports say which came from where.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.services import assess as assess_service
from aaaf.services.stress import run_stress_test
from aaaf.store.store import open_store
from aaaf.stress.runner import AgentSpec

AGENTS = ("oracle", "careless", "random")
CODE_GRADED = ("domain_breadth", "complexity_ceiling", "tool_proficiency", "autonomy_level", "delegation_capability", "orchestration_skills")  # fmt: skip


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, Any]]]:
    directory = tmp_path_factory.mktemp("reference-agents")
    store = open_store(f"sqlite:///{directory / 'aaaf.db'}")
    org = store.scope(store.default_organization().id)
    runs = {}
    for name in AGENTS:
        spec = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents {name}")
        runs[name], _ = run_stress_test(org, f"ref-{name}", spec, parallel=4, log_dir=directory / "logs")
    yield org, runs
    store.close()


def _assess(org: Any, name: str, kind: str = "stress_test_only") -> dict[str, Any]:
    record = assess_service.assess_agent(
        org, name, now=datetime.now(UTC) + timedelta(seconds=1), assessment_type=kind
    )
    return dict(record.result)


def test_every_run_finished_with_a_result_per_task(suite: tuple[Any, dict[str, Any]]) -> None:
    org, runs = suite
    for name, run in runs.items():
        assert run.status == "finished" and run.finished_at is not None
        assert Path(run.log_path).is_file()
        results = org.stress_run_results(run.id)
        assert len(results) == run.summary["tasks"] == 141, name
        assert run.summary["events"]["rejected"] == 0


def test_reference_agents_spread_as_expected(suite: tuple[Any, dict[str, Any]]) -> None:
    org, runs = suite
    scores = {name: _assess(org, f"ref-{name}") for name in AGENTS}
    oracle, careless, random_ = (scores[n] for n in AGENTS)
    assert oracle["performance"]["composite_score"] >= 0.9
    for dimension in CODE_GRADED:
        assert oracle["capability"]["dimensions"][dimension]["score"] >= 0.9, dimension
    assert 0.4 <= careless["performance"]["composite_score"] <= 0.8
    assert random_["performance"]["composite_score"] <= 0.3
    assert random_["capability"]["composite_score"] < oracle["capability"]["composite_score"]
    sources = oracle["evidence_sources"]
    assert sources["passive_events"] == 0 and sources["stress_runs"] == [str(runs["oracle"].id)]
    # no judge configured: the model-graded sub-scores are null and the report says so (issue 15 §1)
    assert sources["model_graded"]["judged"] == 0 and "no judge" in sources["model_graded"]["note"]
    # the run is merged into the assessment that used it, and so are its results
    merged = org.get_stress_run(runs["oracle"].id)
    assert merged.assessment_id is not None
    assert all(r["assessment_id"] == str(merged.assessment_id) for r in org.stress_run_results(merged.id))


def test_full_merges_passive_evidence_and_passive_only_leaves_stress_out(
    suite: tuple[Any, dict[str, Any]],
) -> None:
    from aaaf.services.collect import collect

    org, _ = suite
    now = datetime.now(UTC)
    passive = []
    for i in range(30):
        task_id = f"passive-{i}"
        passive.append({"type": "task_assigned", "timestamp": now.isoformat(), "data": {"task_id": task_id, "complexity_level": 1, "domain": "code", "assigned_at": now.isoformat()}})  # fmt: skip
        passive.append({"type": "task_completed", "timestamp": now.isoformat(), "data": {"task_id": task_id, "completion_status": "rejected", "time_to_complete_seconds": 10, "revision_count": 0, "errors": []}})  # fmt: skip
    report = collect(org, [(None, e) for e in passive], now=now, default_agent="ref-careless")
    assert report.accepted == 60
    full = _assess(org, "ref-careless", "full")
    assert full["evidence_sources"]["passive_events"] == 60
    assert full["evidence_sources"]["stress_test_events"] > 141
    assert full["performance"]["dimensions"]["task_completion_rate"]["sample_size"] == 171
    # Performance rests on 171 tasks: the run's 141, stress-tested here, and the 30 reported
    performance = full["evidence_sources"]["performance"]
    assert (performance["stress_tested_tasks"], performance["reported_tasks"]) == (141, 30)
    passive_only = _assess(org, "ref-careless", "passive_only")
    # passive evidence only, as before stress tests: all of it reported by the organization
    assert passive_only["evidence_sources"]["stress_test_events"] == 0
    assert passive_only["evidence_sources"]["passive_events"] == 60
    assert passive_only["evidence_sources"]["performance"]["stress_tested_tasks"] == 0
    assert passive_only["evidence_sources"]["performance"]["reported_tasks"] == 30
    assert passive_only["performance"]["dimensions"]["task_completion_rate"]["sample_size"] == 30
    assert passive_only["performance"]["dimensions"]["task_completion_rate"]["score"] == 0.0
