"""`aaaf review approve|reject ASSESSMENT_ID` and `aaaf review list`: the calibration hold (SCORING.md §2.4).

An assessment whose composite moved by more than the calibration threshold since the
agent's previous one is anomalous; its badge is held (``pending_review``) until a
reviewer approves it (the badge may then be issued) or rejects it (no badge, ever).
The decision is recorded with who made it (``--reviewer``, default the OS user name) and
when (``reviewed_by``, ``reviewed_at`` on the assessment).
"""

from __future__ import annotations

import getpass
import os
from datetime import UTC, datetime
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.models.admin import PendingReview, ReviewDecision
from aaaf.scoring.core import display
from aaaf.services import badges as badge_service

review_app = typer.Typer(
    help="Approve or reject assessments held for review (anomalous scores, unreliable self-reports).",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(review_app, name="review")


def os_user_name() -> str:
    """Who is at the keyboard, as the OS knows them (``getpass.getuser``), else the uid."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return f"uid:{os.getuid()}"


ReviewerOption = Annotated[
    str | None,
    typer.Option("--reviewer", help="Who decides (recorded on the assessment; default: the OS user name)."),
]


def _decide(assessment_id: str, approve: bool, reviewer: str | None, db: str | None, as_json: bool) -> None:
    with open_session(db) as session:
        decided = badge_service.review(
            session,
            assessment_id,
            approve=approve,
            reviewer=os_user_name() if reviewer is None else reviewer,
            now=datetime.now(UTC),
        )
    if as_json:
        print_json(
            ReviewDecision(
                assessment_id=str(decided.id),
                review_state=decided.review_state,
                reviewed_by=decided.reviewed_by,
                reviewed_at=decided.to_dict()["reviewed_at"],
            )
        )
    elif approve:
        console.print(
            f"{decided.reviewed_by} approved assessment {decided.id}; its badge can be issued: aaaf badge {decided.id}"
        )
    else:
        console.print(
            f"{decided.reviewed_by} rejected assessment {decided.id}; no badge will be issued for it"
        )


@review_app.command("approve")
@handle_errors
def approve(
    assessment_id: Annotated[str, typer.Argument(help="An assessment awaiting review.")],
    reviewer: ReviewerOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Approve a held assessment: its badge may be issued."""
    _decide(assessment_id, True, reviewer, db, as_json)


@review_app.command("reject")
@handle_errors
def reject(
    assessment_id: Annotated[str, typer.Argument(help="An assessment awaiting review.")],
    reviewer: ReviewerOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Reject a held assessment: no badge is ever issued for it."""
    _decide(assessment_id, False, reviewer, db, as_json)


@review_app.command("list")
@handle_errors
def pending(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Assessments awaiting review."""
    with open_session(db) as session:
        held = session.org.assessments(status="completed", review_state="pending_review")
    if as_json:
        print_json(
            [
                PendingReview(
                    assessment_id=str(a.id),
                    agent=a.agent_name,
                    performance_composite=a.performance_composite,
                    capability_composite=a.capability_composite,
                    completed_at=a.completed_at.isoformat() if a.completed_at else None,
                )
                for a in held
            ]
        )
        return
    if not held:
        console.print("no assessment awaits review")
    for a in held:
        console.print(
            f"{a.id}  {a.agent_name}  performance {display(a.performance_composite)}  "
            f"capability {display(a.capability_composite)}"
        )
