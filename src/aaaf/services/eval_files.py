"""Run files for layered evals (SCORING.md §4): what ``aaaf compare`` and ``aaaf eval`` read and write.

Our run files and the logs of other tools (inspect_ai, promptfoo), chosen by ``--from`` or
recognised by content, each file giving one run per column; the control and treatments
of a comparison; the refusal of a run whose source says it did not finish (unless
``--allow-incomplete``); writing runs in our format.  Re-exported by
:mod:`aaaf.services.evals`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aaaf.errors import AAAFError
from aaaf.evals.models import load_run, parse_run

if TYPE_CHECKING:
    from aaaf.models.eval_cli import ImportedRuns

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


def column_list(runs: Sequence[Mapping[str, object]]) -> str:
    """'1. control, 2. treatment' — how errors name a file's columns."""
    return ", ".join(f"{number}. {run['variant']}" for number, run in enumerate(runs, start=1))


def pick_column(
    runs: Sequence[dict[str, object]], column: str | None, *, source: str, option: str
) -> dict[str, object]:
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
) -> tuple[dict[str, object], dict[str, object]]:
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
) -> list[dict[str, object]]:
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


def write_run(run: Mapping[str, object], path: str | Path) -> Path:
    """Write a run object as one indented JSON file (our format), creating parent folders."""
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(run, indent=2, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    return file


def run_file_name(run: Mapping[str, object], taken: set[str]) -> str:
    """A file name for an imported run: its variant, made safe ('mockllm/model' → 'mockllm-model.json')."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", str(run.get("variant") or run.get("run_id") or "run"))
    stem = stem.strip("-.") or "run"
    name, number = f"{stem}.json", 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.json"
    taken.add(name)
    return name


def import_runs(path: str | Path, source_format: str, output: Path) -> ImportedRuns:
    """Every run of another tool's log written into ``output`` in our format, one file per
    run (column), as given — ungraded here — with the importer's notes on each."""
    from aaaf.models.eval_cli import ImportedRun, ImportedRuns

    taken: set[str] = set()
    written = []
    for run in read_runs(path, source_format):
        file = write_run(run, output / run_file_name(run, taken))
        written.append(
            ImportedRun(
                path=str(file),
                run_id=run["run_id"],
                variant=run["variant"],
                samples=len(run["samples"]),
                import_notes=run.get("import_notes", []),
            )
        )
    return ImportedRuns(runs=written)
