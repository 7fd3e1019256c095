"""Small, explicit task logs for CLI end-to-end tests."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def task_events(
    agent: str | None,
    task_id: str,
    *,
    completed_at: datetime,
    status: str = "accepted",
    domain: str = "code",
    level: int = 2,
    autonomy: int = 1,
    seconds: float = 1800.0,
    revisions: int = 0,
    checklist: dict[str, bool] | None = None,
) -> list[dict[str, Any]]:
    assigned_at = completed_at - timedelta(seconds=seconds)
    base = {} if agent is None else {"agent": agent}
    return [
        {
            **base,
            "id": f"{task_id}-a",
            "type": "task_assigned",
            "timestamp": assigned_at.isoformat(),
            "data": {
                "task_id": task_id,
                "complexity_level": level,
                "domain": domain,
                "assigned_at": assigned_at.isoformat(),
                "autonomy_level": autonomy,
            },
        },
        {
            **base,
            "id": f"{task_id}-c",
            "type": "task_completed",
            "timestamp": completed_at.isoformat(),
            "data": {
                "task_id": task_id,
                "completion_status": status,
                "time_to_complete_seconds": seconds,
                "revision_count": revisions,
                "errors": [],
                "review_checklist": checklist
                if checklist is not None
                else {
                    "memory_search_performed": True,
                    "output_format_correct": True,
                    "verification_evidence_provided": True,
                    "memory_written": False,
                },
            },
        },
    ]


def agent_log(
    agent: str | None, tasks: int, *, now: datetime = NOW, prefix: str | None = None
) -> list[dict[str, Any]]:
    """``tasks`` tasks spread over the last 28 days; every fourth one revised once."""
    events: list[dict[str, Any]] = []
    stem = prefix or (agent or "t")
    for i in range(tasks):
        completed = now - timedelta(hours=6 + 16 * i)
        events += task_events(
            agent,
            f"{stem}-{i:03d}",
            completed_at=completed,
            domain=("code", "testing", "security")[i % 3],
            revisions=1 if i % 4 == 0 else 0,
        )
    return events


def write_jsonl(path: Path, events: list[dict[str, Any]], *, extra_lines: list[str] | None = None) -> Path:
    lines = [json.dumps(e) for e in events] + list(extra_lines or [])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
