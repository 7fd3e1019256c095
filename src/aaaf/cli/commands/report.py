"""`aaaf report`: the per-agent Markdown report and the fleet summary (document 004 §8 phase 1)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from aaaf.cli.commands.collect import parse_when
from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.errors import AAAFError
from aaaf.services import reports as report_service

DEFAULT_DIRECTORY = Path("reports")
DEFAULT_SUMMARY = Path("reports/summary.md")


def register(app: typer.Typer) -> None:
    app.command("report")(report)


@handle_errors
def report(
    name: Annotated[str | None, typer.Argument(help="The agent to report on (name or id).")] = None,
    summary: Annotated[
        bool, typer.Option("--summary", help="Write the fleet summary instead of one agent's report.")
    ] = False,
    all_agents: Annotated[
        bool, typer.Option("--all", help="Write a report for every agent with a completed assessment.")
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="A directory for agent reports (default reports/), a file for --summary (default reports/summary.md).",
        ),
    ] = None,
    at: Annotated[
        str | None, typer.Option("--at", help="When to compute the trust score (RFC 3339; default now).")
    ] = None,
    no_trust: Annotated[bool, typer.Option("--no-trust", help="Leave the trust score out.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Write Markdown reports: NAME → OUTPUT/NAME.md, --all → one per agent, --summary → the fleet summary."""
    if sum([name is not None, summary, all_agents]) != 1:
        raise AAAFError("INVALID_REQUEST", "give exactly one of NAME, --all or --summary", {"field": "name"})
    moment = parse_when(at, "--at") or datetime.now(UTC)
    with_trust = not no_trust
    with open_session(db, must_exist=True) as session:
        if summary:
            target = output or DEFAULT_SUMMARY
            if target.exists() and target.is_dir():
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"--output {target} is a directory; --summary writes a file",
                    {"field": "output"},
                )
            written = [
                report_service.write_fleet_summary(session.org, target, at=moment, with_trust=with_trust)
            ]
            skipped: list[str] = []
        else:
            directory = output or DEFAULT_DIRECTORY
            if directory.exists() and not directory.is_dir():
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"--output {directory} is a file; agent reports go in a directory",
                    {"field": "output"},
                )
            if all_agents:
                written, skipped = report_service.write_all_agent_reports(
                    session.org, directory, at=moment, with_trust=with_trust
                )
            else:
                assert name is not None
                written = [
                    report_service.write_agent_report(
                        session.org, name, directory, at=moment, with_trust=with_trust
                    )
                ]
                skipped = []
    if as_json:
        from aaaf.models import ReportsWritten

        print_json(ReportsWritten(written=[str(path) for path in written], skipped=skipped))
        return
    for path in written:
        console.print(f"wrote {path}")
    if skipped:
        console.print(f"no completed assessment, no report: {', '.join(skipped)}")
