"""The grading pass of layered evals: everything the pure scoring needs, graded first.

SCORING.md §4: an assertion with ``passed`` is taken as already graded; one without it
is graded from the sample (``aaaf.graders.grade_assertion``), and a missing input fails
it with the reason.  Model judges, when configured, add their 1-5 scores to each
sample's ``judges``.  Only then does the pure layered scoring (``aaaf.scoring.layered``,
via ``aaaf.evals.models.to_layered``) run, on graded data only — the core never calls
a grader or a model.

What :func:`grade_run` writes into the run, so that every number stays traceable:

* on each assertion it graded: ``passed``, ``reason`` and ``grader`` (the method, e.g.
  ``code:similar:lexical:word-1-2gram-tf-cosine``), plus ``measured`` where the grader
  compared a quantity (similarity, turns, cost, latency);
* for each judge and sample: a ``judges`` entry ``{judge, score, reason, model,
  prompt_sha256, calibrated}`` when the judge gave a valid score, or a
  ``judge_failures`` entry ``{judge, reason, raw, model, prompt_sha256}`` when it did
  not (a failed judgement is never turned into a score).  A sample that already has a
  score from a judge of that name is not asked again, so grading is idempotent.

Judges run concurrently across samples (``concurrency`` threads); results are written
in sample order and ensemble order whatever the completion order.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, overload

from aaaf.errors import AAAFError
from aaaf.evals.models import EvalRun, parse_run, to_layered
from aaaf.graders.assertions import grade_assertion
from aaaf.graders.calibration import SPEARMAN_THRESHOLD, Calibration, calibrate
from aaaf.graders.judge import Judge, JudgeEnsemble, Judgement
from aaaf.scoring.layered import LayeredRun

# run files live in aaaf.services.eval_files; re-exported here for the commands that import them from here
from aaaf.services.eval_files import (
    RUN_FORMATS,
    check_finished,
    column_list,
    comparison_runs,
    detect_format,
    pick_column,
    read_runs,
    run_file_name,
    treatment_runs,
    unfinished,
    write_run,
)

logger = logging.getLogger(__name__)


def _ensemble(judges: JudgeEnsemble | Judge | Sequence[Judge] | None) -> JudgeEnsemble | None:
    if judges is None:
        return None
    if isinstance(judges, JudgeEnsemble):
        return judges
    if isinstance(judges, Judge):
        return JudgeEnsemble([judges])
    return JudgeEnsemble(list(judges)) if judges else None


def _grade_assertions(samples: list[dict[str, Any]], similarity_method: str | None) -> int:
    grade = partial(grade_assertion, similarity_method=similarity_method)
    graded = 0
    for sample in samples:
        for assertion in sample.get("assertions") or []:
            if assertion.get("passed") is not None:
                continue
            try:
                outcome = grade(assertion, sample)
            except AAAFError as error:
                error.details.setdefault("sample_id", sample.get("sample_id"))
                error.message = f"Sample {sample.get('sample_id')}: {error.message}"
                error.args = (error.message,)
                raise
            assertion["passed"] = outcome.passed
            assertion["reason"] = outcome.reason
            assertion["grader"] = outcome.method
            if outcome.measured is not None:
                assertion["measured"] = outcome.measured
            graded += 1
    return graded


def _judge_entry(judge: Judge, judgement: Judgement) -> dict[str, object]:
    return {
        "judge": judge.name,
        "score": judgement.score,
        "reason": judgement.reason,
        "model": judge.model,
        "prompt_sha256": judgement.prompt_sha256,
        "calibrated": judge.calibrated,
    }


def _failure_entry(judge: Judge, judgement: Judgement) -> dict[str, object]:
    return {
        "judge": judge.name,
        "reason": judgement.reason,
        "raw": judgement.raw,
        "model": judge.model,
        "prompt_sha256": judgement.prompt_sha256,
    }


def _run_judges(samples: list[dict[str, Any]], ensemble: JudgeEnsemble, concurrency: int) -> tuple[int, int]:
    work: list[tuple[int, Judge]] = []
    for index, sample in enumerate(samples):
        already = {entry.get("judge") for entry in sample.get("judges") or []}
        work.extend((index, judge) for judge in ensemble.judges if judge.name not in already)
    if not work:
        return 0, 0

    def ask(item: tuple[int, Judge]) -> Judgement:
        index, judge = item
        return judge.score(samples[index])

    if concurrency > 1 and len(work) > 1:
        with ThreadPoolExecutor(max_workers=min(concurrency, len(work))) as pool:
            judgements = list(pool.map(ask, work))
    else:
        judgements = [ask(item) for item in work]
    scored = failed = 0
    for (index, judge), judgement in zip(work, judgements, strict=True):
        sample = samples[index]
        if judgement.failed or judgement.score is None:
            sample.setdefault("judge_failures", []).append(_failure_entry(judge, judgement))
            failed += 1
        else:
            sample.setdefault("judges", []).append(_judge_entry(judge, judgement))
            scored += 1
    return scored, failed


@overload
def grade_run(
    run: EvalRun,
    *,
    judges: JudgeEnsemble | Judge | Sequence[Judge] | None = ...,
    similarity_method: str | None = ...,
    require_calibration: bool = ...,
    concurrency: int = ...,
) -> EvalRun: ...


@overload
def grade_run(
    run: Mapping[str, object],
    *,
    judges: JudgeEnsemble | Judge | Sequence[Judge] | None = ...,
    similarity_method: str | None = ...,
    require_calibration: bool = ...,
    concurrency: int = ...,
) -> dict[str, Any]: ...


def grade_run(
    run: EvalRun | Mapping[str, object],
    *,
    judges: JudgeEnsemble | Judge | Sequence[Judge] | None = None,
    similarity_method: str | None = None,
    require_calibration: bool = False,
    concurrency: int = 4,
) -> EvalRun | dict[str, Any]:
    """A graded copy of the run: every assertion has ``passed``; judges have scored every sample.

    ``run`` is a run object of SCORING.md §4 (validated here; INVALID_REQUEST names the
    first bad field) or an :class:`~aaaf.evals.models.EvalRun`; the result is of the same
    kind.  ``similarity_method`` is the default for ``similar`` assertions that name none.
    ``require_calibration`` refuses judges without an accepted calibration for their
    rubric (document 004 §3.4: "before deployment"); a judge whose calibration was
    *refused* is refused in any case (it cannot be built).
    """
    model = run if isinstance(run, EvalRun) else parse_run(run)
    ensemble = _ensemble(judges)
    if ensemble is not None and require_calibration:
        uncalibrated = [judge.name for judge in ensemble.judges if not judge.calibrated]
        if uncalibrated:
            raise AAAFError(
                "INVALID_REQUEST",
                "Judges without an accepted calibration against human labels for their rubric "
                f"(docs/scoring.md §5.6): {', '.join(uncalibrated)}.",
                {"judges": uncalibrated},
            )
    data = model.model_dump(mode="json", exclude_none=True)
    samples: list[dict[str, object]] = data["samples"]
    graded = _grade_assertions(samples, similarity_method)
    scored = failed = 0
    if ensemble is not None:
        scored, failed = _run_judges(samples, ensemble, max(1, concurrency))
    logger.info(
        "graded run %s: %d assertion(s) graded, %d judge score(s), %d failed judgement(s)",
        model.run_id,
        graded,
        scored,
        failed,
    )
    result = parse_run(data, source=f"run {model.run_id}")
    return result if isinstance(run, EvalRun) else result.model_dump(mode="json", exclude_none=True)


__all__ = [
    "RUN_FORMATS",
    "apply_human_labels",
    "calibrate_ensemble",
    "check_finished",
    "column_list",
    "comparison_runs",
    "detect_format",
    "grade_run",
    "grading_summary",
    "judge_calibrations",
    "pick_column",
    "read_human_labels",
    "read_runs",
    "run_file_name",
    "to_layered_run",
    "treatment_runs",
    "unfinished",
    "write_run",
]


# --------------------------------------------------------------------------- human labels


def read_human_labels(path: str | Path) -> list[tuple[str | None, str, float]]:
    """(run or None, sample_id, label) from a human-labels file.

    Accepted: a JSON object ``{sample_id: score}``; a JSON list, or JSON Lines, of
    ``{sample_id, human, run?}`` (``score`` is read as ``human``), where ``run`` names a
    run by its ``run_id`` or ``variant``.  Labels are 1-5, as a sample's ``human``.
    """
    file = Path(path)
    if not file.is_file():
        raise AAAFError("INVALID_REQUEST", f"{file}: no such human-labels file.", {"path": str(file)})
    text = file.read_text(encoding="utf-8")
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise AAAFError(
                "INVALID_REQUEST", f"{file}: not JSON or JSON Lines: {error.msg}.", {"path": str(file)}
            ) from None
    if isinstance(data, Mapping) and "sample_id" in data:  # JSON Lines with one label
        entries: list[object] = [data]
    elif isinstance(data, Mapping):
        entries = [{"sample_id": key, "human": value} for key, value in data.items()]
    elif isinstance(data, list):
        entries = data
    else:
        raise AAAFError("INVALID_REQUEST", f"{file}: human labels are a JSON object or a list.")
    labels: list[tuple[str | None, str, float]] = []
    for number, entry in enumerate(entries, start=1):
        where = f"{file}: label {number}"
        if not isinstance(entry, Mapping) or "sample_id" not in entry:
            raise AAAFError("INVALID_REQUEST", f"{where} is not an object with a sample_id.")
        value = entry.get("human", entry.get("score"))
        if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= 5:
            raise AAAFError(
                "INVALID_REQUEST", f"{where} (sample {entry['sample_id']}): a label is a number from 1 to 5."
            )
        run = entry.get("run")
        labels.append((None if run is None else str(run), str(entry["sample_id"]), float(value)))
    return labels


def apply_human_labels(
    runs: Sequence[dict[str, Any]], labels: Sequence[tuple[str | None, str, float]]
) -> int:
    """Write labels into the runs' samples as ``human`` (in place); how many were applied.

    A label without ``run`` is allowed only when one run is graded (with two, the same
    sample id names two different outputs).  A label for an unknown run or sample, or one
    that contradicts the sample's own ``human``, is INVALID_REQUEST.
    """
    applied = 0
    for run_name, sample_id, value in labels:
        if run_name is None:
            if len(runs) != 1:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Human label for sample {sample_id} names no run; with several runs each label needs "
                    f"`run` (one of: {', '.join(str(r['run_id']) for r in runs)}).",
                )
            targets = list(runs)
        else:
            targets = [r for r in runs if run_name in (str(r["run_id"]), str(r["variant"]))]
            if not targets:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Human label for sample {sample_id} names run {run_name!r}, which is not graded here "
                    f"(runs: {', '.join(str(r['run_id']) for r in runs)}).",
                )
        for run in targets:
            # a sample recorded over several epochs is one unit: the label goes on every record
            records = [s for s in run["samples"] if s["sample_id"] == sample_id]
            if not records:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Human label for sample {sample_id}: run {run['run_id']} has no such sample.",
                )
            for sample in records:
                if sample.get("human") is not None and float(sample["human"]) != value:
                    raise AAAFError(
                        "INVALID_REQUEST",
                        f"Human label for sample {sample_id} ({value:g}) contradicts the run's own "
                        f"human score ({sample['human']:g}) in run {run['run_id']}.",
                    )
            for sample in records:
                sample["human"] = value
            applied += 1
    return applied


# --------------------------------------------------------------------------- calibration


def judge_calibrations(
    runs: Sequence[Mapping[str, Any]],
    *,
    threshold: float = SPEARMAN_THRESHOLD,
    dimensions: Mapping[str, str] | None = None,
) -> dict[str, Calibration]:
    """Each judge's Spearman ρ against the human labels of the samples it scored, over all runs.

    Items are the (run, sample) pairs with a ``human`` label; a judge that failed (or
    was not asked) on a labelled sample has no score there and the item is dropped and
    counted.  Judges are those named in the runs' ``judges`` entries and failures.
    """
    names: list[str] = []
    for run in runs:
        for sample in run["samples"]:
            for entry in list(sample.get("judges") or []) + list(sample.get("judge_failures") or []):
                if entry["judge"] not in names:
                    names.append(entry["judge"])
    calibrations: dict[str, Calibration] = {}
    for name in names:
        judge_scores: list[float | None] = []
        human_scores: list[float | None] = []
        for run in runs:
            for sample in run["samples"]:
                if sample.get("human") is None:
                    continue
                score = next((e["score"] for e in sample.get("judges") or [] if e["judge"] == name), None)
                judge_scores.append(None if score is None else float(score))
                human_scores.append(float(sample["human"]))
        calibrations[name] = calibrate(
            judge_scores,
            human_scores,
            threshold,
            dimension=(dimensions or {}).get(name),
            judge=name,
        )
    return calibrations


def calibrate_ensemble(
    runs: Sequence[dict[str, Any]],
    judges: JudgeEnsemble | Judge | Sequence[Judge] | None,
    *,
    threshold: float = SPEARMAN_THRESHOLD,
    concurrency: int = 4,
) -> dict[str, Calibration]:
    """Calibrate every judge on the runs' human-labelled samples, before any other grading.

    The ensemble's judges score the labelled samples first (in place: those scores are
    kept, so grading does not ask again); every judge in the runs — new or recorded —
    is then calibrated against the labels (document 004 §3.4).  A judge under the
    threshold is refused: INVALID_REQUEST naming it, its ρ and n, and nothing more is
    asked of any judge.  Accepted judges of the ensemble carry their calibration
    afterwards, so ``grade_run(..., require_calibration=True)`` admits them.
    """
    labelled = sum(1 for run in runs for sample in run["samples"] if sample.get("human") is not None)
    if not labelled:
        raise AAAFError(
            "INVALID_REQUEST",
            "Judge calibration needs human labels (a sample's `human`, or --human-labels FILE); none given.",
        )
    ensemble = _ensemble(judges)
    if ensemble is not None:
        labelled_samples = [s for run in runs for s in run["samples"] if s.get("human") is not None]
        _run_judges(labelled_samples, ensemble, max(1, concurrency))
    dimensions = {judge.name: judge.rubric.name for judge in (ensemble.judges if ensemble else ())}
    calibrations = judge_calibrations(runs, threshold=threshold, dimensions=dimensions)
    if not calibrations:
        raise AAAFError("INVALID_REQUEST", "Judge calibration was asked for, but no judge scored these runs.")
    refused = {name: c for name, c in calibrations.items() if not c.accepted}
    if refused:
        raise AAAFError(
            "INVALID_REQUEST",
            "Judge(s) refused by calibration against human labels (docs/scoring.md §5.6): "
            + "; ".join(c.reason for c in refused.values())
            + ".",
            {
                "judges": {
                    name: {"spearman": c.spearman, "n": c.n, "dropped": c.dropped}
                    for name, c in refused.items()
                }
            },
        )
    if ensemble is not None:
        hashes = {judge.name: judge.prompt_sha256 for judge in ensemble.judges}
        for judge in ensemble.judges:
            judge.calibration = calibrations[judge.name]
        for run in runs:
            for sample in run["samples"]:
                for entry in sample.get("judges") or []:
                    if entry.get("prompt_sha256") == hashes.get(entry["judge"]):
                        entry["calibrated"] = True
    return calibrations


# --------------------------------------------------------------------------- summaries


def grading_summary(run: Mapping[str, Any], *, limit: int = 3) -> dict[str, object]:
    """What grading recorded in a run: graded assertions, judge scores, failed judgements.

    ``failure_reasons`` are the first ``limit`` failed judgements, ``judge: reason``.
    """
    samples = run["samples"]
    assertions = [a for s in samples for a in s.get("assertions") or []]
    failures = [f for s in samples for f in s.get("judge_failures") or []]
    scores = [j for s in samples for j in s.get("judges") or []]
    return {
        "run_id": run["run_id"],
        "assertions": len(assertions),
        "assertions_graded_here": sum(1 for a in assertions if a.get("grader")),
        "assertions_failed": sum(1 for a in assertions if a.get("passed") is False),
        "judge_scores": len(scores),
        "judge_failures": len(failures),
        "failure_reasons": [f"{f['judge']}: {f['reason']}" for f in failures[:limit]],
    }


def to_layered_run(run: Mapping[str, object]) -> LayeredRun:
    """The pure core's view of a graded run object."""
    return to_layered(parse_run(run, source=f"run {run.get('run_id')}"))
