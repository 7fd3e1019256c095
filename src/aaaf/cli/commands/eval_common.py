"""What the layered-eval commands share (SCORING.md §4): options, settings, grading, styles.

``aaaf compare`` (:mod:`aaaf.cli.commands.compare`, several treatments in
:mod:`aaaf.cli.commands.compare_several`) and ``aaaf eval score|grade|import``
(:mod:`aaaf.cli.commands.eval_commands`) read runs, grade them once through
``aaaf.services.evals.grade_run`` and print verdicts with the helpers here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from aaaf.cli.context import bad_input, console, split_csv
from aaaf.graders.calibration import Calibration
from aaaf.graders.judge import BUILT_IN_RUBRICS, DEFAULT_RUBRIC, Judge, JudgeEnsemble, Rubric
from aaaf.scoring.core import display
from aaaf.scoring.layered import CI_METHODS, LAYERS, LayeredConfig
from aaaf.scoring.verdict import Comparison, SoloReport, Verdict, fmt, parse_verdicts
from aaaf.services.evals import (
    apply_human_labels,
    calibrate_ensemble,
    grade_run,
    grading_summary,
    judge_calibrations,
    read_human_labels,
)
from aaaf.settings import get_settings

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
CiMethodOption = Annotated[
    str,
    typer.Option(
        "--ci-method",
        help="Bootstrap interval: percentile (the default and the contract) or bca (bias-corrected "
        "and accelerated, for comparison only).",
    ),
]
AllowIncompleteOption = Annotated[
    bool,
    typer.Option(
        "--allow-incomplete",
        help="Compare a run whose source says it did not finish (status not success, errored samples); "
        "its errored samples are left out and the reason says so.",
    ),
]

VERDICT_STYLES = {
    Verdict.PROGRESS: "bold green",
    Verdict.CAUTIOUS: "bold yellow",
    Verdict.REGRESS: "bold red",
    Verdict.NOISE: "bold",
    Verdict.UNDERPOWERED: "bold magenta",
    Verdict.SOLO: "bold cyan",
}


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
    ci_method: str = "percentile",
) -> LayeredConfig:
    if ci_method not in CI_METHODS:
        bad_input(
            f"--ci-method: expected one of {', '.join(CI_METHODS)}, got {ci_method!r}", ci_method=ci_method
        )
    return LayeredConfig(
        resamples=resamples,
        confidence=confidence,
        seed=seed,
        weights=parse_weights(weights),
        standardize=standardize,
        hotelling=hotelling,
        ci_method=ci_method,
    )


def ci_text(interval: object) -> str:
    return interval.text() if interval is not None else "—"  # type: ignore[attr-defined]


def level_text(value: float | None, scale: str) -> str:
    """Points are truncated (docs/scoring.md §1: never shown above their gate); z-scores are rounded."""
    return display(value) if scale == "points" else fmt(value)


def gate_text(value: bool | None) -> str:
    if value is None:
        return "—"
    return "[green]✓[/]" if value else "[red]✗[/]"


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
        return {name: c.to_dict() for name, c in self.calibrations.items()}


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


def judge_options(
    judge: list[str] | None,
    judge_url: str | None,
    rubric: str,
    require_calibration: bool,
    human_labels: Path | None,
) -> JudgeOptions:
    return JudgeOptions(tuple(judge or ()), judge_url, rubric, require_calibration, human_labels)
