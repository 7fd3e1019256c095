"""`aaaf compare`, `aaaf eval score|grade|import`: layered eval verdicts (SCORING.md §4) and grading.

``compare`` pairs two eval runs by ``sample_id`` and prints one terse line — the verdict,
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

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from aaaf.cli.context import (
    JsonOption,
    bad_input,
    console,
    err_console,
    handle_errors,
    print_json,
    split_csv,
)
from aaaf.graders.calibration import Calibration
from aaaf.graders.judge import BUILT_IN_RUBRICS, DEFAULT_RUBRIC, Judge, JudgeEnsemble, Rubric
from aaaf.scoring.core import display
from aaaf.scoring.layered import LAYERS, LayeredConfig
from aaaf.scoring.verdict import (
    Comparison,
    SoloReport,
    Verdict,
    compare_runs,
    fmt,
    parse_verdicts,
    score_solo,
)
from aaaf.services.evals import (
    apply_human_labels,
    calibrate_ensemble,
    comparison_runs,
    grade_run,
    grading_summary,
    judge_calibrations,
    pick_column,
    read_human_labels,
    read_runs,
    run_file_name,
    to_layered_run,
    write_run,
)
from aaaf.settings import get_settings

eval_app = typer.Typer(
    name="eval",
    help="Layered eval runs (document 002): score one run (the SOLO case).",
    no_args_is_help=True,
)

WeightsOption = Annotated[
    str | None,
    typer.Option(
        "--weights",
        help="Explicit layer weights (v1.0 option), e.g. fact=0.5,behavior=0.3,judge=0.2; must sum to 1.",
        show_default=False,
    ),
]
StandardizeOption = Annotated[
    bool, typer.Option("--standardize", help="z-score each layer before aggregating (v1.0 option).")
]
HotellingOption = Annotated[
    bool,
    typer.Option(
        "--hotelling", help="Decide significance with Hotelling T² on the layer differences (v1.0)."
    ),
]
ResamplesOption = Annotated[int, typer.Option("--resamples", help="Bootstrap resamples.")]
ConfidenceOption = Annotated[
    float, typer.Option("--confidence", help="Confidence level of the CIs, in (0, 1).")
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the bootstrap index matrix.")]

VERDICT_STYLES = {
    Verdict.PROGRESS: "bold green",
    Verdict.CAUTIOUS: "bold yellow",
    Verdict.REGRESS: "bold red",
    Verdict.NOISE: "bold",
    Verdict.UNDERPOWERED: "bold magenta",
    Verdict.SOLO: "bold cyan",
}


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
    app.add_typer(eval_app, name="eval")


def parse_weights(text: str | None) -> dict[str, float] | None:
    """'fact=0.5,behavior=0.3,judge=0.2' → {'fact': 0.5, ...}; exit 2 naming the problem."""
    if text is None:
        return None
    weights: dict[str, float] = {}
    for part in split_csv(text):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or not name:
            bad_input(f"--weights: expected layer=weight pairs, got {part!r}", weights=text)
        if name not in LAYERS:
            bad_input(f"--weights: unknown layer {name!r}; layers are {', '.join(LAYERS)}", weights=text)
        if name in weights:
            bad_input(f"--weights: layer {name!r} given twice", weights=text)
        try:
            number = float(value)
        except ValueError:
            bad_input(f"--weights: weight of {name} is not a number: {value.strip()!r}", weights=text)
        if not math.isfinite(number):
            bad_input(f"--weights: weight of {name} is not finite", weights=text)
        weights[name] = number
    if not weights:
        bad_input("--weights: no layer weights given", weights=text)
    return weights


def parse_fail_on(text: str) -> frozenset[Verdict]:
    """Verdict names, case-insensitive, comma-separated; 'none' (alone) never fails."""
    if text.strip().lower() == "none":
        return frozenset()
    try:
        return frozenset(parse_verdicts(text))
    except ValueError as error:
        bad_input(f"--fail-on: {error}", fail_on=text)


def build_config(
    *,
    weights: str | None,
    standardize: bool,
    hotelling: bool,
    resamples: int,
    confidence: float,
    seed: int,
) -> LayeredConfig:
    return LayeredConfig(
        resamples=resamples,
        confidence=confidence,
        seed=seed,
        weights=parse_weights(weights),
        standardize=standardize,
        hotelling=hotelling,
    )


def _ci_text(interval: object) -> str:
    return interval.text() if interval is not None else "—"  # type: ignore[attr-defined]


def _level(value: float | None, scale: str) -> str:
    """Points are truncated (SCORING.md §0: never shown above their gate); z-scores are rounded."""
    return display(value) if scale == "points" else fmt(value)


def _gate_text(value: bool | None) -> str:
    if value is None:
        return "—"
    return "[green]✓[/]" if value else "[red]✗[/]"


def print_comparison(comparison: Comparison) -> None:
    """The terse line, the reason, the layer table, judges and badges."""
    style = VERDICT_STYLES[comparison.verdict]
    headline = comparison.headline()
    verdict_part, _, rest = headline.partition(" — ")
    console.print(f"[{style}]{verdict_part}[/] — {rest}", markup=True)
    console.print(f"reason (rule {comparison.rule}): {comparison.reason}", markup=False)
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
        _level(composite.control, composite.scale),
        _level(composite.treatment, composite.scale),
        fmt(composite.diff, signed=True),
        _ci_text(composite.ci),
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
            _ci_text(layer.ci),
            _ci_text(layer.ci_bonferroni),
            f"{_gate_text(layer.gate_control)}/{_gate_text(layer.gate_treatment)}",
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
    console.print(
        f"{comparison.n_paired} paired samples, {unpaired} left out "
        f"({len(comparison.control_only)} control only, {len(comparison.treatment_only)} treatment only, "
        f"{len(comparison.unscored)} unscored); composites from {used}; MDE {fmt(composite.mde)}",
        markup=False,
    )
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


def badge_line(result: Comparison | SoloReport) -> str:
    parts = []
    for badge in result.badges.values():
        if badge.value is None:
            parts.append(f"[dim]{badge.label}: unknown[/]")
        elif badge.value:
            parts.append(f"[green]✓ {badge.label}[/]")
        else:
            parts.append(f"[red]✗ {badge.label}[/]")
    return " · ".join(parts)


FromOption = Annotated[
    str,
    typer.Option(
        "--from",
        help="Run file format: auto (by content), aaaf, inspect_ai (.eval/.json log) or promptfoo (results JSON).",
    ),
]
ColumnOption = Annotated[
    str | None,
    typer.Option(
        "--column",
        help="The column (variant name or 1-based number) of a multi-column promptfoo file.",
        show_default=False,
    ),
]
JudgeSpecOption = Annotated[
    list[str] | None,
    typer.Option(
        "--judge",
        help="Add a model judge NAME=MODEL (repeatable) on the OpenAI-compatible endpoint of "
        "--judge-url or AAAF_JUDGE_BASE_URL (key: AAAF_JUDGE_API_KEY).",
        show_default=False,
    ),
]
JudgeUrlOption = Annotated[
    str | None,
    typer.Option(
        "--judge-url",
        help="Base URL of the judges' endpoint (default AAAF_JUDGE_BASE_URL).",
        show_default=False,
    ),
]
RubricOption = Annotated[
    str,
    typer.Option("--rubric", help=f"The judges' rubric: {'|'.join(BUILT_IN_RUBRICS)}."),
]
RequireCalibrationOption = Annotated[
    bool,
    typer.Option(
        "--require-calibration",
        help="Refuse (exit 2) any judge whose Spearman ρ against the human labels is below 0.80.",
    ),
]
HumanLabelsOption = Annotated[
    Path | None,
    typer.Option(
        "--human-labels",
        help="Human 1-5 labels: JSON {sample_id: score} or a list/JSON Lines of {sample_id, human, run?}.",
        show_default=False,
    ),
]


@dataclass(frozen=True)
class JudgeOptions:
    """The judge options every grading command shares."""

    specs: tuple[str, ...] = ()
    url: str | None = None
    rubric: str = DEFAULT_RUBRIC
    require_calibration: bool = False
    human_labels: Path | None = None


@dataclass
class GradedRuns:
    """Runs after the one grading pass, with what the pass recorded."""

    runs: list[dict[str, Any]]
    calibrations: dict[str, Calibration] = field(default_factory=dict)
    calibration_required: bool = False

    def summaries(self) -> list[dict[str, Any]]:
        return [grading_summary(run) for run in self.runs]

    def calibration_dict(self) -> dict[str, Any]:
        return {
            name: {
                "spearman": c.spearman,
                "n": c.n,
                "dropped": c.dropped,
                "accepted": c.accepted,
                "dimension": c.dimension,
                "reason": c.reason,
            }
            for name, c in self.calibrations.items()
        }


def build_judges(options: JudgeOptions) -> JudgeEnsemble | None:
    """``--judge NAME=MODEL`` (or just MODEL) on one endpoint, with the chosen rubric; exit 2 if unusable."""
    if not options.specs:
        if options.url is not None or options.rubric != DEFAULT_RUBRIC:
            bad_input("--judge-url and --rubric configure --judge judges; no --judge given")
        return None
    rubric = Rubric.built_in(options.rubric)
    settings = get_settings()
    base_url = options.url or settings.judge_base_url
    if not base_url:
        bad_input("--judge needs an endpoint: pass --judge-url or set AAAF_JUDGE_BASE_URL")
    judges = []
    for spec in options.specs:
        name, sep, model = spec.partition("=")
        name, model = name.strip(), model.strip()
        if not sep:
            model = name
        if not name or not model:
            bad_input(f"--judge: expected NAME=MODEL, got {spec!r}", judge=spec)
        judges.append(Judge(base_url, model, settings.judge_api_key, rubric, name=name))
    return JudgeEnsemble(judges)


def grade_runs(runs: list[dict[str, Any]], options: JudgeOptions) -> GradedRuns:
    """The one grading pass (``aaaf.services.evals``): labels, calibration, code graders, judges.

    With ``--require-calibration`` the judges first score the human-labelled samples and
    are refused below Spearman 0.80 before anything else is asked.  Without it, the
    judges' ρ against any labels is still computed and reported.
    """
    if options.human_labels is not None:
        apply_human_labels(runs, read_human_labels(options.human_labels))
    ensemble = build_judges(options)
    try:
        calibrations: dict[str, Calibration] = {}
        if options.require_calibration:
            calibrations = calibrate_ensemble(runs, ensemble)
        graded = [
            grade_run(run, judges=ensemble, require_calibration=options.require_calibration) for run in runs
        ]
        if not options.require_calibration and any(
            s.get("human") is not None for run in graded for s in run["samples"]
        ):
            dimensions = {j.name: j.rubric.name for j in (ensemble.judges if ensemble else ())}
            calibrations = judge_calibrations(graded, dimensions=dimensions)
    finally:
        if ensemble is not None:
            ensemble.close()
    return GradedRuns(graded, calibrations, options.require_calibration)


def print_grading(graded: GradedRuns, labels: list[str]) -> None:
    """One line per run: graded assertions, judge scores, failed judgements (count + first reasons)."""
    for label, summary in zip(labels, graded.summaries(), strict=True):
        line = (
            f"grading {label} {summary['run_id']}: {summary['assertions_graded_here']} of "
            f"{summary['assertions']} assertions graded here, {summary['judge_scores']} judge scores"
        )
        if summary["judge_failures"]:
            line += f", {summary['judge_failures']} failed judgements (not scored): " + "; ".join(
                summary["failure_reasons"]
            )
        console.print(line, markup=False)
    label = "calibration" if graded.calibration_required else "calibration (informative; not required)"
    for calibration in graded.calibrations.values():
        console.print(f"{label}: {calibration.reason}", markup=False)


def _judge_options(
    judge: list[str] | None,
    judge_url: str | None,
    rubric: str,
    require_calibration: bool,
    human_labels: Path | None,
) -> JudgeOptions:
    return JudgeOptions(tuple(judge or ()), judge_url, rubric, require_calibration, human_labels)


@handle_errors
def compare(
    control: Annotated[
        Path,
        typer.Argument(
            help="The control run file (our JSON/JSON Lines, an inspect_ai log or a promptfoo result file).",
            show_default=False,
        ),
    ],
    treatment: Annotated[
        Path | None,
        typer.Argument(
            help="The treatment run file; omitted, CONTROL must be a promptfoo file with two columns "
            "(column 1 vs 2).",
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
) -> None:
    """Compare a control and a treatment eval run: PROGRESS, CAUTIOUS, REGRESS, NOISE or UNDERPOWERED."""
    failing = parse_fail_on(fail_on)
    config = build_config(
        weights=weights,
        standardize=standardize,
        hotelling=hotelling,
        resamples=resamples,
        confidence=confidence,
        seed=seed,
    )
    options = _judge_options(judge, judge_url, rubric, require_calibration, human_labels)
    pair = comparison_runs(
        control,
        treatment,
        source_format=source_format,
        control_column=control_column,
        treatment_column=treatment_column,
    )
    graded = grade_runs(list(pair), options)
    control_run, treatment_run = (to_layered_run(run) for run in graded.runs)
    comparison = compare_runs(control_run, treatment_run, config)
    if html is not None:
        from aaaf.reports.compare_html import write_comparison_html

        write_comparison_html(comparison, html)
    if as_json:
        payload = comparison.to_dict()
        control_summary, treatment_summary = graded.summaries()
        payload["grading"] = {"control": control_summary, "treatment": treatment_summary}
        payload["calibration"] = graded.calibration_dict()
        print_json(payload)
    else:
        print_comparison(comparison)
        print_grading(graded, ["control", "treatment"])
        if html is not None:
            console.print(f"HTML report: {html}", markup=False)
    if comparison.verdict in failing:
        raise typer.Exit(1)


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
    options = _judge_options(judge, judge_url, rubric, require_calibration, human_labels)
    chosen = pick_column(read_runs(run, source_format), column, source=str(run), option="--column")
    graded = grade_runs([chosen], options)
    report = score_solo(to_layered_run(graded.runs[0]), config)
    if as_json:
        payload = report.to_dict()
        payload["grading"] = graded.summaries()[0]
        payload["calibration"] = graded.calibration_dict()
        print_json(payload)
        return
    style = VERDICT_STYLES[report.verdict]
    verdict_part, _, rest = report.headline().partition(" — ")
    console.print(f"[{style}]{verdict_part}[/] — {rest}", markup=True)
    console.print(f"reason (rule {report.rule}): {report.reason}", markup=False)
    table = Table(title=f"Run {report.scores.run_id} ({report.scores.variant})")
    table.add_column("layer")
    table.add_column("score", justify="right")
    table.add_column(f"{config.confidence * 100:g} % CI", justify="right")
    table.add_column("samples", justify="right")
    table.add_row(
        "composite" + (" (z)" if config.standardize else ""),
        _level(report.composite, "z" if config.standardize else "points"),
        _ci_text(report.composite_ci),
        str(report.scores.composite_samples),
    )
    for name in LAYERS:
        table.add_row(
            name,
            display(report.scores.layer_means.get(name)),
            _ci_text(report.layer_cis.get(name)),
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
    options = _judge_options(judge, judge_url, rubric, require_calibration, human_labels)
    chosen = pick_column(read_runs(run, source_format), column, source=str(run), option="--column")
    graded = grade_runs([chosen], options)
    result = graded.runs[0]
    if output is None:
        print_json(result)
        summary = grading_summary(result)
        err_console.print(
            f"graded {summary['assertions_graded_here']} assertions, {summary['judge_scores']} judge scores, "
            f"{summary['judge_failures']} failed judgements",
            markup=False,
        )
        return
    write_run(result, output)
    if as_json:
        print_json(
            {
                "output": str(output),
                "grading": grading_summary(result),
                "calibration": graded.calibration_dict(),
            }
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
    runs = read_runs(file, source_format)
    taken: set[str] = set()
    written = []
    for run in runs:
        path = write_run(run, output / run_file_name(run, taken))
        written.append(
            {
                "path": str(path),
                "run_id": run["run_id"],
                "variant": run["variant"],
                "samples": len(run["samples"]),
                "import_notes": run.get("import_notes", []),
            }
        )
    if as_json:
        print_json({"runs": written})
        return
    for item in written:
        notes = f", {len(item['import_notes'])} import notes" if item["import_notes"] else ""
        console.print(
            f"{item['path']}: run {item['run_id']} ({item['variant']}), {item['samples']} samples{notes}",
            markup=False,
        )
