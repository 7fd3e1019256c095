"""`aaaf assess` and `aaaf assessments`."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.table import Table

from aaaf.cli.commands.collect import parse_when
from aaaf.cli.context import (
    DbOption,
    JsonOption,
    console,
    err_console,
    fail,
    handle_errors,
    open_session,
    print_json,
    service_context,
)
from aaaf.errors import AAAFError
from aaaf.scoring.core import display
from aaaf.scoring.evidence_sources import provenance_lines
from aaaf.scoring.uncertainty_report import interval_text
from aaaf.services import assess as assess_service


class AssessmentType(StrEnum):
    full = "full"
    passive_only = "passive_only"
    stress_test_only = "stress_test_only"
    single_dimension = "single_dimension"


def register(app: typer.Typer) -> None:
    app.command("assess")(assess)
    app.command("assessments")(assessments)


@handle_errors
def assess(
    name: Annotated[str | None, typer.Argument(help="The agent to assess.")] = None,
    all_agents: Annotated[
        bool, typer.Option("--all", help="Assess every agent of the organization.")
    ] = False,
    due: Annotated[
        bool, typer.Option("--due", help="Assess every agent whose re-assessment is due.")
    ] = False,
    assessment_type: Annotated[
        AssessmentType | None,
        typer.Option(
            "--type",
            help="What to score.  Default: the type each agent's evidence supports — passive evidence, "
            "or its stress-test evidence when it has too little passive evidence.",
            show_default=False,
        ),
    ] = None,
    dimension: Annotated[
        str | None, typer.Option("--dimension", help="With --type single_dimension.")
    ] = None,
    window_end: Annotated[str | None, typer.Option("--window-end", help="RFC 3339; default now.")] = None,
    no_uncertainty: Annotated[
        bool,
        typer.Option(
            "--no-uncertainty",
            help="Leave out the bootstrap intervals and tier probabilities (docs/uncertainty.md): bulk re-scoring.",
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Score agents on the Performance and Capability dimensions (docs/scoring.md §3)."""
    now = datetime.now(UTC)
    end = parse_when(window_end, "--window-end")
    if sum([name is not None, all_agents, due]) != 1:
        raise AAAFError("INVALID_REQUEST", "give exactly one of NAME, --all or --due")
    kind = (assessment_type or AssessmentType.passive_only).value
    options: assess_service.AssessOptions = {
        "dimension": dimension,
        "window_end": end,
        "uncertainty": not no_uncertainty,
    }
    with open_session(db) as session:
        if name is not None:
            try:
                if assessment_type is None:  # the type its evidence supports
                    agent = session.org.get_agent(name)
                    (outcome,) = assess_service.assess_by_evidence(session.org, [agent], now=now, **options)
                    if outcome.error is not None:
                        raise outcome.error
                    assert outcome.assessment is not None  # an outcome without an error has its assessment
                    record = outcome.assessment
                else:
                    record = assess_service.assess_agent(
                        session.org, name, now=now, assessment_type=kind, **options
                    )
            except AAAFError as error:
                fail(error, as_json=as_json)
            if as_json:
                print_json(assess_service.assessment_model(record, context=session.context))
            else:
                _print_assessment(record, name)
            return
        if due:
            outcomes = assess_service.assess_due(session.org, now=now, assessment_type=kind, **options)
        elif assessment_type is None:
            outcomes = assess_service.assess_by_evidence(
                session.org, session.org.agents(), now=now, **options
            )
        else:
            outcomes = assess_service.assess_all(session.org, now=now, assessment_type=kind, **options)
    if as_json:
        print_json([outcome.to_model(service_context()) for outcome in outcomes])
    else:
        _print_fleet(outcomes, due=due)
    if any(outcome.error is not None for outcome in outcomes):
        raise typer.Exit(max(outcome.error.exit_code for outcome in outcomes if outcome.error is not None))


def uncertainty_phrase(axis: Any, borderline: float) -> str:
    """ " — 95 % interval …; P(tier) = …" for a table title (docs/uncertainty.md), or ''."""
    text = interval_text(axis.get("uncertainty"), axis.get("tier"), borderline)
    return f" — {text}" if text else ""


