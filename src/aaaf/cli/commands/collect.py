"""`aaaf collect`: task logs (JSON Lines), memory files, or one manual event."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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
from aaaf.evidence.collectors.task_logs import read_jsonl
from aaaf.services.collect import CollectReport
from aaaf.services.collect import collect as collect_events

MAX_ERRORS_SHOWN = 100  # "first 100 of N" when there are more (issue 21)


class Source(StrEnum):
    task_logs = "task_logs"
    memory = "memory"
    manual = "manual"


def register(app: typer.Typer) -> None:
    app.command("collect")(collect)


def parse_when(value: str | None, option: str) -> datetime | None:
    """A date or an RFC 3339 timestamp; a bare date or naive time is taken as UTC."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as error:
        raise AAAFError(
            "INVALID_REQUEST", f"{option}: {value!r} is not a date or RFC 3339 timestamp"
        ) from error
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _count_lines(paths: list[Path]) -> int | None:
    total = 0
    for path in paths:
        if path.suffix != ".jsonl" and path.suffix != ".ndjson":
            return None
        with path.open("rb") as handle:
            total += sum(1 for _ in handle)
    return total


def _task_log_items(paths: list[Path]) -> Iterator[tuple[int | None, Any]]:
    from aaaf.settings import get_settings

    max_line_bytes = get_settings().event_max_line_bytes
    for path in paths:
        if not path.exists():
            raise AAAFError("INVALID_REQUEST", f"no such file: {path}")
        yield from read_jsonl(path, max_line_bytes=max_line_bytes)


def _memory_items(paths: list[Path], agent: str | None) -> Iterator[tuple[int | None, Any]]:
    from aaaf.evidence.collectors.memory import read_memory_dir

    for path in paths:
        if not path.is_dir():
            raise AAAFError("INVALID_REQUEST", f"--source memory takes a directory; {path} is not one")
        yield from read_memory_dir(path, agent=agent)


def _manual_items(
    event_type: str | None, timestamp: str | None, data: str | None
) -> Iterator[tuple[int | None, Any]]:
    """One event: JSON on stdin, or built from --type/--timestamp/--data (default time: now)."""
    from aaaf.evidence.collectors.manual import event_from_flags, event_from_text

    if event_type is None:
        from aaaf.settings import get_settings

        limit = get_settings().event_max_line_bytes
        text = sys.stdin.read(limit + 1)
        if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            raise AAAFError(
                "INVALID_REQUEST",
                f"the event on stdin is over {limit} bytes, the limit of one event (AAAF_EVENT_MAX_LINE_BYTES)",
            )
        yield (1, event_from_text(text))
    else:
        yield (1, event_from_flags(event_type, None, timestamp, data, now=datetime.now(UTC)))


@handle_errors
def collect(
    agent: Annotated[
        str | None, typer.Argument(help="The agent the events belong to (else each line names its `agent`).")
    ] = None,
    source: Annotated[
        Source, typer.Option("--source", help="task_logs | memory | manual")
    ] = Source.task_logs,
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Files (task_logs) or directories (memory).", show_default=False),
    ] = None,
    since: Annotated[str | None, typer.Option("--from", help="Skip events before this date.")] = None,
    enroll: Annotated[
        bool, typer.Option("--enroll", help="Enroll agents not yet known instead of rejecting.")
    ] = False,
    event_type: Annotated[str | None, typer.Option("--type", help="manual: the event type.")] = None,
    timestamp: Annotated[str | None, typer.Option("--timestamp", help="manual: RFC 3339 timestamp.")] = None,
    data: Annotated[str | None, typer.Option("--data", help="manual: the event's data as JSON.")] = None,
    workflows: Annotated[
        Path | None, typer.Option("--workflows", help="Directory of workflow definitions runs may name.")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Collect evidence events. The first line is `accepted N, rejected M`; exit 2 if any was rejected.

    Events are JSON Lines, one event object per line (lines starting with # are comments); the
    format and the JSON Schema of each event type: docs/evidence-format.md.  Accepted events that
    are probably mistakes (a domain outside the taxonomy, an unknown checklist key or field) are
    stored with a warning naming them."""
    now = datetime.now(UTC)
    files = list(paths or [])
    # `aaaf collect FILE.jsonl` (no agent): Typer binds the first path to AGENT; undo that.
    if (
        agent is not None
        and source is not Source.manual
        and (Path(agent).exists() or agent.endswith((".jsonl", ".json")))
    ):
        files.insert(0, Path(agent))
        agent = None
    if source is Source.manual:
        items = _manual_items(event_type, timestamp, data)
        total = 1
    elif not files:
        raise AAAFError("INVALID_REQUEST", f"--source {source.value} needs at least one PATH")
    elif source is Source.memory:
        items = _memory_items(files, agent)
        total = None
    else:
        for path in files:
            if not path.exists():
                raise AAAFError("INVALID_REQUEST", f"no such file: {path}")
        items = _task_log_items(files)
        total = _count_lines(files)
    definitions = None
    if workflows is not None:
        from aaaf.evidence.workflow_definition import load_definitions

        definitions = load_definitions(workflows)
    with open_session(db) as session:
        show_progress = not as_json and err_console.is_terminal
        with Progress(
            TextColumn("collecting"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err_console,
            disable=not show_progress,
            transient=True,
        ) as progress:
            task = progress.add_task("collect", total=total)
            report = collect_events(
                session.org,
                items,
                now=now,
                default_agent=agent,
                enroll=enroll,
                since=parse_when(since, "--from"),
                progress=lambda n: progress.update(task, completed=n),
                workflow_definitions=definitions,
                context=session.context,
            )
    print_collect_report(report, as_json)
    if report.rejected:
        raise typer.Exit(2)


def print_collect_report(report: CollectReport, as_json: bool) -> None:
    if as_json:
        print_json(report.to_model(max_errors=MAX_ERRORS_SHOWN))
        return
    warned = f", {report.warned} warning(s)" if report.warned else ""
    console.print(f"accepted {report.accepted}, rejected {report.rejected}{warned}")
    if report.enrolled:
        console.print(f"enrolled {len(report.enrolled)} agent(s): {', '.join(report.enrolled)}")
    extra = []
    if report.duplicates:
        extra.append(f"{report.duplicates} already stored")
    if report.skipped:
        extra.append(f"{report.skipped} before --from")
    if extra:
        console.print("; ".join(extra))
    shown = report.errors[:MAX_ERRORS_SHOWN]
    note = report.errors_note(len(shown))
    if note is not None:
        console.print(f"errors ({note}):")
    for error in shown:
        where = f"line {error.line}" if error.line is not None else f"index {error.index}"
        field = f" {error.field}:" if error.field and not error.message.startswith(f"{error.field}:") else ""
        console.print(f"  {where}: [{error.code}]{field} {error.message}", markup=False)
    kept = report.to_model(max_errors=MAX_ERRORS_SHOWN).warnings
    if kept:
        cut = f" (first {len(kept)} of {report.warned})" if report.warned > len(kept) else ""
        console.print(f"warnings — stored, but probably not what you meant{cut}:")
    for warning in kept:
        where = f"line {warning.line}" if warning.line is not None else f"index {warning.index}"
        console.print(f"  {where}: {warning.warning}", markup=False)
