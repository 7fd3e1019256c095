"""The four reference agents on a subset of the standard library (docs/stress-tests.md "The
reference agents"; the sample `make demo` runs; the whole library against every agent is
``make bench``), scored with
``stress_test_only``: the order oracle > heuristic > careless > random on both axes, levels
credited only as SCORING.md §2.3 allows, a learning rate that follows learning along the
library's sequence whatever order the parallel tasks finished in, a domain whose own work
fails not qualifying, and ``full`` / ``passive_only`` merging or leaving out the evidence."""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.demo.stress_sample import LEARNING_SEQUENCE, sample_task_ids
from aaaf.evals.importers.inspect_stress import stress_events
from aaaf.services import assess as assess_service
from aaaf.services.collect import collect
from aaaf.services.stress import run_stress_test
from aaaf.store.store import open_store
from aaaf.stress.library import load_library, sequences
from aaaf.stress.runner import AgentSpec

AGENTS = ("oracle", "heuristic", "careless", "random")
LIBRARY = load_library()
EXPENSES = [loaded.task.id for loaded in sequences(LIBRARY.tasks)[LEARNING_SEQUENCE]]
# the sample `make demo` runs (scripts/stress_demo.sh): the spread asserted here is the one it shows
SUBSET = sample_task_ids(LIBRARY)


def _spec(name: str) -> AgentSpec:
    return AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents {name}")


@pytest.fixture()
def suite(tmp_path: Path) -> Iterator[tuple[Any, dict[str, Any], dict[str, Any]]]:
    directory = tmp_path
    store = open_store(f"sqlite:///{directory / 'aaaf.db'}")
    org = store.scope(store.default_organization().id)
    runs, records = {}, {}
    for name in AGENTS:
        runs[name], records[name] = run_stress_test(
            org,
            f"ref-{name}",
            _spec(name),
            task_ids=list(dict.fromkeys(SUBSET)),
            # careless dawdles (it waits, it does not compute): as in scripts/stress_demo.sh
            parallel=16 if name == "careless" else 4,
            log_dir=directory / "logs",
        )
    yield org, runs, records
    store.close()


def _assess(org: Any, name: str, kind: str = "stress_test_only") -> dict[str, Any]:
    record = assess_service.assess_agent(
        org, name, now=datetime.now(UTC) + timedelta(seconds=1), assessment_type=kind
    )
    return dict(record.result)


def _dimension(result: dict[str, Any], name: str) -> dict[str, Any]:
    axis = "performance" if name in result["performance"]["dimensions"] else "capability"
    return dict(result[axis]["dimensions"][name])


def _every_run_finished_with_a_result_per_task(suite: tuple[Any, dict[str, Any], dict[str, Any]]) -> None:
    org, runs, _ = suite
    for name, run in runs.items():
        assert run.status == "finished" and run.finished_at is not None
        assert Path(run.log_path).is_file()
        assert len(org.stress_run_results(run.id)) == run.summary["tasks"] == len(set(SUBSET)), name
        assert run.summary["events"]["rejected"] == 0
        assert run.summary["infrastructure_failed"]["tasks"] == 0


