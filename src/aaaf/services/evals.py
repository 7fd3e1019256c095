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
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, overload

from aaaf.errors import AAAFError
from aaaf.evals.models import EvalRun, load_run, parse_run, to_layered
from aaaf.graders.assertions import grade_assertion
from aaaf.graders.calibration import SPEARMAN_THRESHOLD, Calibration, calibrate
from aaaf.graders.judge import Judge, JudgeEnsemble, Judgement
from aaaf.scoring.layered import LayeredRun

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


# --------------------------------------------------------------------------- run files
#
# What the CLI reads: our run files and the logs of other tools, chosen by ``--from`` or
# recognised by content, each file giving one run per column.

RUN_FORMATS: tuple[str, ...] = ("auto", "aaaf", "inspect_ai", "promptfoo")


def detect_format(path: str | Path) -> str:
    """The format of a run file, told from its content (not its name alone).

    * a zip archive (``PK``) is an inspect_ai ``.eval`` log;
    * a JSON object with an ``eval`` header object is an inspect_ai JSON log;
    * a JSON object with ``evalId`` or a ``results.results`` list is a promptfoo result file;
    * a JSON object with ``samples`` or ``sample_id``, a JSON list, or JSON Lines (a
      ``.jsonl`` file, or text that is not one JSON document but whose lines are) is ours.

    Anything else is INVALID_REQUEST naming the formats, so the user can say ``--from``.
    """
    file = Path(path)
    if not file.is_file():
        raise AAAFError("INVALID_REQUEST", f"{file}: no such run file.", {"path": str(file)})
    with file.open("rb") as stream:
        if stream.read(4).startswith(b"PK"):
            return "inspect_ai"
    if file.suffix.lower() == ".jsonl":
        return "aaaf"
    text = file.read_text(encoding="utf-8", errors="replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
            return "aaaf"
        raise AAAFError(
            "INVALID_REQUEST",
            f"{file}: not JSON, JSON Lines or an inspect_ai .eval log; cannot tell its format.",
            {"path": str(file), "formats": list(RUN_FORMATS[1:])},
        ) from None
    if isinstance(data, list):
        return "aaaf"
    if isinstance(data, Mapping):
        if isinstance(data.get("eval"), Mapping):
            return "inspect_ai"
        results = data.get("results")
        if "evalId" in data or (isinstance(results, Mapping) and isinstance(results.get("results"), list)):
            return "promptfoo"
        if "samples" in data or "sample_id" in data:
            return "aaaf"
    raise AAAFError(
        "INVALID_REQUEST",
        f"{file}: cannot tell its format (not an AAAF run, an inspect_ai log or a promptfoo result "
        f"file); pass --from {'|'.join(RUN_FORMATS[1:])}.",
        {"path": str(file), "formats": list(RUN_FORMATS[1:])},
    )


def read_runs(path: str | Path, source_format: str = "auto") -> list[dict[str, Any]]:
    """Every run (column) of a file, as run objects of SCORING.md §4, validated.

    Our files and inspect_ai logs hold one run; a promptfoo result file one per
    (provider, prompt) column, in promptfoo's column order.
    """
    if source_format not in RUN_FORMATS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown run format {source_format!r}; formats: {', '.join(RUN_FORMATS)}.",
            {"field": "from", "value": source_format},
        )
    kind = detect_format(path) if source_format == "auto" else source_format
    if kind == "aaaf":
        runs = [load_run(path).model_dump(mode="json", exclude_none=True)]
    elif kind == "inspect_ai":
        from aaaf.evals.importers import inspect_ai

        runs = [inspect_ai.load(path)]
    else:
        from aaaf.evals.importers import promptfoo

        runs = promptfoo.load_runs(path)
    if not runs:
        raise AAAFError("INVALID_REQUEST", f"{path}: the file holds no run.", {"path": str(path)})
    return [
        parse_run(run, source=str(path)).model_dump(mode="json", exclude_none=True) if kind != "aaaf" else run
        for run in runs
    ]


def column_list(runs: Sequence[Mapping[str, Any]]) -> str:
    """'1. control, 2. treatment' — how errors name a file's columns."""
    return ", ".join(f"{number}. {run['variant']}" for number, run in enumerate(runs, start=1))


def pick_column(
    runs: Sequence[dict[str, Any]], column: str | None, *, source: str, option: str
) -> dict[str, Any]:
    """The run of one column, named by its variant or its 1-based number.

    A file with one run needs no column; a file with several needs ``option``.  An
    unknown column is INVALID_REQUEST listing the file's columns.
    """
    details = {"path": source, "columns": [run["variant"] for run in runs]}
    if column is None:
        if len(runs) == 1:
            return runs[0]
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source} has {len(runs)} columns ({column_list(runs)}); choose one with {option}.",
            details,
        )
    for run in runs:
        if run["variant"] == column:
            return run
    if column.strip().isdigit() and 1 <= int(column) <= len(runs):
        return runs[int(column) - 1]
    raise AAAFError(
        "INVALID_REQUEST",
        f"{option}: {source} has no column {column!r}; its columns are {column_list(runs)}.",
        details,
    )


