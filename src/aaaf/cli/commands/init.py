"""``aaaf init``: a first events file and the configuration file, to start from (README "Install").

Writes into the current folder:

* ``aaaf-events.jsonl`` — a commented example of each common event type for one agent (lines
  starting with ``#`` are comments, which ``aaaf collect`` skips), timestamped in the last
  hours so that ``aaaf collect AGENT aaaf-events.jsonl`` stores it as it is;
* ``aaaf-config.toml`` — every setting ``aaaf config apply`` takes, with its default and what
  it does; change a value and apply the file.

An existing file is kept (and said so) unless ``--force``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

import typer

from aaaf.cli.context import JsonOption, console, handle_errors, print_json

EVENTS_FILE = "aaaf-events.jsonl"
CONFIG_FILE = "aaaf-config.toml"


def register(app: typer.Typer) -> None:
    app.command("init")(init)


@handle_errors
def init(
    directory: Annotated[Path, typer.Option("--dir", help="Where to write the two files.")] = Path("."),
    force: Annotated[bool, typer.Option("--force", help="Overwrite files that exist.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Write a commented example events file (aaaf-events.jsonl) and the configuration with its defaults (aaaf-config.toml)."""
    from aaaf.cli.commands.config_file import config_file_text

    directory.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    kept: list[str] = []
    for name, text in ((EVENTS_FILE, events_file_text(datetime.now(UTC))), (CONFIG_FILE, config_file_text())):
        target = directory / name
        if target.exists() and not force:
            kept.append(str(target))
            continue
        target.write_text(text, encoding="utf-8")
        written.append(str(target))
    if as_json:
        from aaaf.models import FilesWritten

        print_json(FilesWritten(written=written, kept=kept))
        return
    for shown in written:
        console.print(f"wrote {shown}", markup=False)
    for shown in kept:
        console.print(f"kept {shown} (it exists; --force overwrites it)", markup=False)
    console.print(
        "next: aaaf enroll my-agent --domains code,testing && aaaf collect my-agent aaaf-events.jsonl "
        "(the format: docs/evidence-format.md); aaaf config apply aaaf-config.toml applies your settings",
        markup=False,
    )


def _line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False)


def events_file_text(now: datetime) -> str:
    """The example events, two tasks of one agent in the hours before ``now``."""
    at = now.replace(microsecond=0) - timedelta(hours=3)

    def ts(minutes: int) -> str:
        return (at + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")

    lines = [
        "# AAAF evidence: JSON Lines, one event per line; lines starting with # are comments.",
        "# Collect it for an agent:  aaaf collect my-agent aaaf-events.jsonl",
        '# (each line may instead name its agent with "agent": "NAME").  Every field, and the',
        '# JSON Schema of every event type: docs/evidence-format.md.  Give each event an "id":',
        "# sending it again then stores nothing new.",
        "#",
        "# A task is a task_assigned and a task_completed with the same task_id.",
        _line(
            {
                "id": "example-1-assigned",
                "type": "task_assigned",
                "timestamp": ts(0),
                "data": {
                    "task_id": "example-1",
                    "complexity_level": 2,
                    "domain": "code",
                    "assigned_at": ts(0),
                },
            }
        ),
        "# tools_used feeds tool proficiency; review_checklist the review compliance (its keys are",
        "# the organization's checklist items: aaaf config show).",
        _line(
            {
                "id": "example-1-completed",
                "type": "task_completed",
                "timestamp": ts(25),
                "data": {
                    "task_id": "example-1",
                    "completion_status": "accepted",
                    "time_to_complete_seconds": 1500,
                    "revision_count": 0,
                    "errors": [],
                    "tools_used": [{"tool": "bash", "invocations": 4, "successes": 4, "unnecessary": 0}],
                    "review_checklist": {
                        "output_format_correct": True,
                        "verification_evidence_provided": True,
                    },
                },
            }
        ),
        "# A second task: revised once, with one minor error.",
        _line(
            {
                "id": "example-2-assigned",
                "type": "task_assigned",
                "timestamp": ts(40),
                "data": {
                    "task_id": "example-2",
                    "complexity_level": 3,
                    "domain": "testing",
                    "assigned_at": ts(40),
                },
            }
        ),
        _line(
            {
                "id": "example-2-revised",
                "type": "task_revised",
                "timestamp": ts(90),
                "data": {
                    "task_id": "example-2",
                    "revision_number": 1,
                    "reason_code": "minor",
                    "changes": "renamed a test",
                },
            }
        ),
        _line(
            {
                "id": "example-2-completed",
                "type": "task_completed",
                "timestamp": ts(100),
                "data": {
                    "task_id": "example-2",
                    "completion_status": "partial",
                    "time_to_complete_seconds": 3600,
                    "revision_count": 1,
                    "errors": [{"severity": "minor", "message": "flaky test"}],
                },
            }
        ),
        "# One tool call, as it happened.",
        _line(
            {
                "id": "example-2-tool",
                "type": "tool_invoked",
                "timestamp": ts(60),
                "data": {
                    "task_id": "example-2",
                    "tool": "pytest",
                    "success": True,
                    "unnecessary": False,
                    "error_recovered": False,
                },
            }
        ),
        "# An assessment needs 20 completed tasks in its 30-day window for Performance and 30 for",
        "# Capability (aaaf-config.toml: minimum_tasks_performance, minimum_tasks_capability).",
    ]
    return "\n".join(lines) + "\n"
