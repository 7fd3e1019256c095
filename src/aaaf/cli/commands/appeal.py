"""`aaaf appeal file` and `aaaf appeal resolve` (document 004 §5.4, SCORING.md §2.4)."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json, split_csv
from aaaf.services import appeals as appeal_service

appeal_app = typer.Typer(help="File and resolve appeals against an assessment.", no_args_is_help=True)


class Decision(StrEnum):
    accepted = "accepted"
    rejected = "rejected"


def register(app: typer.Typer) -> None:
    app.add_typer(appeal_app, name="appeal")


@appeal_app.command("file")
@handle_errors
def file(
    assessment_id: Annotated[str, typer.Argument(help="The assessment appealed against.")],
    dimensions: Annotated[str, typer.Option("--dimensions", help="Challenged dimensions, comma-separated.")],
    justification: Annotated[str, typer.Option("--justification", help="Why the scores are wrong.")],
    counter_evidence: Annotated[
        Path | None, typer.Option("--counter-evidence", help="JSON list of {task_id, claim}.")
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="A counter-evidenced task id (repeatable).")
    ] = None,
    claim: Annotated[str | None, typer.Option("--claim", help="The claim for --task items.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """File an appeal within 14 days of the assessment's completion."""
    items = appeal_service.load_counter_evidence(counter_evidence) if counter_evidence else []
    items += [{"task_id": t, "claim": claim or justification} for t in task or []]
    with open_session(db) as session:
        appeal = appeal_service.file_appeal(
            session.org,
            assessment_id,
            dimensions=split_csv(dimensions),
            justification=justification,
            counter_evidence=items,
            now=datetime.now(UTC),
        )
    if as_json:
        from aaaf.models.appeal import Appeal  # models load when printed (a fast --help)

        print_json(Appeal(**appeal.to_dict()))
    else:
        console.print(
            f"filed appeal [bold]{appeal.id}[/] against {appeal.assessment_id} "
            f"({', '.join(appeal.dimensions_challenged)})"
        )


@appeal_app.command("resolve")
@handle_errors
def resolve(
    appeal_id: Annotated[str, typer.Argument(help="The appeal.")],
    decision: Annotated[Decision, typer.Argument(help="accepted | rejected")],
    notes: Annotated[str | None, typer.Option("--notes", help="The reviewer's notes.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Resolve an appeal; `accepted` re-scores only the challenged dimensions."""
    with open_session(db) as session:
        appeal = appeal_service.resolve_appeal(
            session.org, appeal_id, decision=decision.value, notes=notes, now=datetime.now(UTC)
        )
    if as_json:
        from aaaf.models.appeal import Appeal  # models load when printed (a fast --help)

        print_json(Appeal(**appeal.to_dict()))
        return
    console.print(f"appeal {appeal.id} {appeal.status}")
    for name, change in (appeal.resolution or {}).get("changes", {}).items():
        console.print(f"  {name}: {change['before']} → {change['after']}")
