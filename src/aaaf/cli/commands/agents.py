"""`aaaf enroll` and `aaaf agents`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json, split_csv
from aaaf.errors import AAAFError
from aaaf.scoring.core import display


def register(app: typer.Typer) -> None:
    app.command("enroll")(enroll)
    app.command("agents")(agents)


@handle_errors
def enroll(
    name: Annotated[str | None, typer.Argument(help="The agent's unique name in the organization.")] = None,
    domains: Annotated[str, typer.Option("--domains", help="Claimed domains, comma-separated.")] = "",
    tools: Annotated[str, typer.Option("--tools", help="Tools the agent has, comma-separated.")] = "",
    description: Annotated[str | None, typer.Option("--description", help="What the agent does.")] = None,
    metadata: Annotated[
        str | None, typer.Option("--metadata", help="Extra metadata as a JSON object.")
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option(
            "--file", help="Enroll many: a JSON list of {name, domains, tools, description, metadata}."
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Register an agent for assessment."""
    if (name is None) == (from_file is None):
        raise AAAFError("INVALID_REQUEST", "give either NAME or --file")
    if from_file is not None:
        _enroll_many(from_file, db, as_json)
        return
    assert name is not None
    meta = None
    if metadata:
        try:
            meta = json.loads(metadata)
        except json.JSONDecodeError as error:
            raise typer.BadParameter(f"--metadata is not JSON: {error}") from error
    from aaaf.services.agents import enroll_agent  # models load when run (a fast --help)

    with open_session(db) as session:
        agent = enroll_agent(
            session.org,
            name,
            claimed_domains=split_csv(domains),
            tools=split_csv(tools),
            description=description,
            metadata=meta,
        )
        if as_json:
            print_json(agent)
        else:
            console.print(f"enrolled [bold]{agent.name}[/] ({agent.id})")


def _enroll_many(path: Path, db: str | None, as_json: bool) -> None:
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise AAAFError("INVALID_REQUEST", f"{path}: not JSON: {error}") from error
    if not isinstance(entries, list):
        raise AAAFError("INVALID_REQUEST", f"{path}: expected a JSON list of agents")
    from aaaf.services.agents import enroll_agent

    enrolled, existing = [], []
    with open_session(db) as session:
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise AAAFError("INVALID_REQUEST", f"{path}: item {index} has no string `name`")
            if session.org.find_agent(entry["name"]) is not None:
                existing.append(entry["name"])
                continue
            agent = enroll_agent(
                session.org,
                entry["name"],
                claimed_domains=list(entry.get("domains") or entry.get("claimed_domains") or []),
                tools=list(entry.get("tools") or []),
                description=entry.get("description"),
                metadata=entry.get("metadata"),
            )
            enrolled.append(agent.name)
    if as_json:
        from aaaf.models.tenancy import Enrollment  # models load when printed (a fast --help)

        print_json(Enrollment(enrolled=enrolled, already_enrolled=existing))
    else:
        console.print(
            f"enrolled {len(enrolled)} agent(s)" + (f"; {len(existing)} already enrolled" if existing else "")
        )


@handle_errors
def agents(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List the organization's agents with their latest assessment."""
    with open_session(db, must_exist=True) as session:
        rows = []
        for agent in session.org.agents():
            latest = session.org.latest_completed_assessment(agent.id)
            rows.append((agent, latest))
        if as_json:
            from aaaf.models.tenancy import AgentListing, LatestAssessment

            print_json(
                [
                    AgentListing(
                        **agent.to_dict(),
                        latest_assessment=None
                        if latest is None
                        else LatestAssessment(
                            id=str(latest.id),
                            performance_composite=latest.performance_composite,
                            performance_tier=latest.performance_tier,
                            capability_composite=latest.capability_composite,
                            capability_tier=latest.capability_tier,
                        ),
                    )
                    for agent, latest in rows
                ]
            )
            return
        table = Table(title=f"Agents of {session.organization.name}")
        for column in ("agent", "domains", "tools", "status", "performance", "capability", "assessed"):
            table.add_column(column)
        for agent, latest in rows:
            table.add_row(
                agent.name,
                ", ".join(agent.claimed_domains),
                ", ".join(agent.tools),
                agent.status,
                "—"
                if latest is None
                else f"{display(latest.performance_composite)} {latest.performance_tier or ''}",
                "—"
                if latest is None
                else f"{display(latest.capability_composite)} {latest.capability_tier or ''}",
                "never"
                if latest is None or latest.completed_at is None
                else latest.completed_at.strftime("%Y-%m-%d %H:%M"),
            )
        console.print(table)
