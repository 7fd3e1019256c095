"""`aaaf compare CONTROL T1 T2 …`: several treatments against one control (SCORING.md §4).

Each treatment is compared with the control with every confidence level adjusted for
the k comparisons (Bonferroni across treatments: composite CI at 1 − α/k, layer CIs at
1 − α/(k·m)); the roll-up verdict is the worst and drives ``--fail-on``.  The terminal
shows one table (a row per treatment, with its verdict and reason) under the roll-up
line; ``--json`` gives ``{"control", "comparisons": [{"treatment", "verdict", …}],
"verdict"}``; ``--html`` one section per treatment and an overview plot.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich import box
from rich.table import Table

from aaaf.cli.commands.eval_common import (
    VERDICT_STYLES,
    JudgeOptions,
    ci_text,
    grade_runs,
    print_grading,
)
from aaaf.cli.context import console, print_json
from aaaf.models import SeveralComparison
from aaaf.reports import verdict_text
from aaaf.scoring.layered import LayeredConfig
from aaaf.scoring.treatments import MultiComparison, compare_treatments
from aaaf.scoring.verdict import Verdict, fmt
from aaaf.services.evals import check_finished, pick_column, read_runs, to_layered_run, treatment_runs


def print_several(result: MultiComparison) -> None:
    """The roll-up line, then one table: a row per treatment with its verdict and reason."""
    style = VERDICT_STYLES[result.verdict]
    verdict_part, _, rest = verdict_text.multi_headline(result).partition(" — ")
    console.print(f"[{style}]{verdict_part}[/] — {rest}", markup=True)
    first = result.comparisons[0]
    level = first.config.confidence * 100.0
    table = Table(
        title=f"C {result.control.run_id} → {len(result.comparisons)} treatments "
        f"(Bonferroni across treatments: composite CI at {level:.4g} %)",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("treatment", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("n", justify="right")
    table.add_column("T − C", justify="right", no_wrap=True)
    table.add_column(f"{level:.4g}% CI", justify="right", no_wrap=True)
    table.add_column("gates", justify="right")
    table.add_column("judges")
    table.add_column("reason")
    for comparison in result.comparisons:
        present = comparison.present_layers
        passing = sum(1 for layer in present if layer.gate_treatment)
        verdict_style = VERDICT_STYLES[comparison.verdict]
        table.add_row(
            comparison.treatment.run_id,
            f"[{verdict_style}]{comparison.verdict.value}[/]",
            str(comparison.n_paired),
            fmt(comparison.composite.diff, signed=True),
            ci_text(comparison.composite.ci),
            f"{passing}/{len(present)}",
            "agree" if comparison.judges_agree else "disagree",
            f"rule {comparison.rule}: {verdict_text.reason_text(comparison.reason)}",
        )
    console.print(table)


def compare_several(
    control: Path,
    files: list[Path],
    *,
    config: LayeredConfig,
    options: JudgeOptions,
    failing: frozenset[Verdict],
    as_json: bool,
    html: Path | None,
    source_format: str,
    control_column: str | None,
    treatment_column: str | None,
    allow_incomplete: bool,
) -> None:
    """Compare every treatment file with the control; exit 1 when the roll-up is in ``failing``."""
    control_run = pick_column(
        read_runs(control, source_format), control_column, source=str(control), option="--control-column"
    )
    treatments = treatment_runs(files, source_format=source_format, treatment_column=treatment_column)
    check_finished(
        [("control", control_run)]
        + [(f"treatment {number}", run) for number, run in enumerate(treatments, 1)],
        allow_incomplete=allow_incomplete,
    )
    graded = grade_runs([control_run, *treatments], options)
    layered = [to_layered_run(run) for run in graded.runs]
    result = compare_treatments(layered[0], layered[1:], config)
    if html is not None:
        from aaaf.reports.compare_html import write_several_html

        write_several_html(result, html)
    labels = ["control"] + [f"treatment {number}" for number in range(1, len(treatments) + 1)]
    if as_json:
        summaries = graded.summaries()
        shape = SeveralComparison.model_validate(
            {
                **verdict_text.multi_dict(result),
                "grading": {"control": summaries[0], "treatments": summaries[1:]},
                "calibration": graded.calibration_dict(),
            }
        )
        print_json(shape)
    else:
        print_several(result)
        print_grading(graded, labels)
        if html is not None:
            console.print(f"HTML report: {html}", markup=False)
    if result.verdict in failing:
        raise typer.Exit(1)
