"""`aaaf compare CONTROL TREATMENT` and `aaaf eval score RUN`: layered eval verdicts (SCORING.md §4).

``compare`` pairs two eval runs by ``sample_id`` and prints one terse line — the verdict,
what to do, the composite difference with its CI, how many layer gates pass and whether
the judges agree — then the reason that decided it and a table of the layers.  Its exit
code gates a release: 1 when the verdict is one of ``--fail-on`` (default REGRESS; names
case-insensitive, comma-separated; ``none`` never fails), 0 otherwise, 2 on bad input.

Runs are given as files (JSON, JSON list of samples, or JSON Lines — see
``aaaf.evals.models``); stored run ids are not supported yet.  Assertions without
``passed`` are graded by ``aaaf.graders``.  The v1.0 options of document 002 §6 —
``--weights``, ``--standardize``, ``--hotelling`` — apply to this comparison only; the
default stays the frozen v0.x formula.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from aaaf.cli.context import JsonOption, bad_input, console, handle_errors, print_json, split_csv
from aaaf.evals.models import load_layered_run
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


@handle_errors
def compare(
    control: Annotated[
        Path, typer.Argument(help="The control run file (JSON or JSON Lines).", show_default=False)
    ],
    treatment: Annotated[
        Path, typer.Argument(help="The treatment run file (JSON or JSON Lines).", show_default=False)
    ],
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
    control_run = load_layered_run(control)
    treatment_run = load_layered_run(treatment)
    comparison = compare_runs(control_run, treatment_run, config)
    if html is not None:
        from aaaf.reports.compare_html import write_comparison_html

        write_comparison_html(comparison, html)
    if as_json:
        print_json(comparison.to_dict())
    else:
        print_comparison(comparison)
        if html is not None:
            console.print(f"HTML report: {html}", markup=False)
    if comparison.verdict in failing:
        raise typer.Exit(1)


@eval_app.command("score")
@handle_errors
def eval_score(
    run: Annotated[Path, typer.Argument(help="The run file (JSON or JSON Lines).", show_default=False)],
    as_json: JsonOption = False,
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
    report = score_solo(load_layered_run(run), config)
    if as_json:
        print_json(report.to_dict())
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
