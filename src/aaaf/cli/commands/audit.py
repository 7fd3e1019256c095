"""`aaaf audit sample|record|status`: checking what agents report about themselves (SCORING.md §2.6).

* ``aaaf audit sample NAME --output FILE`` draws the audit sample of the agent's window
  (``--rate``, default the org's 0.20; ``--seed``, default 0) and writes a worksheet: one task
  a line with what the agent reported and blank finding fields (``--format jsonl|csv|md``; the
  Markdown form is a review document to read, findings are recorded from JSON Lines or CSV);
* ``aaaf audit record FILE`` reads the filled worksheet (or ``task_audited`` events) and stores
  the findings through the collect service: per-line validation, the last line
  ``accepted N, rejected M``, exit 2 if any line was rejected — as ``aaaf collect``;
* ``aaaf audit status NAME`` shows coverage, honesty and whether the required rate is met.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from aaaf.cli.commands.collect import parse_when, print_collect_report
from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.errors import AAAFError
from aaaf.models import AuditStatus
from aaaf.scoring.core import display
from aaaf.services import audits as audit_service
from aaaf.services.collect import collect as collect_events

audit_app = typer.Typer(
    help="Audit agents' self-reports: draw a sample, record findings, see the status.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(audit_app, name="audit")


class Format(StrEnum):
    jsonl = "jsonl"
    csv = "csv"
    md = "md"


WindowEndOption = Annotated[
    str | None, typer.Option("--window-end", help="End of the window (RFC 3339 or date; default now).")
]


@audit_app.command("sample")
@handle_errors
def sample(
    name: Annotated[str, typer.Argument(help="The agent to audit.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the worksheet.")],
    rate: Annotated[
        float | None, typer.Option("--rate", help="Share of completed tasks (default: the org's, 0.20).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the draw (default 0).")] = 0,
    window_end: WindowEndOption = None,
    fmt: Annotated[
        Format | None,
        typer.Option("--format", help="jsonl | csv | md (default: from the file name, else jsonl)."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Draw the audit sample of NAME's window and write it as a worksheet."""
    if seed < 0:
        raise AAAFError("INVALID_REQUEST", f"--seed must be ≥ 0, got {seed}", {"seed": seed})
    chosen = fmt.value if fmt is not None else _format_of(output)
    with open_session(db) as session:
        sheet = audit_service.audit_sample(
            session.org,
            name,
            now=datetime.now(UTC),
            rate=rate,
            seed=seed,
            window_end=parse_when(window_end, "--window-end"),
        )
    output.write_text(audit_service.render_worksheet(sheet, chosen), encoding="utf-8")
    if as_json:
        from aaaf.models.audit_worksheet import AuditWorksheet

        drawn = sheet.model_dump(exclude={"agent_id", "tasks"})
        task_ids = [row.task_id for row in sheet.tasks]
        print_json(
            AuditWorksheet.model_validate(
                {**drawn, "task_ids": task_ids, "output": str(output), "format": chosen}
            )
        )
        return
    console.print(
        f"sampled {sheet.sampled} of {sheet.completed_tasks} completed tasks of {sheet.agent} "
        f"(rate {sheet.rate}, seed {sheet.seed}) → {output}"
    )


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower().lstrip(".")
    return suffix if suffix in ("csv", "md") else "jsonl"


@audit_app.command("record")
@handle_errors
def record(
    path: Annotated[Path, typer.Argument(help="A filled worksheet (.jsonl or .csv) or task_audited events.")],
    auditor: Annotated[
        str | None, typer.Option("--auditor", help="Who audited (for lines that do not name an auditor).")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Record audit findings. The last line is `accepted N, rejected M`; exit 2 if any was rejected."""
    now = datetime.now(UTC)
    items = audit_service.read_findings(path, auditor=auditor, now=now)
    with open_session(db) as session:
        report = collect_events(session.org, items, now=now, context=session.context)
    print_collect_report(report, as_json)
    if report.rejected:
        raise typer.Exit(2)


@audit_app.command("status")
@handle_errors
def status(
    name: Annotated[str, typer.Argument(help="The agent.")],
    window_end: WindowEndOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Coverage, honesty and whether the required audit rate is met, for NAME's window."""
    with open_session(db) as session:
        state = audit_service.audit_status(
            session.org, name, now=datetime.now(UTC), window_end=parse_when(window_end, "--window-end")
        )
    if as_json:
        print_json(AuditStatus.model_validate(state))
        return
    _print_status(state)


def _share(value: Any) -> str:
    return "—" if value is None else display(value)


def _print_status(state: dict[str, Any]) -> None:
    table = Table(
        title=f"Audit of {state['agent']} ({state['window_start'][:10]} to {state['window_end'][:10]})"
    )
    table.add_column("measure")
    table.add_column("value")
    table.add_row(
        "coverage",
        f"{_share(state['coverage'])} ({state['audited_completed_tasks']} of {state['completed_tasks']} completed tasks)",
    )
    table.add_row("required rate", f"{state['required_rate']} — {'met' if state['met'] else 'not met'}")
    table.add_row("audited tasks", str(state["audited_tasks"]))
    table.add_row(
        "honesty",
        f"{_share(state['honesty'])} ({state['facts_refuted']} of {state['facts_checked']} facts refuted)",
    )
    table.add_row(
        "self-reports",
        "unreliable: assessments are held for review"
        if state["self_report_unreliable"]
        else f"not flagged (flag: ≥ {state['min_audited_tasks']} audited tasks and honesty < {state['honesty_threshold']})",
    )
    console.print(table)
    for item in state["refuted"]:
        console.print(
            f"  refuted: {item['task_id']} {item['fact']}: reported {item['reported']}, found {item['found']}",
            markup=False,
        )