def _print_assessment(record: Any, name: str) -> None:
    result = record.result
    borderline = float((result.get("config") or {}).get("borderline_probability", 0.8))
    console.print(f"[bold]{name}[/] assessment {record.id}")
    for axis in ("performance", "capability"):
        data = result.get(axis)
        if not data:
            continue
        table = Table(
            title=f"{axis.capitalize()}: {display(data['composite_score'])} {data['tier'] or ''} "
            f"({data['covered']}/{data['total']} dimensions){uncertainty_phrase(data, borderline)}"
        )
        for column in ("dimension", "score", "sample size", "evidence", "note"):
            table.add_column(column)
        for dim_name, dim in data["dimensions"].items():
            table.add_row(
                dim_name,
                display(dim["score"]),
                str(dim["sample_size"]),
                str(dim["evidence_count"]),
                dim.get("reason") or "",
            )
        console.print(table)
    sources = result.get("evidence_sources")
    if sources is not None:  # where the evidence came from (docs/stress-tests.md "Provenance")
        for line in provenance_lines(sources):
            console.print(f"evidence: {line}", markup=False)
        graded = sources.get("model_graded")
        if graded and graded.get("note"):
            console.print(f"model-graded sub-scores: {graded['note']}")
    if record.anomalous:
        console.print(
            "[yellow]anomalous:[/] a composite moved by more than the calibration threshold; "
            "the badge is held for review (aaaf review approve|reject)."
        )
    if assess_service.self_report_unreliable(record.result or {}):
        console.print(
            "[yellow]self-reports unreliable:[/] an audit refuted too many self-reported facts; "
            "the badge is held for review (aaaf review approve|reject; aaaf audit status)."
        )
    console.print(f"valid until {record.valid_until:%Y-%m-%d}")


def _print_fleet(outcomes: list[Any], *, due: bool) -> None:
    if not outcomes:
        console.print("no agent is due for re-assessment" if due else "no agents enrolled")
        return
    table = Table(title="Assessments")
    for column in ("agent", "performance", "tier", "capability", "tier ", "note"):
        table.add_column(column)
    for outcome in outcomes:
        if outcome.error is not None:
            details = outcome.error.details
            note = outcome.error.message
            if outcome.error.code == "INSUFFICIENT_EVIDENCE" and details.get("evidence") == "workflow_run":
                note = "only workflow runs: scored by `aaaf workflow weights`"
            elif outcome.error.code == "INSUFFICIENT_EVIDENCE":
                note = (
                    f"insufficient evidence: {details.get('axis')} has {details.get('current_count')} "
                    f"of {details.get('required_count')} tasks (`aaaf config set {details.get('setting')} N`, "
                    "or --type single_dimension)"
                )
            table.add_row(outcome.agent.name, "—", "—", "—", "—", note)
            continue
        record = outcome.assessment
        table.add_row(
            outcome.agent.name,
            display(record.performance_composite),
            record.performance_tier or "—",
            display(record.capability_composite),
            record.capability_tier or "—",
            _hold_note(record),
        )
    console.print(table)
    failed = sum(1 for o in outcomes if o.error is not None)
    if failed:
        err_console.print(f"{failed} of {len(outcomes)} agent(s) could not be assessed")


def _hold_note(record: Any) -> str:
    """Why an assessment is held (docs/scoring.md §3.7 calibration, §3.9 audit), or ''."""
    reasons = ["anomalous"] if record.anomalous else []
    if assess_service.self_report_unreliable(record.result or {}):
        reasons.append("self-reports unreliable")
    return f"{' and '.join(reasons)}: held for review" if reasons else ""


@handle_errors
def assessments(
    name: Annotated[str, typer.Argument(help="The agent.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """An agent's assessments, newest first, with appeals on record."""
    with open_session(db, must_exist=True) as session:
        agent = session.org.get_agent(name)
        records = session.org.assessments(agent.id)
        appeals = {r.id: session.org.appeals(r.id) for r in records}
    if as_json:
        print_json(
            [
                assess_service.assessment_model(
                    r, extended=True, appeals=[a.to_dict() for a in appeals[r.id]], context=session.context
                )
                for r in records
            ]
        )
        return
    table = Table(title=f"Assessments of {agent.name}")
    for column in ("id", "type", "status", "window end", "performance", "capability", "review", "appeals"):
        table.add_column(column)
    for record in records:
        window_end = record.window_end.strftime("%Y-%m-%d")
        table.add_row(
            str(record.id),
            record.type,
            record.status,
            window_end,
            f"{display(record.performance_composite)} {record.performance_tier or ''}",
            f"{display(record.capability_composite)} {record.capability_tier or ''}",
            record.review_state
            + (
                " (self-reports unreliable)"
                if assess_service.self_report_unreliable(record.result or {})
                else ""
            ),
            "; ".join(f"{a.id} {a.status} ({', '.join(a.dimensions_challenged)})" for a in appeals[record.id])
            or "",
        )
    console.print(table)
