"""inspect_ai logs of AAAF stress tests → AAAF evidence events (issue 15 §4).

The stress harness runs its tasks with inspect_ai; each sample's ``stress_grade`` score
carries the grade and the record of what the agent did.  This module reads such a log with
the same reader as :mod:`aaaf.evals.importers.inspect_ai` (``.eval`` or ``.json``), so a
user who ran ``inspect eval`` on the stress tasks themselves imports their log by the same
path, and turns each sample into the standard events of document 004 §6.2, every one marked
``evidence_source: "stress_test"`` with its run id (``"reported_stress_test"`` for a log the
organization ran itself: docs/stress-tests.md "Provenance"):

* ``task_assigned`` (domain, complexity level, autonomy level), ``task_completed``
  (status, milestones, errors with severity, time); a task of no domain (a delegation task's
  routing decision) has no ``task_assigned`` — its domain is required there — and carries its
  levels in ``task_completed`` (SCORING.md §1's rich form);
* completion timestamps in the library's run order (:func:`evidence_times`);
* one ``tool_invoked`` per tool call (success, unnecessary, error_recovered);
* delegation tasks: ``delegation_decision`` (with ground truth and optimal delegate) and a
  ``delegation_outcome`` per hand-over;
* orchestration tasks: ``orchestration_plan`` and ``orchestration_result``
  (failures injected/recovered; ``workflow_design_score`` = share of the scenario's
  sub-agents the agent used and got complete work from; ``synthesis_quality_score`` —
  required by document 004 §6.2 — the judge's reading when the run had a judge
  (:mod:`aaaf.stress.model_grading`), else the code-graded first layer: the task's credit,
  the share of the sub-agents' results the final answer carries; the model-graded
  ``communication_clarity_score`` is the judge's reading, left out — null — without one;
  ``model_graded_by`` names the judge model, null when none graded the run).

Time: ``time_to_complete_seconds`` is the agent's time on the task's own baseline carried
over to the level's speed baseline (SCORING.md §2.2): at the task's baseline it equals the
level's, so ``speed`` means "as fast as the task expects".  The agent's time leaves out what
its provider's failures cost (retries and their waits); a task whose provider kept failing
(``infrastructure_failed``) yields no events at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.evals.importers.inspect_ai import read_log
from aaaf.scoring.evidence_sources import STRESS_SOURCE

SCORER_NAME = "stress_grade"
EVIDENCE_SOURCE = STRESS_SOURCE
SPEED_BASELINES = {1: 600.0, 2: 3600.0, 3: 14400.0, 4: 43200.0, 5: 86400.0}  # SCORING.md §2.2 defaults


def stress_records(log: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The per-sample stress records of a log (its ``stress_grade`` score metadata), in sample order."""
    records = []
    for sample in log.get("samples") or []:
        scores = sample.get("scores") or {}
        score = scores.get(SCORER_NAME)
        metadata = score.get("metadata") if isinstance(score, Mapping) else None
        if isinstance(metadata, Mapping) and "grade" in metadata:
            records.append(dict(metadata))
        elif sample.get("id") is not None:  # the sample errored before it was graded
            records.append(
                {
                    "task_id": str(sample["id"]),
                    "missing": True,
                    "failure": str((sample.get("error") or {}).get("message", "the sample did not finish")),
                }
            )
    return records


def _is_stress_log(log: Mapping[str, Any]) -> bool:
    """A log of the stress tasks: its samples or its results carry the ``stress_grade`` scorer."""
    scores = (log.get("results") or {}).get("scores") or []
    if any(isinstance(score, Mapping) and score.get("name") == SCORER_NAME for score in scores):
        return True
    return any(SCORER_NAME in (sample.get("scores") or {}) for sample in log.get("samples") or [])


