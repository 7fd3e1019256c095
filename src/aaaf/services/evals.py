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

import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, overload

from aaaf.errors import AAAFError
from aaaf.evals.models import EvalRun, parse_run
from aaaf.graders.assertions import grade_assertion
from aaaf.graders.judge import Judge, JudgeEnsemble, Judgement

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


def _judge_entry(judge: Judge, judgement: Judgement) -> dict[str, Any]:
    return {
        "judge": judge.name,
        "score": judgement.score,
        "reason": judgement.reason,
        "model": judge.model,
        "prompt_sha256": judgement.prompt_sha256,
        "calibrated": judge.calibrated,
    }


def _failure_entry(judge: Judge, judgement: Judgement) -> dict[str, Any]:
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
    run: Mapping[str, Any],
    *,
    judges: JudgeEnsemble | Judge | Sequence[Judge] | None = ...,
    similarity_method: str | None = ...,
    require_calibration: bool = ...,
    concurrency: int = ...,
) -> dict[str, Any]: ...


def grade_run(
    run: EvalRun | Mapping[str, Any],
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
                f"(document 004 §3.4): {', '.join(uncalibrated)}.",
                {"judges": uncalibrated},
            )
    data = model.model_dump(mode="json", exclude_none=True)
    samples: list[dict[str, Any]] = data["samples"]
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
