"""Model-graded sub-scores of the stress orchestration tasks (issue 15 §1): the configured judge
(a loopback OpenAI-compatible server scripting its replies) grades communication clarity and
synthesis quality; without a judge both are null and the run, its results and the
assessment's evidence sources say so; a judge that errors or answers garbage leaves them null
with the reason and never fails the run — on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from aaaf.scoring.evidence_sources import evidence_sources
from aaaf.services.stress import run_stress_test
from aaaf.settings import Settings
from aaaf.store.store import Store
from aaaf.stress import model_grading
from aaaf.stress.library import load_library
from aaaf.stress.runner import AgentSpec

ORACLE = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents oracle")
TASK = "orchestration-launch"


def _reply(score: int, reason: str) -> dict[str, Any]:
    return {"content": json.dumps({"score": score, "reason": reason})}


def _settings(url: str) -> Settings:
    return Settings(judge_base_url=url, judge_model="judge-m", judge_api_key="k")


def _run(store: Store, tmp_path: Path, settings: Settings | None) -> tuple[Any, Any, list[dict[str, Any]]]:
    org = store.scope(store.default_organization().id)
    run, records = run_stress_test(
        org, "orch", ORACLE, task_ids=[TASK], parallel=1, log_dir=tmp_path / "logs", settings=settings
    )
    return org, run, records


def test_without_a_judge_the_sub_scores_are_null_and_every_record_says_so(
    store: Store, tmp_path: Path
) -> None:
    org, run, records = _run(store, tmp_path, None)
    assert run.status == "finished"
    graded = records[0]["model_graded"]
    assert graded["judge"] is None and graded["communication_clarity"] is None
    assert graded["synthesis_quality"] is None and graded["note"] == model_grading.NO_JUDGE
    assert run.summary["model_graded"]["judge"] is None
    assert run.summary["model_graded"]["note"] == model_grading.NO_JUDGE
    (result,) = org.stress_run_results(run.id)
    assert result["details"]["model_graded"]["note"] == model_grading.NO_JUDGE
    agent = org.get_agent("orch")
    (orchestration,) = [e for e in org.events(agent.id) if e.type == "orchestration_result"]
    assert "communication_clarity_score" not in orchestration.data
    assert orchestration.data["model_graded_by"] is None
    # the required synthesis field carries the code-graded first layer (the task's credit)
    assert orchestration.data["synthesis_quality_score"] == records[0]["grade"]["credit"]
    harness = {str(run.id)}  # the run this installation's harness executed
    sources = evidence_sources(org.events(agent.id), harness_runs=harness)["model_graded"]  # as recorded
    assert sources["orchestration_results"] == 1 and sources["judged"] == 0
    assert "no judge was configured" in sources["note"]


def test_a_configured_judge_grades_clarity_and_synthesis(
    store: Store, tmp_path: Path, chat_server: tuple[str, Any]
) -> None:
    url, handler = chat_server
    handler.script = [_reply(5, "clear instructions"), _reply(3, "misses a source")]
    org, run, records = _run(store, tmp_path, _settings(url))
    graded = records[0]["model_graded"]
    assert graded["judge"] == "judge-m"
    assert graded["communication_clarity"] == 1.0  # (5 - 1) / 4
    assert graded["synthesis_quality"] == 0.5  # (3 - 1) / 4
    assert graded["details"]["synthesis_quality"]["reason"] == "misses a source"
    # the judge read the instructions sent to the sub-agents, then the final answer
    clarity_prompt = handler.requests[0]["body"]["messages"][0]["content"]
    synthesis_prompt = handler.requests[1]["body"]["messages"][0]["content"]
    assert "Communication clarity" in clarity_prompt
    assert "to researcher: your part of the launch" in clarity_prompt  # what the oracle sent
    assert "Synthesis quality" in synthesis_prompt and records[0]["answer"] in synthesis_prompt
    assert handler.requests[0]["auth"] == "Bearer k"
    assert run.summary["model_graded"]["judged"] == {"communication_clarity": 1, "synthesis_quality": 1}
    agent = org.get_agent("orch")
    (orchestration,) = [e for e in org.events(agent.id) if e.type == "orchestration_result"]
    assert orchestration.data["communication_clarity_score"] == 1.0
    assert orchestration.data["synthesis_quality_score"] == 0.5
    assert orchestration.data["model_graded_by"] == "judge-m"
    sources = evidence_sources(org.events(agent.id), harness_runs={str(run.id)})["model_graded"]
    assert sources == {"orchestration_results": 1, "judged": 1, "judges": ["judge-m"], "note": None}


@pytest.mark.parametrize(
    ("script", "failure"),
    [
        ([{"content": "I think it deserves a 4."}], "unparseable judge reply"),
        ([{"status": 400}], "HTTP 400"),
    ],
)
def test_a_judge_that_errs_or_answers_garbage_leaves_null_and_the_run_finishes(
    store: Store, tmp_path: Path, chat_server: tuple[str, Any], script: list[dict[str, Any]], failure: str
) -> None:
    url, handler = chat_server
    handler.script = script
    _org, run, records = _run(store, tmp_path, _settings(url))
    assert run.status == "finished"
    graded = records[0]["model_graded"]
    assert graded["communication_clarity"] is None and graded["synthesis_quality"] is None
    assert failure in graded["details"]["communication_clarity"]["failure"]
    assert "failed" in graded["note"]
    assert "2 judgement(s) failed" in run.summary["model_graded"]["note"]


def test_an_unreachable_judge_is_recorded_not_raised() -> None:
    library = load_library([])
    record = {
        "task_id": TASK,
        "orchestration": {"subagents": [], "failures_injected": 2},
        "answer": "done",
        "tools": {"delegations": [{"agent": "a", "task": "do x"}]},
    }
    from aaaf.graders.judge import Judge

    judge = Judge("http://127.0.0.1:9/v1", "m", max_retries=0, timeout_seconds=1)
    model_grading.model_grade([record], library, {r: judge for r in model_grading.RUBRICS})
    assert record["model_graded"]["synthesis_quality"] is None
    assert "could not be reached" in record["model_graded"]["details"]["synthesis_quality"]["failure"]


def test_records_without_orchestration_are_not_model_graded_and_sources_omit_the_key() -> None:
    records: list[dict[str, Any]] = [{"task_id": "probe-code-1", "orchestration": None}]
    model_grading.model_grade(records, load_library([]), None)
    assert "model_graded" not in records[0]
    assert model_grading.summary(records) is None
    assert "model_graded" not in evidence_sources([], harness_runs=frozenset())


def test_stress_runs_shows_who_graded_the_sub_scores() -> None:
    from aaaf.cli.commands.stress import _model_graded

    assert _model_graded(None) == "—"  # a run without orchestration tasks
    unjudged = model_grading.summary([{"model_graded": {"judge": None, "communication_clarity": None}}])
    assert _model_graded(unjudged) == "null (no judge configured)"
    judged = model_grading.summary(
        [{"model_graded": {"judge": "m", "communication_clarity": 0.5, "synthesis_quality": None}}]
    )
    assert (
        judged is not None and judged["note"] == "graded by the judge m; 1 judgement(s) failed and are null"
    )
    assert _model_graded(judged) == "m: {'communication_clarity': 1, 'synthesis_quality': 0}"