def _the_reference_agents_spread_in_order_on_both_axes(
    suite: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    org, runs, _ = suite
    scores = {name: _assess(org, f"ref-{name}") for name in AGENTS}
    for axis in ("performance", "capability"):
        composite = [scores[name][axis]["composite_score"] for name in AGENTS]
        assert composite == sorted(composite, reverse=True) and len(set(composite)) == 4, (axis, composite)
    capability = {name: scores[name]["capability"]["composite_score"] for name in AGENTS}
    assert capability["careless"] <= capability["oracle"] - 0.2
    assert scores["random"]["performance"]["composite_score"] == 0.0
    sources = scores["oracle"]["evidence_sources"]
    assert sources["passive_events"] == 0 and sources["stress_runs"] == [str(runs["oracle"].id)]
    # no judge configured: the model-graded sub-scores are null and the report says so
    assert sources["model_graded"]["judged"] == 0 and "no judge" in sources["model_graded"]["note"]
    merged = org.get_stress_run(runs["oracle"].id)
    assert merged.assessment_id is not None
    assert all(r["assessment_id"] == str(merged.assessment_id) for r in org.stress_run_results(merged.id))


def _levels_are_credited_only_with_three_completed_tasks(
    suite: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    """SCORING.md §2.3: a level counts with ≥ 3 completed tasks and perf ≥ 0.60 there.  The
    library has three tasks a level, so one rejected task loses the level: careless skips the
    checkpoints of levels 0 and 1 (a skipped checkpoint rejects the task) and gives up on one
    task of level 3; it botches the code ladder from level 3, research from 4, analysis at 5;
    the heuristic agent writes stubs past complexity 3."""
    org, _, _ = suite
    careless, heuristic, oracle = (_assess(org, f"ref-{n}") for n in ("careless", "heuristic", "oracle"))
    autonomy = _dimension(careless, "autonomy_level")
    levels = autonomy["details"]["per_level"]
    assert [levels[str(a)]["completed_tasks"] for a in range(4)] == [0, 0, 3, 2]
    assert autonomy["details"]["highest_level"] == 2 and autonomy["score"] == pytest.approx(2 / 3)
    ceiling = _dimension(careless, "complexity_ceiling")["details"]["per_level"]
    assert [ceiling[str(level)]["qualified"] for level in (4, 5)] == [False, False]
    assert _dimension(heuristic, "complexity_ceiling")["score"] == pytest.approx(0.6)
    assert _dimension(oracle, "complexity_ceiling")["score"] == 1.0
    assert (
        _dimension(oracle, "autonomy_level")["score"]
        == _dimension(heuristic, "autonomy_level")["score"]
        == 1.0
    )


def _the_learning_rate_follows_learning_along_the_library_s_sequence(
    suite: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    """The expense sequence ran 8 and 4 tasks at a time, yet its evidence completes in the
    sequence's order; the heuristic agent, which reads the earlier filings, improves; the
    oracle, right from the first task, cannot; careless repeats the same slips in every block
    of five and does not improve either."""
    org, _, _ = suite
    for name in AGENTS[:3]:
        agent = org.get_agent(f"ref-{name}")
        done = {
            e.data["stress_task_id"]: e.timestamp
            for e in org.events(agent.id)
            if e.type == "task_completed" and e.data["stress_task_id"] in EXPENSES
        }
        assert sorted(done, key=lambda task: done[task]) == EXPENSES, name
    learning = {name: _dimension(_assess(org, f"ref-{name}"), "learning_rate") for name in AGENTS[:3]}
    analysis = learning["heuristic"]["details"]["per_domain"]["analysis"]
    assert [t.rsplit("-", 1)[-1] for t in analysis["earlier_tasks"]] == ["01", "02", "03", "04", "05"]
    assert learning["heuristic"]["score"] >= 0.5 and analysis["improvement"] >= 0.15
    assert learning["oracle"]["score"] <= 0.1 and learning["careless"]["score"] <= 0.1


def _a_domain_whose_own_work_fails_does_not_qualify(
    suite: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    """The oracle's run with every code-writing task made rejected: the code domain no longer
    qualifies, though the routing decisions and the tool chains of other domains all passed."""
    org, _, records = suite
    broken = []
    for record in records["oracle"]:
        record = json.loads(json.dumps(record))
        if LIBRARY.get(record["task_id"]).task.domain == "code":
            record["grade"] = {"status": "rejected", "milestones": [], "credit": 0.0, "errors": [
                {"severity": "critical", "message": "tests fail"}]}  # fmt: skip
        broken.append(record)
    # the same events without the stress-test marks: plain evidence of the agent's, scored alone
    events = stress_events(broken, run_id=str(uuid.uuid4()))
    for event in events:
        for mark in ("evidence_source", "stress_run_id", "stress_task_id"):
            event["data"].pop(mark)
    org.enroll_agent("code-broken", description="the oracle's evidence, its code-writing rejected")
    report = collect(org, [(None, e) for e in events], now=datetime.now(UTC), default_agent="code-broken")
    assert report.rejected == 0
    breadth = _dimension(_assess(org, "code-broken", "passive_only"), "domain_breadth")["details"]
    assert "code" not in breadth["qualified_domain_names"]
    assert {"analysis", "legal", "testing"} <= set(breadth["qualified_domain_names"])
    oracle = _dimension(_assess(org, "ref-oracle"), "domain_breadth")["details"]
    assert "code" in oracle["qualified_domain_names"]


def _full_merges_passive_evidence_and_passive_only_leaves_stress_out(
    suite: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    org, _, _ = suite
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
    assert full["evidence_sources"]["stress_test_events"] > len(set(SUBSET))
    assert full["performance"]["dimensions"]["task_completion_rate"]["sample_size"] == len(set(SUBSET)) + 30
    # Performance rests on the run's tasks, stress-tested here, and the 30 reported
    performance = full["evidence_sources"]["performance"]
    assert (performance["stress_tested_tasks"], performance["reported_tasks"]) == (len(set(SUBSET)), 30)
    passive_only = _assess(org, "ref-careless", "passive_only")
    # passive evidence only, as before stress tests: all of it reported by the organization
    assert passive_only["evidence_sources"]["stress_test_events"] == 0
    assert passive_only["evidence_sources"]["passive_events"] == 60
    assert passive_only["evidence_sources"]["performance"]["stress_tested_tasks"] == 0
    assert passive_only["evidence_sources"]["performance"]["reported_tasks"] == 30
    assert passive_only["performance"]["dimensions"]["task_completion_rate"]["sample_size"] == 30
    assert passive_only["performance"]["dimensions"]["task_completion_rate"]["score"] == 0.0


def test_the_reference_agents_on_a_subset_of_the_library(
    suite: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    """One test, so that the four runs are made once (a module fixture is made once per
    xdist worker); each check is a function above, in this order (the last adds evidence)."""
    _every_run_finished_with_a_result_per_task(suite)
    _the_reference_agents_spread_in_order_on_both_axes(suite)
    _levels_are_credited_only_with_three_completed_tasks(suite)
    _the_learning_rate_follows_learning_along_the_library_s_sequence(suite)
    _a_domain_whose_own_work_fails_does_not_qualify(suite)
    _full_merges_passive_evidence_and_passive_only_leaves_stress_out(suite)
