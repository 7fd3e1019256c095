"""`aaaf compare`, `aaaf eval score|grade|import`: layered eval verdicts (SCORING.md §4) and grading.

``compare`` pairs two eval runs by ``sample_id`` (several treatments: one verdict each
against the control, :mod:`aaaf.cli.commands.compare_several`) and prints one terse line — the verdict,
what to do, the composite difference with its CI, how many layer gates pass and whether
the judges agree — then the reason that decided it and a table of the layers.  Its exit
code gates a release: 1 when the verdict is one of ``--fail-on`` (default REGRESS; names
case-insensitive, comma-separated; ``none`` never fails), 0 otherwise, 2 on bad input.

Runs are given as files (stored run ids are not supported yet): our JSON / JSON Lines
(``aaaf.evals.models``), inspect_ai logs and promptfoo result files, told apart by
content or named with ``--from``; one promptfoo file with two columns is compared
column 1 vs 2.  Every run goes through the one grading pass,
``aaaf.services.evals.grade_run``: code graders for assertions without ``passed``,
model judges given with ``--judge`` (refused below Spearman 0.80 against human labels
with ``--require-calibration``); failed judgements are reported, never scored.
``aaaf eval grade`` writes a graded run so a pipeline can grade once and compare later;
``aaaf eval import`` converts another tool's log into our run files.  The v1.0 options
of document 002 §6 — ``--weights``, ``--standardize``, ``--hotelling`` — apply to this
comparison only; the default stays the frozen v0.x formula.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from aaaf.cli.commands.compare_several import compare_several
from aaaf.cli.commands.eval_commands import eval_app
from aaaf.cli.commands.eval_common import (
    VERDICT_STYLES,
    AllowIncompleteOption,
    CiMethodOption,
    ConfidenceOption,
    FromOption,
    GradedRuns,
    HotellingOption,
    HumanLabelsOption,
    JudgeOptions,
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
    gate_text,
    grade_runs,
    judge_options,
    level_text,
    parse_fail_on,
    print_grading,
)
from aaaf.cli.context import JsonOption, console, handle_errors, print_json
from aaaf.graders.judge import DEFAULT_RUBRIC
from aaaf.models import Comparison as ComparisonShape
from aaaf.reports import verdict_text
from aaaf.scoring.core import display
from aaaf.scoring.layered import LAYERS, LayeredConfig
from aaaf.scoring.verdict import Comparison, compare_runs, fmt
from aaaf.services.evals import check_finished, comparison_runs, to_layered_run


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
    app.add_typer(eval_app, name="eval")


def print_comparison(comparison: Comparison) -> None:
    """The terse line, the reason, the layer table, judges and badges."""
    style = VERDICT_STYLES[comparison.verdict]
    headline = verdict_text.comparison_headline(comparison)
    verdict_part, _, rest = headline.partition(" — ")
    console.print(f"[{style}]{verdict_part}[/] — {rest}", markup=True)
    console.print(
        f"reason (rule {comparison.rule}): {verdict_text.reason_text(comparison.reason)}", markup=False
    )
    confidence = comparison.config.confidence * 100.0
    k = len(comparison.present_layers)
    composite = comparison.composite
    scale = " (composite in sd units)" if composite.scale == "z" else ""
    table = Table(
        title=f"C {comparison.control.run_id} → T {comparison.treatment.run_id}{scale}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("layer", no_wrap=True)
    for column in ("C", "T", "T − C", f"{confidence:g}% CI", f"Bonf. k={k}"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("gate C/T", no_wrap=True)
    table.add_row(
        "composite",
        level_text(composite.control, composite.scale),
        level_text(composite.treatment, composite.scale),
        fmt(composite.diff, signed=True),
        ci_text(composite.ci),
        "",
        "",
    )
    for name in LAYERS:
        layer = comparison.layers[name]
        table.add_row(
            name if layer.present else f"{name} (absent)",
            display(layer.control),
            display(layer.treatment),
            fmt(layer.diff, signed=True),
            ci_text(layer.ci),
            ci_text(layer.ci_bonferroni),
            f"{gate_text(layer.gate_control)}/{gate_text(layer.gate_treatment)}",
        )
    console.print(table)
    unpaired = len(comparison.control_only) + len(comparison.treatment_only) + len(comparison.unscored)
    used = ", ".join(
        f"{run}: " + ", ".join(f"{count}×{layers} layers" for layers, count in histogram.items())
        for run, histogram in (
            ("control", composite.layers_used_control),
            ("treatment", composite.layers_used_treatment),
        )
    )
    errored = f", {len(comparison.errored)} errored" if comparison.errored else ""
    console.print(
        f"{comparison.n_paired} paired samples, {unpaired + len(comparison.errored)} left out "
        f"({len(comparison.control_only)} control only, {len(comparison.treatment_only)} treatment only, "
        f"{len(comparison.unscored)} unscored{errored}); composites from {used}; MDE {fmt(composite.mde)}",
        markup=False,
    )
    for run in comparison.incomplete:
        console.print(f"incomplete: {verdict_text.incomplete_text(run)}", markup=False)
    judges = ", ".join(
        f"{run} mean r {fmt(a.mean_pearson)} α {fmt(a.krippendorff_alpha)}"
        for run, a in comparison.judges.items()
    )
    console.print(f"judges: {judges}", markup=False)
    if comparison.hotelling is not None:
        h = comparison.hotelling
        console.print(
            f"Hotelling T² {fmt(h.statistic)} (F {fmt(h.f_statistic)}, df {h.df1}, {h.df2}), "
            + ("p not computable" if h.p_value is None else f"p {h.p_value:.3g}")
            + (f" — {h.reason}" if h.reason else ""),
            markup=False,
        )
    console.print("badges: " + badge_line(comparison), markup=True)


def compare_pair(
    control: Path,
    treatment: Path | None,
    *,
    config: LayeredConfig,
    options: JudgeOptions,
    source_format: str = "auto",
    control_column: str | None = None,
    treatment_column: str | None = None,
    allow_incomplete: bool = False,
) -> tuple[Comparison, GradedRuns]:
    """Read, grade and compare a control and one treatment: what ``aaaf compare C T`` decides
    before it prints (``aaaf gate`` decides with exactly this)."""
    pair = comparison_runs(
        control,
        treatment,
        source_format=source_format,
        control_column=control_column,
        treatment_column=treatment_column,
    )
    check_finished([("control", pair[0]), ("treatment", pair[1])], allow_incomplete=allow_incomplete)
    graded = grade_runs(list(pair), options)
    control_run, treatment_run = (to_layered_run(run) for run in graded.runs)
    return compare_runs(control_run, treatment_run, config), graded


@handle_errors
def compare(
    control: Annotated[
        Path,
        typer.Argument(
            help="The control run file (our JSON/JSON Lines, an inspect_ai log or a promptfoo result file).",
            show_default=False,
        ),
    ],
    treatments: Annotated[
        list[Path] | None,
        typer.Argument(
            help="The treatment run file(s); several are each compared with CONTROL (Bonferroni across "
            "treatments, worst verdict rolled up). Omitted, CONTROL must be a promptfoo file with two "
            "columns (column 1 vs 2).",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write a self-contained HTML report to this file.", show_default=False),
    ] = None,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            help="Exit 1 when the verdict is one of these (comma-separated, case-insensitive; 'none' never fails).",
        ),
    ] = "REGRESS",
    source_format: FromOption = "auto",
    control_column: Annotated[
        str | None,
        typer.Option(
            "--control-column", help="The control's column (name or 1-based number).", show_default=False
        ),
    ] = None,
    treatment_column: Annotated[
        str | None,
        typer.Option(
            "--treatment-column", help="The treatment's column (name or 1-based number).", show_default=False
        ),
    ] = None,
    judge: JudgeSpecOption = None,
    judge_url: JudgeUrlOption = None,
    rubric: RubricOption = DEFAULT_RUBRIC,
    require_calibration: RequireCalibrationOption = False,
    human_labels: HumanLabelsOption = None,
    weights: WeightsOption = None,
    standardize: StandardizeOption = False,
    hotelling: HotellingOption = False,
    resamples: ResamplesOption = 10_000,
    confidence: ConfidenceOption = 0.95,
    seed: SeedOption = 0,
    ci_method: CiMethodOption = "percentile",
    allow_incomplete: AllowIncompleteOption = False,
) -> None:
    """Compare a control with one or more treatment eval runs: PROGRESS, CAUTIOUS, REGRESS, NOISE or UNDERPOWERED."""
    failing = parse_fail_on(fail_on)
    config = build_config(
        weights=weights,
        standardize=standardize,
        hotelling=hotelling,
        resamples=resamples,
        confidence=confidence,
        seed=seed,
        ci_method=ci_method,
    )
    options = judge_options(judge, judge_url, rubric, require_calibration, human_labels)
    files = list(treatments or [])
    if len(files) > 1:
        compare_several(
            control,
            files,
            config=config,
            options=options,
            failing=failing,
            as_json=as_json,
            html=html,
            source_format=source_format,
            control_column=control_column,
            treatment_column=treatment_column,
            allow_incomplete=allow_incomplete,
        )
        return
    comparison, graded = compare_pair(
        control,
        files[0] if files else None,
        config=config,
        options=options,
        source_format=source_format,
        control_column=control_column,
        treatment_column=treatment_column,
        allow_incomplete=allow_incomplete,
    )
    if html is not None:
        from aaaf.reports.compare_html import write_comparison_html

        write_comparison_html(comparison, html)
    if as_json:
        control_summary, treatment_summary = graded.summaries()
        shape = ComparisonShape.model_validate(
            {
                **verdict_text.comparison_dict(comparison),
                "grading": {"control": control_summary, "treatment": treatment_summary},
                "calibration": graded.calibration_dict(),
            }
        )
        print_json(shape)
    else:
        print_comparison(comparison)
        print_grading(graded, ["control", "treatment"])
        if html is not None:
            console.print(f"HTML report: {html}", markup=False)
    if comparison.verdict in failing:
        raise typer.Exit(1)
