"""A user's own inspect_ai log of the stress tasks as stress-test evidence (issue 15 "Build on
inspect_ai": "one path for both"): the log is made as a user makes it — ``inspect_ai.eval`` of
the packaged ``stress_suite`` with their agent, mockllm as the nominal model (with ``usage``
set: offline) — and imported by ``aaaf import-inspect`` / :func:`import_inspect_log`, the
path the harness's own runs take; on SQLite and PostgreSQL for the service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.evidence_sources import evidence_sources
from aaaf.services.provenance import agent_runs
from aaaf.services.stress import import_inspect_log, run_stress_test
from aaaf.store.store import Store
from aaaf.stress.runner import AgentSpec, _nominal_model
from tests.stress_tasks import probe_task

AAAF = str(Path(sys.executable).with_name("aaaf"))
ORACLE = f"{sys.executable} -m aaaf.stress.reference_agents oracle"
TASKS = "probe-legal-1,orchestration-launch"
OTHER_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "inspect" / "issue11" / "control_epochs.eval"


@pytest.fixture(scope="module")
def user_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An inspect log of two stress tasks, run by the user with inspect_ai itself."""
    from inspect_ai import eval as inspect_eval

    from aaaf.stress.inspect_tasks import stress_suite

    directory = tmp_path_factory.mktemp("user-logs")
    (log,) = inspect_eval(
        stress_suite(task_ids=TASKS, agent_cmd=ORACLE),
        model=_nominal_model(),
        log_dir=str(directory),
        display="none",
    )
    assert log.status == "success"
    return Path(log.location)


def test_a_users_log_becomes_a_stress_run_with_the_same_evidence_as_the_harness(
    store: Store, user_log: Path, tmp_path: Path
) -> None:
    org = store.scope(store.default_organization().id)
    with pytest.raises(AAAFError) as unknown:
        import_inspect_log(org, "mine", user_log)
    assert unknown.value.code == "NOT_FOUND"
    run, _records = import_inspect_log(org, "mine", user_log, enroll=True)
    assert run.status == "finished" and run.adapter == "inspect_log"
    assert run.agent_reference == str(user_log.resolve()) and run.log_path == str(user_log.resolve())
    assert run.summary["statuses"] == {"accepted": 2}
    assert [r["outcome"] for r in org.stress_run_results(run.id)] == ["pass", "pass"]
    agent = org.get_agent("mine")
    events = org.events(agent.id)
    # not run by this installation: stored, labelled as reported by the organization
    assert all(
        e.data["evidence_source"] == "reported_stress_test" and e.data["stress_run_id"] == str(run.id)
        for e in events
    )
    assert run.summary["provenance"] == "reported"
    assert {r["details"]["evidence_source"] for r in org.stress_run_results(run.id)} == {
        "reported_stress_test"
    }
    # the harness on the same tasks gives the same kinds of events: one path for both
    harness, _ = run_stress_test(
        org, "harnessed", AgentSpec(command=ORACLE), task_ids=TASKS.split(","), parallel=2, log_dir=tmp_path
    )
    harnessed = org.events(org.get_agent("harnessed").id)
    assert sorted(e.type for e in harnessed) == sorted(e.type for e in events)
    assert harness.summary["provenance"] == "stress_tested"
    runs = agent_runs(org, agent.id)
    assert runs.harness == frozenset() and runs.imported == {str(run.id)}
    sources = evidence_sources(events, harness_runs=runs.harness, imported_runs=runs.imported)
    assert sources["stress_runs"] == [] and sources["stress_test_events"] == 0
    assert sources["reported_stress_runs"] == [str(run.id)]
    assert sources["reported_stress_events"] == sources["passive_events"] == len(events)
    # no judge configured here: the orchestration task's model-graded sub-scores are null, said so
    assert run.summary["model_graded"]["judge"] is None
    # the same log again, or the harness's own log, is refused: evidence is never counted twice
    with pytest.raises(AAAFError) as again:
        import_inspect_log(org, "mine", user_log)
    assert again.value.code == "CONFLICT" and again.value.details["stress_run_id"] == str(run.id)
    with pytest.raises(AAAFError) as own:
        import_inspect_log(org, "harnessed", harness.log_path)
    assert own.value.code == "CONFLICT"
    with pytest.raises(AAAFError) as elsewhere:  # nor under another agent's name
        import_inspect_log(org, "someone-else", user_log, enroll=True)
    assert elsewhere.value.code == "CONFLICT"
    assert "someone-else" not in {a.name for a in org.agents()}  # a refused log enrolls nobody
    assert len(org.stress_runs(agent.id)) == 1
    assert run.finished_at is not None and run.finished_at <= datetime.now(UTC)


