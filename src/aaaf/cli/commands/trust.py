"""`aaaf trust`: the 0-1000 trust score (document 000, SCORING.md §3).

    aaaf trust NAME [--json] [--at T]        one agent: dimensions, composite, tier and why
    aaaf trust --all [--json] [--at T]       every agent
    aaaf trust history NAME [--json]         the agent's score history
    aaaf trust weights [--override FILE [--set-by NAME] | --clear] [--json]
    aaaf trust review [HISTORY_ID approve|reject] [--reviewer NAME]

A score computed for the present time (no ``--at``) is appended to the history; ``--at``
asks about the past and records nothing.  Scores on the 0-1000 scale are shown as integers,
truncated (SCORING.md §0); ``--json`` carries them unrounded.
"""

from __future__ import annotations

import getpass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from typer.core import TyperGroup

from aaaf.cli.context import (
    DbOption,
    JsonOption,
    console,
    err_console,
    handle_errors,
    open_session,
    print_json,
)
from aaaf.errors import AAAFError
from aaaf.models.admin import PendingTrustReview, TrustWeightsStatus
from aaaf.models.trust import ScoreHistoryEntry
from aaaf.reports.trust_text import tier_reason_parts
from aaaf.scoring.core import display, truncate
from aaaf.scoring.results import iso
from aaaf.scoring.trust import TRUST_DIMENSIONS, TRUST_WEIGHTS
from aaaf.scoring.uncertainty_report import interval_text
from aaaf.services import trust as trust_service

SHOW = "show"


