"""`aaaf eval score|grade|import`: one layered eval run (SCORING.md §4) — the SOLO case, grading, import.

``eval score`` scores one run (layer means, composite, their bootstrap CIs); ``eval
grade`` grades a run once — code graders, model judges, calibration — and writes it, so a
later ``compare`` asks no judge again; ``eval import`` converts an inspect_ai log or a
promptfoo result file into our run files, with the importer's notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from aaaf.cli.commands.eval_common import (
    VERDICT_STYLES,
    ColumnOption,
    ConfidenceOption,
    FromOption,
    HumanLabelsOption,
    JudgeSpecOption,
    JudgeUrlOption,
    RequireCalibrationOption,
    ResamplesOption,
    RubricOption,
    SeedOption,
    StandardizeOption,
    WeightsOption,
    badge_line,
    build_config,
    ci_text,
    grade_runs,
    judge_options,
    level_text,
    print_grading,
)
from aaaf.cli.context import JsonOption, console, err_console, handle_errors, print_json
from aaaf.graders.judge import DEFAULT_RUBRIC
from aaaf.reports import verdict_text
from aaaf.scoring.core import display
from aaaf.scoring.layered import LAYERS
from aaaf.scoring.verdict import fmt, score_solo
from aaaf.services.eval_files import import_runs
from aaaf.services.evals import grading_summary, pick_column, read_runs, to_layered_run, write_run

eval_app = typer.Typer(
    name="eval",
    help="Layered eval runs (docs/scoring.md §5): score one run (the SOLO case).",
    no_args_is_help=True,
)


@eval_app.command("score")
@handle_errors
def eval_score(
    run: Annotated[
        Path,
        typer.Argument(
            help="The run file (our JSON/JSON Lines, an inspect_ai log or a promptfoo result file).",
            show_default=False,
        ),
    ],
    as_json: JsonOption = False,
    source_format: FromOption = "auto",
    column: ColumnOption = None,
    judge: JudgeSpecOption = None,
    judge_url: JudgeUrlOption = None,
    rubric: RubricOption = DEFAULT_RUBRIC,
    require_calibration: RequireCalibrationOption = False,
    human_labels: HumanLabelsOption = None,
    weights: WeightsOption = None,
    standardize: StandardizeOption = False,
    resamples: ResamplesOption = 10_000,
    confidence: ConfidenceOption = 0.95,
    seed: SeedOption = 0,
) -> None:
    """Score one eval run (the SOLO case): layer means, composite and their bootstrap CIs."""
    config = build_config(
        weights=weights,
        standardize=standardize,
        hotelling=False,
        resamples=resamples,
        confidence=confidence,
        seed=seed,
    )
    options = judge_options(judge, judge_url, rubric, require_calibration, human_labels)
    chosen = pick_column(read_runs(run, source_format), column, source=str(run), option="--column")
    graded = grade_runs([chosen], options)
    report = score_solo(to_layered_run(graded.runs[0]), config)
    if as_json:
        from aaaf.models.eval_cli import SoloScore

        print_json(
            SoloScore.model_validate(
                {
                    **verdict_text.solo_dict(report),
                    "grading": graded.summaries()[0],
                    "calibration": graded.calibration_dict(),
                }
            )
        )
        return
    style = VERDICT_STYLES[report.verdict]
    verdict_part, _, rest = verdict_text.solo_headline(report).partition(" — ")
    console.print(f"[{style}]{verdict_part}[/] — {rest}", markup=True)
    console.print(f"reason (rule {report.rule}): {verdict_text.reason_text(report.reason)}", markup=False)
    table = Table(title=f"Run {report.scores.run_id} ({report.scores.variant})")
    table.add_column("layer")
    table.add_column("score", justify="right")
    table.add_column(f"{config.confidence * 100:g} % CI", justify="right")
    table.add_column("samples", justify="right")
    table.add_row(
        "composite" + (" (z)" if config.standardize else ""),
        level_text(report.composite, "z" if config.standardize else "points"),
        ci_text(report.composite_ci),
        str(report.scores.composite_samples),
    )
    for name in LAYERS:
        table.add_row(
            name,
            display(report.scores.layer_means.get(name)),
            ci_text(report.layer_cis.get(name)),
            str(report.scores.layer_samples.get(name, 0)),
        )
    console.print(table)
    used = ", ".join(f"{count}×{layers} layers" for layers, count in report.scores.layers_used.items())
    console.print(f"composites from {used or 'no scored sample'}", markup=False)
    console.print(
        f"judges: mean r {fmt(report.judges.mean_pearson)} α {fmt(report.judges.krippendorff_alpha)}",
        markup=False,
    )
    console.print("badges: " + badge_line(report), markup=True)
    print_grading(graded, ["run"])


@eval_app.command("grade")
@handle_errors
def eval_grade(
    run: Annotated[
        Path,
        typer.Argument(
            help="The run file (our JSON/JSON Lines, an inspect_ai log or a promptfoo result file).",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            help="Write the graded run (our JSON format) to this file; without it, to stdout.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    source_format: FromOption = "auto",
    column: ColumnOption = None,
    judge: JudgeSpecOption = None,
    judge_url: JudgeUrlOption = None,
    rubric: RubricOption = DEFAULT_RUBRIC,
    require_calibration: RequireCalibrationOption = False,
    human_labels: HumanLabelsOption = None,
) -> None:
    """Grade a run once — code graders, model judges, calibration — and write it, for a later compare."""
    options = judge_options(judge, judge_url, rubric, require_calibration, human_labels)
    chosen = pick_column(read_runs(run, source_format), column, source=str(run), option="--column")
    graded = grade_runs([chosen], options)
    result = graded.runs[0]
    if output is None:
        print_json(result)  # the graded run itself, in our run format (docs/scoring.md §5)
        summary = grading_summary(result)
        err_console.print(
            f"graded {summary['assertions_graded_here']} assertions, {summary['judge_scores']} judge scores, "
            f"{summary['judge_failures']} failed judgements",
            markup=False,
        )
        return
    write_run(result, output)
    if as_json:
        from aaaf.models.eval_cli import GradedRunWritten

        print_json(
            GradedRunWritten.model_validate(
                {
                    "output": str(output),
                    "grading": grading_summary(result),
                    "calibration": graded.calibration_dict(),
                }
            )
        )
        return
    print_grading(graded, ["run"])
    console.print(f"graded run written to {output}", markup=False)


@eval_app.command("import")
@handle_errors
def eval_import(
    file: Annotated[
        Path, typer.Argument(help="An inspect_ai log or a promptfoo result file.", show_default=False)
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output", help="Folder to write the runs into, one JSON file per run.", show_default=False
        ),
    ],
    source_format: FromOption = "auto",
    as_json: JsonOption = False,
) -> None:
    """Turn another tool's eval log into runs in our format (one file per run/column), ungraded-as-given."""
    imported = import_runs(file, source_format, output)
    if as_json:
        print_json(imported)
        return
    for item in imported.runs:
        notes = f", {len(item.import_notes)} import notes" if item.import_notes else ""
        console.print(
            f"{item.path}: run {item.run_id} ({item.variant}), {item.samples} samples{notes}", markup=False
        )
