"""Stress runs through inspect_ai with a hanging and a crashing agent, on a 2-task library of
the organization's own with short limits (issue 15 §7): rejected tasks, a finished run, its
results and evidence stored — on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.services.stress import run_stress_test
from aaaf.store.store import Store
from aaaf.stress import adapters
from aaaf.stress.runner import AgentSpec
from tests.stress.conftest import _Scripted
from tests.stress_tasks import probe_task

TASKS = [probe_task(f"own-{i}") for i in (1, 2)]


@pytest.fixture()
def own_library(tmp_path: Path) -> Path:
    directory = tmp_path / "acme-tasks"
    directory.mkdir()
    (directory / "tasks.json").write_text(json.dumps({"tasks": TASKS}), encoding="utf-8")
    return directory


@pytest.mark.parametrize(
    ("program", "failure", "turn_timeout"),
    [
        ("import time; time.sleep(60)", "hang", 1.0),
        # the crash comes as soon as the first turn is read: a turn limit the agent's start-up
        # in its sandbox cannot reach on a loaded machine (at 1 s a slow start read as a hang)
        ("import sys; sys.stdin.readline(); sys.exit(9)", "crash", 10.0),
    ],
)
def test_a_hanging_or_crashing_agent_yields_rejected_tasks_and_a_finished_run(
    store: Store, own_library: Path, tmp_path: Path, program: str, failure: str, turn_timeout: float
) -> None:
    org = store.scope(store.default_organization().id)
    script = tmp_path / "agent.py"
    script.write_text(program)
    run, records = run_stress_test(
        org,
        "flaky",
        AgentSpec(command=f"{sys.executable} {script}"),
        library_dirs=[str(own_library)],
        task_ids=["own-1", "own-2"],
        parallel=2,
        log_dir=tmp_path / "logs",
        turn_timeout=turn_timeout,
        task_timeout=3.0 * turn_timeout,
    )
    assert run.status == "finished" and run.finished_at is not None
    assert run.summary["statuses"] == {"rejected": 2}
    assert all(r["failure"].startswith(failure) for r in records), [r["failure"] for r in records]
    results = org.stress_run_results(run.id)
    assert [r["outcome"] for r in results] == ["fail", "fail"]
    assert all(r["assessment_id"] is None for r in results)
    assert all(r["task_key"].startswith("acme-tasks:own-") for r in results)
    own = org.stress_tests(dimension="domain_breadth")
    assert {t.organization_id for t in own} == {org.organization_id}  # stored as the org's own tasks
    agent = org.get_agent("flaky")
    events = org.events(agent.id)
    assert {e.type for e in events} == {"task_assigned", "task_completed"}
    assert all(e.data["evidence_source"] == "stress_test" for e in events)
    assert all(e.data["stress_run_id"] == str(run.id) for e in events)
    assert [run.id] == [r.id for r in org.stress_runs(agent.id)]


def test_agent_spec_needs_one_agent() -> None:
    with pytest.raises(AAAFError):
        AgentSpec()
    with pytest.raises(AAAFError):
        AgentSpec(command="x", url="http://h")
    with pytest.raises(AAAFError, match="--model"):
        AgentSpec(url="http://h")


def test_tasks_whose_provider_kept_failing_are_counted_apart_and_never_scored(
    store: Store,
    own_library: Path,
    tmp_path: Path,
    chat_server: tuple[str, type[_Scripted]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A provider answering 503 to every request: both tasks are infrastructure-failed — in the
    run's summary, with no result row and no event: nothing says the agent rejected them."""
    monkeypatch.setattr(adapters, "RETRY_BACKOFF", 0.01)
    monkeypatch.setattr(adapters, "RETRY_BACKOFF_MAX", 0.02)
    url, handler = chat_server
    handler.script = [{"status": 503}]
    org = store.scope(store.default_organization().id)
    run, records = run_stress_test(
        org,
        "rate-limited",
        AgentSpec(url=url, model="m"),
        library_dirs=[str(own_library)],
        task_ids=["own-1", "own-2"],
        parallel=2,
        log_dir=tmp_path / "logs",
    )
    assert run.status == "finished"
    assert run.summary["infrastructure_failed"] == {"tasks": 2, "task_ids": ["own-1", "own-2"]}
    assert run.summary["statuses"] == {} and run.summary["events"] == {"accepted": 0, "rejected": 0}
    assert all(r["infrastructure_failed"] and r["failure"].startswith("provider:") for r in records)
    assert org.stress_run_results(run.id) == []
    assert org.events(org.get_agent("rate-limited").id) == []
