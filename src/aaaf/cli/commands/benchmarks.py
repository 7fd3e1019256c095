"""`aaaf benchmarks compute|show|standing`: the anonymised cross-organization benchmark
(issue 20 §2), thin over :mod:`aaaf.services.benchmarks`.

    aaaf benchmarks compute [--json]                  publish the cells now (the hourly job's work)
    aaaf benchmarks show [--domain D] [--dimension X] [--json]
    aaaf benchmarks standing AGENT [--json]           where one of the organization's agents stands

Only organizations with ``benchmark_opt_in`` true (``aaaf config set benchmark_opt_in true``)
are counted; a cell is published only with at least 5 organizations and 20 agents.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.services import benchmarks as benchmark_service

benchmarks_app = typer.Typer(
    help="The anonymised cross-organization benchmark: compute, show, an agent's standing.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(benchmarks_app, name="benchmarks")


def _deciles(values: list[float]) -> str:
    return " ".join(f"{value:.2f}" for value in values)


@benchmarks_app.command("compute")
@handle_errors
def compute(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Recompute the cells from opted-in organizations' latest valid assessments and publish them."""
    with open_session(db) as session:
        done = benchmark_service.compute_benchmarks(session.store, now=session.context.now())
    if as_json:
        print_json(done)
        return
    console.print(
        f"{done.published} cell(s) published, {done.withheld} withheld below the floors, from "
        f"{done.agents} agent(s) of {done.organizations} opted-in organization(s) at {done.computed_at}",
        markup=False,
    )


@benchmarks_app.command("show")
@handle_errors
def show(
    domain: Annotated[
        str | None, typer.Option("--domain", help="Only this domain (`all`: every agent).")
    ] = None,
    dimension: Annotated[str | None, typer.Option("--dimension", help="Only this dimension.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The published cells: deciles, organizations and agents aggregated."""
    with open_session(db) as session:
        table = benchmark_service.benchmark_table(session.store, domain=domain, dimension=dimension)
    if as_json:
        print_json(table)
        return
    if not table.cells:
        console.print(
            f"no cell published (each needs >= {table.min_organizations} opted-in organizations "
            f"and >= {table.min_agents} agents)",
            markup=False,
        )
        return
    out = Table("domain", "dimension", "deciles (10th … 90th)", "orgs", "agents")
    for cell in table.cells:
        out.add_row(cell.domain, cell.dimension, _deciles(cell.deciles), str(cell.n_orgs), str(cell.n_agents))
    console.print(out)


@benchmarks_app.command("standing")
@handle_errors
def standing(
    agent: Annotated[str, typer.Argument(help="The agent's name or id.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Where one of the organization's agents stands: its percentile per published cell."""
    with open_session(db) as session:
        result = benchmark_service.agent_standing(session.org, agent, now=session.context.now())
    if as_json:
        print_json(result)
        return
    if result.assessment_id is None:
        console.print(f"{result.agent_name}: no valid assessment to compare", markup=False)
        return
    if not result.standings:
        console.print(f"{result.agent_name}: no published cell to compare with yet", markup=False)
        return
    out = Table("domain", "dimension", "score", "percentile", "orgs", "agents")
    for row in result.standings:
        out.add_row(
            row.domain,
            row.dimension,
            f"{row.score:.3f}",
            f"{row.percentile:.1f}",
            str(row.n_orgs),
            str(row.n_agents),
        )
    console.print(out)