class _TrustGroup(TyperGroup):
    """``aaaf trust NAME`` and ``aaaf trust --all`` mean ``aaaf trust show ...``.

    The named subcommands win, so an agent called e.g. ``history`` is reached with
    ``aaaf trust show history``.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = [SHOW, *args]
        return super().parse_args(ctx, args)


trust_app = typer.Typer(
    cls=_TrustGroup,
    name="trust",
    help="The 0-1000 trust score from 16 behavioural dimensions (docs/scoring.md §4). "
    "`aaaf trust NAME` or `aaaf trust --all`; see also history, weights, review.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


def register(app: typer.Typer) -> None:
    app.add_typer(trust_app, name="trust")


def whole(value: float | None) -> str:
    """A 0-1000 score for people: integer, truncated (docs/scoring.md §1)."""
    return "—" if value is None else str(int(truncate(value, 0)))


def _now() -> datetime:
    return datetime.now(UTC)


def parse_at(value: str | None) -> datetime | None:
    """``--at``: a date or an RFC 3339 timestamp; a bare date or naive time is taken as UTC
    (the same reading as the other commands' time options)."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as error:
        raise AAAFError(
            "INVALID_REQUEST", f"--at: {value!r} is not a date or RFC 3339 timestamp", {"field": "at"}
        ) from error
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


# ----------------------------------------------------------------------------- show


@trust_app.command(SHOW)
@handle_errors
def show(
    name: Annotated[str | None, typer.Argument(help="The agent (name or id).")] = None,
    all_agents: Annotated[bool, typer.Option("--all", help="Every agent of the organization.")] = False,
    at: Annotated[
        str | None,
        typer.Option("--at", help="RFC 3339 time to score at (default now); a past time is not recorded."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """An agent's trust score: each dimension with coverage, decay and jury details, the
    composite, the tier and why."""
    if (name is None) == (not all_agents):
        raise AAAFError("INVALID_REQUEST", "give exactly one of NAME or --all")
    now = _now()
    when = parse_at(at) or now
    record = at is None
    with open_session(db) as session:
        if name is None:  # --all (exactly one of the two, checked above)
            reports = trust_service.trust_reports_for_all(
                session.org, at=when, record=record, computed_at=now
            )
            if as_json:
                print_json([report.to_model() for report in reports])
            else:
                _print_fleet(reports, when)
            return
        report = trust_service.trust_report(session.org, name, at=when, record=record, computed_at=now)
    if as_json:
        print_json(report.to_model())
    else:
        _print_report(report)


def _decay_cell(dim: Any) -> str:
    """Mean points lost to decay and the oldest observation's age."""
    if not dim.observations:
        return "none" if dim.source == "operational" else "—"
    summary = dim.decay_summary()
    return f"−{truncate(summary['mean_decay_points'], 1):.1f} ({summary['oldest_age_days']:.0f}d)"


def _jury_cell(dim: Any) -> str:
    """Votes in juries and the jurors trimming dropped."""
    summary = dim.jury_summary()
    if not summary["juries"]:
        return "—"
    dropped = summary["dropped_jurors"]
    shown = " ".join(dropped)
    if len(shown) > 12:
        shown = f"{len(dropped)} jurors"
    juries = "" if summary["juries"] == 1 else f"{summary['juries']}j/"
    return f"{juries}{summary['votes']}v" + (f" −{shown}" if dropped else "")


_SOURCES = {"eval_result": "eval", "operational": "fill-in"}


def _print_report(report: trust_service.TrustReport) -> None:
    result = report.result
    console.print(f"[bold]{result.agent}[/] trust at {iso(result.at)}")
    table = Table(title=f"Dimensions ({result.covered}/{result.total} covered)")
    table.add_column("dimension", no_wrap=True)
    for column in ("weight", "score", "source", "obs", "decay (age)", "jury (dropped)", "note"):
        table.add_column(column)
    for dim_name in TRUST_DIMENSIONS:
        dim = result.dimensions[dim_name]
        table.add_row(
            dim_name,
            f"{dim.weight:.4g}",
            display(dim.score, 1),
            _SOURCES.get(dim.source or "", "—"),
            str(len(dim.observations)) if dim.observations else "—",
            _decay_cell(dim),
            _jury_cell(dim),
            _note(dim),
        )
    console.print(table)
    _print_summary(report)


def _note(dim: Any) -> str:
    """A short note; the full reason is in ``--json``."""
    if dim.score is not None:
        return f"AAAF {dim.fill_in.source}" if dim.source == "operational" and dim.fill_in is not None else ""
    if dim.name == "teamwork":
        return "opt-in: no evidence"
    if dim.fill_in is not None:
        return f"no eval; AAAF {dim.fill_in.source} null"
    return "no eval_result"


def _print_summary(report: trust_service.TrustReport) -> None:
    result = report.result
    composite_line = f"composite [bold]{whole(result.composite)}[/] / 1000"
    if result.gated:
        composite_line += f" (security gate: uncapped {whole(result.uncapped_composite)})"
    console.print(composite_line)
    reason = "; ".join(tier_reason_parts(result.tier_reason))
    console.print(f"tier [bold]{result.tier}[/] — {reason}")
    sure = interval_text(
        result.uncertainty, result.tier, result.config.borderline_probability, scale=1.0, digits=0
    )
    if sure:
        console.print(f"how sure (docs/uncertainty.md): {sure}")
    if result.override.rejected_reason is not None:
        console.print(
            f"[yellow]weight override rejected:[/] {result.override.rejected_reason}; base weights in force"
        )
    elif result.override.applied:
        console.print("weights: the organization's adaptive override is in force")
    else:
        console.print("weights: docs/scoring.md §4 base weights")
    _print_history_note(report)


def _print_history_note(report: trust_service.TrustReport) -> None:
    if report.entry is None:
        reason = report.not_recorded_reason or "not recorded"
        console.print(f"history: not recorded ({reason})")
        return
    if report.held_for_review:
        canonical = report.canonical
        console.print(
            f"[yellow]anomalous:[/] more than 200 points from the last committed score; held for review "
            f"(aaaf trust review {report.entry.id} approve|reject). Canonical score stays "
            f"{whole(canonical.score) if canonical is not None else '—'}."
        )
    else:
        console.print(f"history: recorded and committed ({report.entry.id})")


def _fleet_note(report: trust_service.TrustReport) -> str:
    """Why the tier is what it is, in a few words (the full reason: ``aaaf trust NAME``)."""
    result = report.result
    notes: list[str] = []
    if report.held_for_review:
        notes.append("held for review")
    if result.gated:
        security = result.dimensions["security"].score
        notes.append(f"security {display(security)} < {result.config.security_gate_threshold:g}")
    if result.mandatory_missing:
        notes.append("no " + ", ".join(result.mandatory_missing))
    if result.covered < result.config.min_covered_dimensions:
        notes.append(f"coverage < {result.config.min_covered_dimensions}")
    return "; ".join(notes)


def _print_fleet(reports: list[trust_service.TrustReport], when: datetime) -> None:
    if not reports:
        console.print("no agents enrolled")
        return
    table = Table(title=f"Trust scores at {iso(when)}")
    table.add_column("agent", no_wrap=True)
    for column in ("trust", "tier", "covered", "gated", "note"):
        table.add_column(column)
    for report in reports:
        result = report.result
        note = _fleet_note(report)
        table.add_row(
            result.agent,
            whole(result.composite),
            result.tier,
            f"{result.covered}/{result.total}",
            "yes" if result.gated else "",
            note,
        )
    console.print(table)
    counts: dict[str, int] = {}
    for report in reports:
        counts[report.result.tier] = counts.get(report.result.tier, 0) + 1
    console.print("tiers: " + ", ".join(f"{tier} {count}" for tier, count in sorted(counts.items())))


# ----------------------------------------------------------------------------- history


@trust_app.command("history")
@handle_errors
def history_command(
    name: Annotated[str, typer.Argument(help="The agent (name or id).")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every trust score recorded for the agent, oldest first, with anomaly and review state."""
    with open_session(db) as session:
        agent = session.org.get_agent(name)
        entries = trust_service.history(session.org, agent)
    if as_json:
        print_json([ScoreHistoryEntry.model_validate(entry.to_dict()) for entry in entries])
        return
    if not entries:
        console.print(f"no trust score recorded for {agent.name}")
        return
    table = Table(title=f"Trust history of {agent.name}")
    table.add_column("id", no_wrap=True)
    table.add_column("computed at")
    for column in ("score", "tier", "state"):
        table.add_column(column)
    for entry in entries:
        if entry.review_decision is not None:
            state = f"anomalous, {entry.review_decision} by {entry.reviewed_by}"
        elif entry.was_anomalous:
            state = "anomalous, held for review"
        else:
            state = "committed"
        table.add_row(
            str(entry.id),
            f"{entry.computed_at:%Y-%m-%d %H:%M}",
            whole(entry.score),
            entry.tier or "—",
            state,
        )
    console.print(table)


# ----------------------------------------------------------------------------- weights


@trust_app.command("weights")
@handle_errors
def weights_command(
    override: Annotated[
        Path | None,
        typer.Option("--override", help="A JSON file {dimension: weight}, merged over the base weights."),
    ] = None,
    set_by: Annotated[
        str | None, typer.Option("--set-by", help="Who sets the override (default: you).")
    ] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Remove the organization's override.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show the trust weights in force, or set / clear the organization's adaptive override.

    The override is stored as given and validated when applied (docs/scoring.md §4): one whose
    merged weights do not sum to 1.0 ± 0.001, or that names an unknown dimension or a weight
    outside [0, 1], is rejected as a whole and the base weights stay in force.
    """
    if override is not None and clear:
        raise AAAFError("INVALID_REQUEST", "give --override FILE or --clear, not both")
    with open_session(db) as session:
        if override is not None:
            weights = trust_service.load_override_file(override)
            _, rejected = trust_service.set_override(
                session.org, weights, set_by=set_by or _whoami(), at=_now()
            )
            if rejected is not None:
                err_console.print(
                    f"[yellow]warning:[/] override stored as given, but it will be rejected when applied: "
                    f"{rejected}; the base weights stay in force"
                )
        elif clear:
            trust_service.clear_override(session.org)
        status = trust_service.weights_status(session.org)
    if as_json:
        print_json(TrustWeightsStatus(**status))
        return
    stored = status["override"]
    supplied = stored["weights"] if stored is not None else {}
    table = Table(title="Trust weights (docs/scoring.md §4)")
    table.add_column("dimension", no_wrap=True)
    for column in ("base", "override", "in force"):
        table.add_column(column)
    for dim_name in TRUST_DIMENSIONS:
        given = supplied.get(dim_name)
        table.add_row(
            dim_name,
            f"{TRUST_WEIGHTS[dim_name]:g}",
            "" if given is None else str(given),
            f"{status['weights_in_force'][dim_name]:g}",
        )
    console.print(table)
    if stored is None:
        console.print("no override: the base weights are in force")
    else:
        state = "applied" if status["applied"] else f"rejected ({status['rejected_reason']})"
        console.print(f"override set by {stored['set_by'] or '—'} at {stored['set_at']}: {state}")


def _whoami() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user database entry (containers): still say something
        return "cli"


# ----------------------------------------------------------------------------- review


class Decision(StrEnum):
    approve = "approve"
    reject = "reject"


@trust_app.command("review")
@handle_errors
def review_command(
    history_id: Annotated[
        str | None, typer.Argument(help="The held score's history id (omit to list pending reviews).")
    ] = None,
    decision: Annotated[Decision | None, typer.Argument(help="approve or reject.")] = None,
    reviewer: Annotated[str | None, typer.Option("--reviewer", help="Who reviews (default: you).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Approve (commit as canonical) or reject a trust score held as anomalous (> 200 points)."""
    with open_session(db) as session:
        if history_id is None:
            pending = trust_service.pending_reviews(session.org)
            if as_json:
                print_json(
                    [PendingTrustReview(agent=agent.name, **entry.to_dict()) for agent, entry in pending]
                )
                return
            if not pending:
                console.print("no trust score is waiting for review")
                return
            table = Table(title="Trust scores held for review")
            for column in ("id", "agent", "score", "tier", "computed at"):
                table.add_column(column)
            for agent, entry in pending:
                table.add_row(
                    str(entry.id), agent.name, whole(entry.score), entry.tier or "—", iso(entry.computed_at)
                )
            console.print(table)
            return
        if decision is None:
            raise AAAFError("INVALID_REQUEST", "give the decision: approve or reject", {"field": "decision"})
        entry = trust_service.review(
            session.org,
            history_id,
            approve=decision is Decision.approve,
            reviewer=reviewer or _whoami(),
            at=_now(),
        )
    if as_json:
        print_json(ScoreHistoryEntry.model_validate(entry.to_dict()))
        return
    verdict = (
        "approved: now the canonical score"
        if entry.committed
        else "rejected: the previous score stays canonical"
    )
    console.print(f"trust score {entry.id} ({whole(entry.score)}, {entry.tier}) {verdict}")