def read_stress_log(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the log's ``eval`` header, its stress records) — the one reader of the harness's own
    logs and of a user's ``inspect eval`` of the stress tasks; a log of other tasks is refused
    (``aaaf eval import`` reads those, as eval runs)."""
    file = Path(path)
    if not file.is_file():
        raise AAAFError("INVALID_REQUEST", f"{file}: no such log file.", {"field": "log"})
    log = read_log(file)
    if not isinstance(log.get("eval"), Mapping):
        raise AAAFError("INVALID_REQUEST", f"{file}: not an inspect_ai log", {"field": "log"})
    if not _is_stress_log(log):
        raise AAAFError(
            "INVALID_REQUEST",
            f"{file}: not a log of the AAAF stress tasks (no {SCORER_NAME} scores); "
            "other inspect_ai logs are eval runs: aaaf eval import",
            {"field": "log", "task": log["eval"].get("task")},
        )
    return dict(log["eval"]), stress_records(log)


def _marker(run_id: str, record: Mapping[str, Any], source: str) -> dict[str, Any]:
    return {"evidence_source": source, "stress_run_id": run_id, "stress_task_id": record["task_id"]}


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def evidence_times(records: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """Per stress task id, the (assigned, completed) timestamps of its evidence.

    Samples run in parallel and finish in any order; SCORING.md §2.3's learning rate reads a
    domain's tasks in completion order, which must be the library's (its learning sequences,
    docs/stress-tests.md "Learning sequences"), never the scheduler's.  So when the records
    carry their run-order ``position``, the run's real finishing times, sorted (and made
    strictly increasing by a microsecond where two coincide), are handed out in that order:
    the k-th task of the run order completes at the k-th finishing time.  Every task was
    assigned when the run began (inspect_ai queues them all at once): the earliest start.
    Records without a position (logs of an older harness) keep their own times."""
    if not records or any(r.get("position") is None for r in records):
        return {r["task_id"]: (r["started_at"], r["finished_at"]) for r in records}
    began = _iso(min(_instant(r["started_at"]) for r in records))
    finishes = sorted(_instant(r["finished_at"]) for r in records)
    for index in range(1, len(finishes)):
        finishes[index] = max(finishes[index], finishes[index - 1] + timedelta(microseconds=1))
    ordered = sorted(records, key=lambda r: (int(r["position"]), str(r["task_id"])))
    return {r["task_id"]: (began, _iso(moment)) for r, moment in zip(ordered, finishes, strict=True)}


def agent_seconds(record: Mapping[str, Any]) -> float:
    """The agent's time on a task: its elapsed time less what its provider's failures took
    (retries, backoff, ``Retry-After``; the chat adapter's ``provider_wait_seconds``)."""
    elapsed = float(record["elapsed_seconds"])
    return max(0.0, elapsed - float(record.get("provider_wait_seconds") or 0.0))


def evidence_task_id(run_id: str, stress_task_id: str) -> str:
    """The AAAF task id of one stress task in one run (runs never share tasks)."""
    return f"stress-{run_id}-{stress_task_id}"


def stress_events(
    records: Sequence[Mapping[str, Any]], *, run_id: str, source: str = EVIDENCE_SOURCE
) -> list[dict[str, Any]]:
    """The AAAF events of a run's stress records (see the module docstring); no agent field.
    ``source`` is their ``evidence_source``: ``stress_test`` for a run of this installation's
    harness, ``reported_stress_test`` for a log the organization imported
    (:mod:`aaaf.scoring.evidence_sources`)."""
    events: list[dict[str, Any]] = []
    graded = [r for r in records if not r.get("missing") and not r.get("infrastructure_failed")]
    times = evidence_times(graded)
    for record in graded:  # not graded, or its provider kept failing: the harness's, never the agent's
        task_id = evidence_task_id(run_id, record["task_id"])
        mark = _marker(run_id, record, source)
        started, finished = times[record["task_id"]]
        level = int(record["complexity_level"])
        attributes: dict[str, Any] = {"complexity_level": level}
        if record.get("autonomy_level") is not None:
            attributes["autonomy_level"] = int(record["autonomy_level"])
        if record.get("domain") is not None:
            assigned = {"task_id": task_id, **attributes, "domain": record["domain"], "assigned_at": started}
            events.append(
                {
                    "id": f"{task_id}:assigned",
                    "type": "task_assigned",
                    "timestamp": started,
                    "data": {**assigned, **mark},
                }
            )
        tools = record.get("tools") or {}
        for index, call in enumerate(tools.get("calls") or []):
            events.append(
                {
                    "id": f"{task_id}:tool:{index}",
                    "type": "tool_invoked",
                    "timestamp": finished,
                    "data": {
                        "task_id": task_id,
                        "tool": str(call["tool"])[:100] or "unnamed",
                        "success": bool(call["success"]),
                        "unnecessary": bool(call["unnecessary"]),
                        "error_recovered": bool(call["error_recovered"]),
                        **mark,
                    },
                }
            )
        delegations = tools.get("delegations") or []
        truth = record.get("delegation")
        if truth:
            chosen = delegations[0]["agent"] if delegations else None
            decision: dict[str, Any] = {
                "task_id": task_id,
                "task_fragment": record["task_id"],
                "decision": "delegate" if chosen else "self",
                "ground_truth": truth["ground_truth"],
                **mark,
            }
            if chosen:
                decision["delegate_to"] = chosen
            if truth.get("optimal_delegate"):
                decision["optimal_delegate"] = truth["optimal_delegate"]
            events.append(
                {
                    "id": f"{task_id}:decision",
                    "type": "delegation_decision",
                    "timestamp": finished,
                    "data": decision,
                }
            )
            for index, handed in enumerate(delegations):
                events.append(
                    {
                        "id": f"{task_id}:outcome:{index}",
                        "type": "delegation_outcome",
                        "timestamp": finished,
                        "data": {
                            "task_id": task_id,
                            "delegate_agent_id": handed["agent"],
                            "outcome": handed["outcome"],
                            "revision_needed": False,
                            **mark,
                        },
                    }
                )
        scenario = record.get("orchestration")
        if scenario:
            events.extend(_orchestration(task_id, record, scenario, delegations, finished, mark))
        graded = record["grade"]
        completed: dict[str, Any] = {
            "task_id": task_id,
            "completion_status": graded["status"],
            "time_to_complete_seconds": agent_seconds(record)
            / float(record["time_baseline_seconds"])
            * SPEED_BASELINES[level],
            "revision_count": 0,
            "errors": [{"severity": e["severity"], "message": e["message"][:500]} for e in graded["errors"]],
            "milestones": graded["milestones"],
            "elapsed_seconds": float(record["elapsed_seconds"]),
            **mark,
        }
        if record.get("domain") is None:  # no task_assigned (its domain is required): the rich form
            completed.update(attributes)
        if record.get("failure"):
            completed["failure"] = str(record["failure"])[:500]
        events.append(
            {"id": f"{task_id}:completed", "type": "task_completed", "timestamp": finished, "data": completed}
        )
    return events


def _orchestration(
    task_id: str,
    record: Mapping[str, Any],
    scenario: Mapping[str, Any],
    delegations: list[Mapping[str, Any]],
    when: str,
    mark: dict[str, Any],
) -> list[dict[str, Any]]:
    order: list[str] = []
    for handed in delegations:
        if handed["agent"] not in order and handed["agent"] in scenario["subagents"]:
            order.append(handed["agent"])
    succeeded = {h["agent"] for h in delegations if h["outcome"] == "success"}
    failed = {h["agent"] for h in delegations if h.get("injected")}
    subagents = scenario["subagents"]
    plan = {
        "task_id": task_id,
        "agents_involved": order or ["none"],
        "dependency_graph": {agent: [] for agent in order},
        "parallel_groups": [order] if order else [],
        **mark,
    }
    result = {
        "task_id": task_id,
        "outcome": record["grade"]["status"],
        "failures_injected": int(scenario["failures_injected"]),
        "failures_recovered": len(failed & succeeded),
        "workflow_design_score": len(succeeded & set(subagents)) / len(subagents),
        # code-graded first layer (document 004 §3.4): the share of the task's checks (each
        # sub-agent's result in the answer) met; the judge's reading replaces it when there is one
        "synthesis_quality_score": float(record["grade"]["credit"]),
        **mark,
    }
    graded = record.get("model_graded")
    if isinstance(graded, Mapping):
        result["model_graded_by"] = graded.get("judge")
        if graded.get("communication_clarity") is not None:
            result["communication_clarity_score"] = float(graded["communication_clarity"])
        if graded.get("synthesis_quality") is not None:
            result["synthesis_quality_score"] = float(graded["synthesis_quality"])
    return [
        {"id": f"{task_id}:plan", "type": "orchestration_plan", "timestamp": when, "data": plan},
        {"id": f"{task_id}:result", "type": "orchestration_result", "timestamp": when, "data": result},
    ]
