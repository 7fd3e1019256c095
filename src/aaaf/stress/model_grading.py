"""Model-graded sub-scores of the stress orchestration tasks (issue 15 §1; document 004 §3.2
"Orchestration Skills" and §3.4 "Grader Architecture").

Document 004 §3.4 puts communication clarity and synthesis quality on the model-based layer;
SCORING.md §2.3 carries them in ``orchestration_result`` as ``communication_clarity_score``
and ``synthesis_quality_score`` in [0, 1].  When a judge is configured
(``AAAF_JUDGE_BASE_URL`` / ``AAAF_JUDGE_MODEL``, :meth:`aaaf.graders.judge.Judge.from_settings`)
each orchestration task is read twice by it:

* **communication clarity** (rubric ``communication_clarity``) — document 004: "quality of
  prompts/instructions sent to coordinated agents": the response graded is the instructions
  the agent sent with each ``delegate`` call, the task is the scenario's prompt;
* **synthesis quality** (rubric ``synthesis_quality``) — "quality of the final integrated
  output from multi-agent work": the response is the agent's final answer, the task is the
  prompt with the sub-agents' complete results, the reference the task's reference answer.

The judge's 1-5 score becomes a unit score by the inverse of SCORING.md §4's mapping of a
[0, 1] grade onto the judge scale (``1 + 4 × value``): ``(score − 1) / 4``.  A judge that
cannot be reached or answers garbage is a *failed* judgement: the sub-score stays null and
the record keeps the reason and the raw reply — it never fails the run.  Without a judge
both sub-scores are null and the record says so (:data:`NO_JUDGE`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aaaf.graders.judge import Judge, Judgement

CLARITY = "communication_clarity"
SYNTHESIS = "synthesis_quality"
RUBRICS = (CLARITY, SYNTHESIS)
NO_JUDGE = (
    "no model judge is configured (AAAF_JUDGE_BASE_URL, AAAF_JUDGE_MODEL): the model-graded "
    "communication clarity and synthesis quality are null"
)


def unit_score(score: int) -> float:
    """A judge's 1-5 score on [0, 1] (inverse of SCORING.md §4's ``1 + 4 × value``)."""
    return (score - 1) / 4


def _instructions(record: Mapping[str, Any]) -> str | None:
    handed = (record.get("tools") or {}).get("delegations") or []
    lines = [f"to {d['agent']}: {d['task']}" for d in handed]
    return "\n".join(lines) if lines else None


def samples(record: Mapping[str, Any], task: Any) -> dict[str, dict[str, Any]]:
    """The judge's sample for each rubric of one orchestration record (see the module docstring)."""
    subagents = task.orchestration.subagents if task.orchestration is not None else []
    results = "\n".join(f"{s.name}: {s.output}" for s in subagents)
    return {
        CLARITY: {
            "input": f"{task.prompt}\n\nSub-agents available: {', '.join(s.name for s in subagents)}",
            "output": _instructions(record),
        },
        SYNTHESIS: {
            "input": f"{task.prompt}\n\nThe sub-agents' complete results:\n{results}",
            "reference": task.reference.answer or None,
            "output": record.get("answer"),
        },
    }


def _entry(judgement: Judgement) -> dict[str, Any]:
    if judgement.failed or judgement.score is None:
        return {"score": None, "failure": judgement.reason, "raw": judgement.raw[:2000]}
    return {
        "score": unit_score(judgement.score),
        "judge_score": judgement.score,
        "reason": judgement.reason,
        "prompt_sha256": judgement.prompt_sha256,
    }


def model_grade(records: Sequence[dict[str, Any]], library: Any, judges: Mapping[str, Judge] | None) -> None:
    """Add ``model_graded`` to every orchestration record: its two sub-scores (null without a
    judge, or when the judgement failed) and what decided them."""
    for record in records:
        if record.get("missing") or not record.get("orchestration"):
            continue
        if not judges:
            record["model_graded"] = {"judge": None, CLARITY: None, SYNTHESIS: None, "note": NO_JUDGE}
            continue
        task = library.get(record["task_id"]).task
        graded: dict[str, Any] = {"judge": next(iter(judges.values())).model}
        details: dict[str, Any] = {}
        for rubric, sample in samples(record, task).items():
            entry = _entry(judges[rubric].score(sample))
            graded[rubric] = entry["score"]
            details[rubric] = entry
        graded["details"] = details
        failed = [r for r in RUBRICS if graded[r] is None]
        if failed:
            graded["note"] = f"the judge's reading of {', '.join(failed)} failed: null"
        record["model_graded"] = graded


def summary(records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """What a run's summary says about the model-graded sub-scores (None: no orchestration task)."""
    graded = [r["model_graded"] for r in records if r.get("model_graded")]
    if not graded:
        return None
    judged = {rubric: sum(1 for g in graded if g.get(rubric) is not None) for rubric in RUBRICS}
    judge = next((g["judge"] for g in graded if g.get("judge")), None)
    if judge is None:
        note = NO_JUDGE
    else:
        failed = sum(1 for g in graded for r in RUBRICS if g.get(r) is None)
        note = f"graded by the judge {judge}" + (
            f"; {failed} judgement(s) failed and are null" if failed else ""
        )
    return {"judge": judge, "orchestration_tasks": len(graded), "judged": judged, "note": note}
