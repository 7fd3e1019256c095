"""``aaaf assess --all`` (the batch path, ``assess_many``) records what ``assess NAME`` records
about stress-test evidence (issue 15 §4): the result's ``evidence_sources`` and the stress runs
marked merged into the assessment; an agent without stress evidence fails a
``stress_test_only`` run with the clear error — on SQLite and PostgreSQL, in this process and
in helper processes."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from aaaf.evidence.validation import validate_event
from aaaf.services.assess import assess_agent, assess_many
from aaaf.services.stress import run_stress_test
from aaaf.store.store import Store
from aaaf.stress.runner import AgentSpec
from tests.cli.events_factory import agent_log

ORACLE = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents oracle")
TASKS = ["probe-legal-1", "probe-legal-2", "probe-code-1"]


@pytest.mark.parametrize("workers", [1, 2])
def test_assess_all_records_evidence_sources_and_merges_runs_like_assess_name(
    store: Store, tmp_path: Path, workers: int
) -> None:
    org = store.scope(store.default_organization().id)
    org.update_config(minimum_tasks_performance=3, minimum_tasks_capability=3)
    run, _ = run_stress_test(org, "probed", ORACLE, task_ids=TASKS, parallel=2, log_dir=tmp_path / "logs")
    now = datetime.now(UTC) + timedelta(seconds=1)
    passive = org.enroll_agent("passive")
    org.add_events(
        [
            (passive.id, validate_event(event, now=now, default_agent="passive"))
            for event in agent_log(None, 4, prefix="passive", now=now)
        ]
    )
    outcomes = {o.agent.name: o for o in assess_many(org, org.agents(), now=now, assessment_type="stress_test_only", workers=workers)}  # fmt: skip
    probed = outcomes["probed"].assessment
    assert probed is not None and probed.status == "completed"
    sources = probed.result["evidence_sources"]
    assert sources["passive_events"] == 0 and sources["stress_runs"] == [str(run.id)]
    assert org.get_stress_run(run.id).assessment_id == probed.id  # merged, as assess NAME does
    assert all(r["assessment_id"] == str(probed.id) for r in org.stress_run_results(run.id))
    # the same as the one-agent path records
    single = assess_agent(org, "probed", now=now + timedelta(seconds=1), assessment_type="stress_test_only")
    assert single.result["evidence_sources"] == sources
    refused = outcomes["passive"]
    assert refused.assessment is None and refused.error is not None
    assert (
        refused.error.code == "INSUFFICIENT_EVIDENCE" and "no stress-test evidence" in refused.error.message
    )
    # per axis: the three stress tasks, every one stress-tested by this installation
    assert (
        sources["performance"]["stress_tested_tasks"] == 3 and sources["performance"]["reported_tasks"] == 0
    )
    assert sources["capability"]["stress_tested_tasks"] == 3 and sources["capability"]["reported_tasks"] == 0
    # full: both agents record where their evidence came from; the passive one's is all reported
    full = {o.agent.name: o.assessment for o in assess_many(org, org.agents(), now=now + timedelta(seconds=2), assessment_type="full", workers=workers)}  # fmt: skip
    assert full["probed"] is not None and full["probed"].result["evidence_sources"]["stress_test_events"] > 0
    assert full["passive"] is not None
    passive_sources = full["passive"].result["evidence_sources"]
    assert passive_sources["stress_test_events"] == 0 and passive_sources["passive_events"] == 8
    assert passive_sources["performance"] == {
        "stress_tested_tasks": 0,
        "reported_tasks": 4,
        "stress_tested_events": 0,
        "reported_events": 8,  # each task's task_assigned and task_completed
    }