def test_a_log_of_other_tasks_or_of_unknown_tasks_is_refused(
    store: Store, tmp_path: Path, user_log: Path
) -> None:
    org = store.scope(store.default_organization().id)
    with pytest.raises(AAAFError) as other:
        import_inspect_log(org, "mine", OTHER_LOG, enroll=True)
    assert other.value.code == "INVALID_REQUEST" and "aaaf eval import" in other.value.message
    with pytest.raises(AAAFError) as missing:
        import_inspect_log(org, "mine", tmp_path / "nope.eval", enroll=True)
    assert missing.value.code == "INVALID_REQUEST"
    # a log of the organization's own task needs its directory (--library), as the harness does
    from inspect_ai import eval as inspect_eval

    from aaaf.stress.inspect_tasks import stress_suite

    own = tmp_path / "acme-tasks"
    own.mkdir()
    task = probe_task("own-1")
    (own / "tasks.json").write_text(json.dumps({"tasks": [task]}), encoding="utf-8")
    (log,) = inspect_eval(
        stress_suite(library=str(own), task_ids="own-1", agent_cmd=ORACLE),
        model=_nominal_model(),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    with pytest.raises(AAAFError) as unknown:
        import_inspect_log(org, "mine", log.location, enroll=True)
    assert unknown.value.code == "NOT_FOUND" and unknown.value.details == {"task_id": "own-1"}
    assert org.stress_runs() == []  # nothing recorded for a refused log
    run, _ = import_inspect_log(org, "mine", log.location, library_dirs=[str(own)], enroll=True)
    (result,) = org.stress_run_results(run.id)
    assert result["outcome"] == "pass" and result["task_key"].startswith("acme-tasks:own-1@")


def _aaaf(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AAAF_DB": "", "NO_COLOR": "1"}
    return subprocess.run([AAAF, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def test_import_inspect_on_the_command_line(user_log: Path, tmp_path: Path, sqlite_at_head: Path) -> None:
    db = str(sqlite_at_head)
    assert _aaaf("enroll", "cli-user", "--db", db, cwd=tmp_path).returncode == 0
    # stress_test_only before any stress evidence: a clear error, exit 2
    refused = _aaaf("assess", "cli-user", "--type", "stress_test_only", "--db", db, "--json", cwd=tmp_path)
    assert refused.returncode == 2
    error = json.loads(refused.stderr)["error"]
    assert error["code"] == "INSUFFICIENT_EVIDENCE" and "no stress-test evidence" in error["message"]
    done = _aaaf("import-inspect", str(user_log), "--agent", "cli-user", "--db", db, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (run,) = json.loads(done.stdout)
    assert run["adapter"] == "inspect_log" and run["summary"]["statuses"] == {"accepted": 2}
    assert run["summary"]["model_graded"]["judge"] is None
    # its evidence is the organization's report, not a stress test of this installation
    still = _aaaf("assess", "cli-user", "--type", "stress_test_only", "--db", db, "--json", cwd=tmp_path)
    assert still.returncode == 2
    error = json.loads(still.stderr)["error"]
    assert error["code"] == "INSUFFICIENT_EVIDENCE"
    assert error["details"]["reported_stress_events"] == run["summary"]["events"]["accepted"] > 0
    again = _aaaf(
        "import-inspect", str(user_log), str(OTHER_LOG), "--agent", "cli-user", "--db", db, cwd=tmp_path
    )
    assert again.returncode == 2 and "already stored" in again.stderr
    other = _aaaf("import-inspect", str(OTHER_LOG), "--agent", "cli-user", "--db", db, cwd=tmp_path)
    assert other.returncode == 2 and "aaaf eval import" in other.stderr
