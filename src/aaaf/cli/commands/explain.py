"""`aaaf explain`: which tasks lowered an assessment's dimensions most, and what would raise
its tiers (SCORING.md §0 'Traceability', §6 retention; issue 10 §5)."""

from __future__ import annotations

from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.errors import AAAFError
from aaaf.reports.moved import explanation_markdown
from aaaf.services.explain import DEFAULT_TOP, explain_assessment


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)


@handle_errors
def explain(
    assessment_id: Annotated[
        str,
        typer.Argument(
            metavar="AGENT|ASSESSMENT_ID",
            help="An agent's name (its latest completed assessment) or an assessment id.",
        ),
    ],
    dimension: Annotated[
        str | None, typer.Option("--dimension", "-d", help="Explain this dimension only.")
    ] = None,
    top: Annotated[
        int, typer.Option("--top", help="How many of the tasks that lowered a dimension to show.")
    ] = DEFAULT_TOP,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Per dimension, the tasks that lowered it most — the dimension recomputed with and without
    each task under the recorded configuration — and what would raise the tier."""
    if top < 1:
        raise AAAFError("INVALID_REQUEST", f"--top must be at least 1, got {top}", {"field": "top"})
    with open_session(db, must_exist=True) as session:
        from aaaf.services.agent_badges import assessment_for

        explanation = explain_assessment(
            session.org, str(assessment_for(session.org, assessment_id)), dimension=dimension
        )
    if as_json:
        print_json(explanation.to_model(top=top))
        return
    console.print(
        explanation_markdown(explanation.to_dict(top=top), explanation.raises, explanation.result),
        markup=False,
        end="",
    )
