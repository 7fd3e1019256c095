"""`aaaf workflow`: deterministic workflow scores and capped weights (SCORING.md §5).

``aaaf workflow score FILE | --agent NAME`` shows every run's S with its four parts;
``aaaf workflow weights [FILE]`` turns each agent's rolling-window mean into a weight
capped at 15 %.  Runs come from a JSON Lines file of ``workflow_run`` events (what a
validator hands an auditor) or from the database (after ``aaaf collect``).  ``--json``
prints full-precision floats and the SHA-256 digest of the RFC 8785 canonical result, so
two validators can compare one line.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.errors import AAAFError
from aaaf.models import WorkflowScore
from aaaf.models import WorkflowWeights as WeightsShape
from aaaf.scoring.core import display
from aaaf.scoring.workflow import WORKFLOW_CAP, WORKFLOW_WINDOW, RunScores, WorkflowWeights
from aaaf.services import workflow as service

workflow_app = typer.Typer(
    name="workflow",
    help="Deterministic workflow scoring (docs/scoring.md §6): per-run S and capped weights per agent.",
    no_args_is_help=True,
)

WorkflowsOption = Annotated[
    Path | None,
    typer.Option(
        "--workflows",
        help="Directory of workflow definition files; runs naming a workflow take dag_steps "
        "and declared_retry_budget from it.",
        show_default=False,
    ),
]
WindowOption = Annotated[
    int, typer.Option("--window", help="Most recent tasks per agent in its mean (docs/scoring.md §6).")
]
CapOption = Annotated[float, typer.Option("--cap", help="Largest weight any agent may get, in (0, 1].")]


def register(app: typer.Typer) -> None:
    app.add_typer(workflow_app, name="workflow")


def _check_window(window: int) -> None:
    if window < 1:
        raise AAAFError(
            "INVALID_REQUEST", f"--window must be a positive integer, got {window}", {"window": window}
        )


def _check_cap(cap: float) -> None:
    if not 0.0 < cap <= 1.0:
        raise AAAFError("INVALID_REQUEST", f"--cap must be in (0, 1], got {cap}", {"cap": cap})


def _percent(weight: float) -> str:
    return f"{display(weight * 100.0, 2)} %"


def _print_scores(result: RunScores) -> None:
    table = Table(
        title="Workflow runs (docs/scoring.md §6)",
        box=None,
        pad_edge=False,
        header_style="bold underline",
    )
    table.add_column("agent", no_wrap=True, min_width=8)
    table.add_column("task", no_wrap=True, min_width=8)
    for column in ("S", "succ", "cost", "lat", "rel"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("unpl", justify="right", no_wrap=True)
    table.add_column("gate", no_wrap=True)
    table.add_column("win", no_wrap=True)
    for score, counted in zip(result.scores, result.in_window, strict=True):
        table.add_row(
            score.run.agent,
            score.run.task_id,
            display(score.s, 3),
            display(score.s_success, 3),
            display(score.s_cost, 3),
            display(score.s_latency, 3),
            display(score.s_reliability, 3),
            str(score.unplanned_retries),
            "gated" if score.gated else "",
            "in" if counted else "",
        )
    console.print(table)
    console.print(
        "S = 0.50 succ + 0.25 cost + 0.15 lat + 0.10 rel; cost and lat count only when succ > 0.7 "
        "(else gated); unpl = retries beyond the declared budget; win = in the agent's window."
    )
    for agent in sorted(result.windows):
        held = result.windows[agent]
        console.print(
            f"{agent}: window mean {display(held.window_mean, 4)} over the last {held.runs} of "
            f"{held.runs_total} task(s) (window {result.window})"
        )
    console.print(f"digest {result.digest()}")


def _print_weights(result: WorkflowWeights) -> None:
    table = Table(title=f"Workflow weights (window {result.window}, cap {_percent(result.cap)})")
    table.add_column("agent")
    table.add_column("window mean", justify="right")
    table.add_column("runs", justify="right")
    table.add_column("weight", justify="right")
    table.add_column("capped")
    for row in result.agents:
        table.add_row(
            row.agent,
            display(row.window_mean, 4),
            str(row.runs),
            _percent(row.weight),
            "capped" if row.capped else "",
        )
    console.print(table)
    if result.method == "all_zero":
        console.print("No agent has a positive mean: every weight is 0.")
    elif result.method == "equal_share":
        console.print(
            f"Only {result.positive_agents} agent(s) with a positive mean, fewer than the "
            f"{result.positive_needed} the cap needs: they share equally (each above the cap)."
        )
    else:
        console.print(
            f"{result.rounds} capping round(s); {result.positive_agents} agent(s) with a positive mean."
        )
    console.print(f"digest {result.digest()}")


@workflow_app.command("score")
@handle_errors
def score(
    file: Annotated[
        Path | None, typer.Argument(help="JSON Lines of workflow_run events.", show_default=False)
    ] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="Score this agent's stored runs instead of a file.")
    ] = None,
    workflows: WorkflowsOption = None,
    window: WindowOption = WORKFLOW_WINDOW,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every run's S and its four parts (success, cost, latency, reliability)."""
    _check_window(window)
    if (file is None) == (agent is None):
        raise AAAFError("INVALID_REQUEST", "give either FILE or --agent NAME (exactly one)")
    if file is not None:
        definitions = service.definitions_from(workflows)
        result = service.score_file(file, now=datetime.now(UTC), window=window, definitions=definitions)
    else:
        assert agent is not None
        with open_session(db) as session:
            result = service.score_stored(session.org, agent, window=window)
    if as_json:
        print_json(WorkflowScore.model_validate(result.to_dict()))
    else:
        _print_scores(result)


@workflow_app.command("weights")
@handle_errors
def weights(
    file: Annotated[
        Path | None,
        typer.Argument(
            help="JSON Lines of workflow_run events (default: the stored runs).", show_default=False
        ),
    ] = None,
    window: WindowOption = WORKFLOW_WINDOW,
    cap: CapOption = WORKFLOW_CAP,
    workflows: WorkflowsOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Each agent's window mean turned into a weight, normalised to 1 and capped (default 15 %)."""
    _check_window(window)
    _check_cap(cap)
    if file is not None:
        definitions = service.definitions_from(workflows)
        result = service.weights_for_file(
            file, now=datetime.now(UTC), window=window, cap=cap, definitions=definitions
        )
    else:
        with open_session(db) as session:
            result = service.weights_for_org(session.org, window=window, cap=cap)
    if as_json:
        print_json(WeightsShape.model_validate(result.to_dict()))
    else:
        _print_weights(result)