def comparison_runs(
    control: str | Path,
    treatment: str | Path | None,
    *,
    source_format: str = "auto",
    control_column: str | None = None,
    treatment_column: str | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The control and treatment runs of ``aaaf compare``.

    Two files: one run from each (a column option picks it from a multi-column file).
    One file: two of its columns — columns 1 and 2 when it has exactly two, else the
    ones named by ``--control-column`` / ``--treatment-column`` (with two columns, naming
    one leaves the other).
    """
    control_runs = read_runs(control, source_format)
    if treatment is not None:
        treatment_runs = read_runs(treatment, source_format)
        return (
            pick_column(control_runs, control_column, source=str(control), option="--control-column"),
            pick_column(treatment_runs, treatment_column, source=str(treatment), option="--treatment-column"),
        )
    source = str(control)
    if len(control_runs) < 2:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source} holds one run ({column_list(control_runs)}); give a TREATMENT run file too, "
            "or a result file with two columns.",
            {"path": source, "columns": [run["variant"] for run in control_runs]},
        )
    if control_column is None and treatment_column is None:
        if len(control_runs) != 2:
            raise AAAFError(
                "INVALID_REQUEST",
                f"{source} has {len(control_runs)} columns ({column_list(control_runs)}); choose two "
                "with --control-column and --treatment-column.",
                {"path": source, "columns": [run["variant"] for run in control_runs]},
            )
        return control_runs[0], control_runs[1]
    if (control_column is None or treatment_column is None) and len(control_runs) != 2:
        missing = "--control-column" if control_column is None else "--treatment-column"
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source} has {len(control_runs)} columns ({column_list(control_runs)}); {missing} is needed too.",
            {"path": source, "columns": [run["variant"] for run in control_runs]},
        )
    if control_column is not None:
        control_run = pick_column(control_runs, control_column, source=source, option="--control-column")
    if treatment_column is not None:
        treatment_run = pick_column(
            control_runs, treatment_column, source=source, option="--treatment-column"
        )
    if control_column is None:
        control_run = next(run for run in control_runs if run is not treatment_run)
    if treatment_column is None:
        treatment_run = next(run for run in control_runs if run is not control_run)
    if control_run is treatment_run:
        raise AAAFError(
            "INVALID_REQUEST",
            f"--control-column and --treatment-column name the same column ({control_run['variant']}).",
            {"path": source, "columns": [run["variant"] for run in control_runs]},
        )
    return control_run, treatment_run


def treatment_runs(
    paths: Sequence[str | Path], *, source_format: str = "auto", treatment_column: str | None = None
) -> list[dict[str, Any]]:
    """The treatments of ``aaaf compare CONTROL T1 T2 …``: one run per file (a column option picks it)."""
    return [
        pick_column(
            read_runs(path, source_format), treatment_column, source=str(path), option="--treatment-column"
        )
        for path in paths
    ]


def unfinished(run: Mapping[str, Any]) -> tuple[str | None, int] | None:
    """(status, errored samples) when the run's source says it did not finish, else None (SCORING.md §4)."""
    status = run.get("status")
    errored = len({s["sample_id"] for s in run["samples"] if s.get("error") not in (None, "", {})})
    if status in (None, "success") and not errored:
        return None
    return (None if status is None else str(status)), errored


def check_finished(runs: Sequence[tuple[str, Mapping[str, Any]]], *, allow_incomplete: bool) -> None:
    """Refuse a run that did not finish unless ``allow_incomplete`` (SCORING.md §4).

    ``runs`` are (role, run) pairs.  INVALID_REQUEST (CLI exit 2) names each unfinished
    run with its status and its count of errored samples.
    """
    if allow_incomplete:
        return
    problems: list[str] = []
    details: list[dict[str, Any]] = []
    for role, run in runs:
        found = unfinished(run)
        if found is None:
            continue
        status, errored = found
        shown = "not recorded" if status is None else repr(status)
        problems.append(
            f"{role} run {run['run_id']} did not finish (status {shown}, {errored} errored sample(s) "
            f"of {len({s['sample_id'] for s in run['samples']})})"
        )
        details.append({"role": role, "run_id": run["run_id"], "status": status, "errored_samples": errored})
    if problems:
        raise AAAFError(
            "INVALID_REQUEST",
            "; ".join(problems)
            + ". Comparing it would silently leave samples out; rerun it, or pass --allow-incomplete "
            "to compare without its errored samples.",
            {"incomplete": details},
        )


def write_run(run: Mapping[str, Any], path: str | Path) -> Path:
    """Write a run object as one indented JSON file (our format), creating parent folders."""
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(run, indent=2, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    return file


def run_file_name(run: Mapping[str, Any], taken: set[str]) -> str:
    """A file name for an imported run: its variant, made safe ('mockllm/model' → 'mockllm-model.json')."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", str(run.get("variant") or run.get("run_id") or "run"))
    stem = stem.strip("-.") or "run"
    name, number = f"{stem}.json", 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.json"
    taken.add(name)
    return name


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
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise AAAFError(
                "INVALID_REQUEST", f"{file}: not JSON or JSON Lines: {error.msg}.", {"path": str(file)}
            ) from None
    if isinstance(data, Mapping) and "sample_id" in data:  # JSON Lines with one label
        entries: list[Any] = [data]
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
            sample = next((s for s in run["samples"] if s["sample_id"] == sample_id), None)
            if sample is None:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Human label for sample {sample_id}: run {run['run_id']} has no such sample.",
                )
            if sample.get("human") is not None and float(sample["human"]) != value:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Human label for sample {sample_id} ({value:g}) contradicts the run's own "
                    f"human score ({sample['human']:g}) in run {run['run_id']}.",
                )
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
            "Judge(s) refused by calibration against human labels (document 004 §3.4): "
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


def grading_summary(run: Mapping[str, Any], *, limit: int = 3) -> dict[str, Any]:
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


def to_layered_run(run: Mapping[str, Any]) -> LayeredRun:
    """The pure core's view of a graded run object."""
    return to_layered(parse_run(run, source=f"run {run.get('run_id')}"))
