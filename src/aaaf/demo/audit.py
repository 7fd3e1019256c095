"""The demo's audited agent: inflated self-reports and the auditor who checks them (SCORING.md §2.6).

``python -m aaaf.demo.audit agent --output out/inflated.jsonl --enrollment out/inflated.json --now T``
writes a month of evidence for one agent, ``claims-bot``, whose pipeline reports every
review-checklist item passed and no errors on every task — while its *latent* truth (drawn
with ``numpy.random.default_rng(seed)``: no clock, same seed, same bytes) has each checklist
item passed with probability 0.5 and a major error on about 40 % of tasks.

``python -m aaaf.demo.audit fill WORKSHEET --output FILLED --now T`` plays the auditor: it
fills the findings of a worksheet drawn by ``aaaf audit sample claims-bot`` with that truth
(every checklist item and the errors found), timestamped ``T``, ready for ``aaaf audit record``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from aaaf.demo.clock import demo_now
from aaaf.demo.fleet import CHECKLIST, iso_seconds, parse_now

AGENT = "claims-bot"
AUDITOR = "demo-auditor"
TASKS = 40
DOMAINS = ("code", "testing", "documentation")
DEFAULT_SEED = 11


def truth(seed: int = DEFAULT_SEED) -> dict[str, dict[str, Any]]:
    """What really happened on each task: the checklist items passed and the errors made."""
    rng = np.random.default_rng(seed)
    out: dict[str, dict[str, Any]] = {}
    for i in range(TASKS):
        passed = rng.random(len(CHECKLIST)) < 0.5
        erred = bool(rng.random() < 0.4)
        out[f"{AGENT}-{i:03d}"] = {
            "checklist": {item: bool(value) for item, value in zip(CHECKLIST, passed, strict=True)},
            "errors": [{"severity": "major"}] if erred else [],
        }
    return out


def agent_events(now: datetime, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """The agent's self-reported evidence: every item passed, no error, every task accepted."""
    events: list[dict[str, Any]] = []
    end = int(now.timestamp())
    for i, task_id in enumerate(truth(seed)):
        completed = end - 3_600 - i * 16 * 3_600  # one task every 16 hours, the last 27 days
        seconds = 2_400 + (i % 5) * 300
        assigned = completed - seconds
        events.append(
            {
                "agent": AGENT,
                "id": f"{task_id}-assigned",
                "type": "task_assigned",
                "timestamp": iso_seconds(assigned),
                "data": {
                    "task_id": task_id,
                    "domain": DOMAINS[i % len(DOMAINS)],
                    "complexity_level": 2,
                    "autonomy_level": 1,
                    "assigned_at": iso_seconds(assigned),
                },
            }
        )
        events.append(
            {
                "agent": AGENT,
                "id": f"{task_id}-completed",
                "type": "task_completed",
                "timestamp": iso_seconds(completed),
                "data": {
                    "task_id": task_id,
                    "completion_status": "accepted",
                    "time_to_complete_seconds": float(seconds),
                    "revision_count": 0,
                    "errors": [],
                    "review_checklist": dict.fromkeys(CHECKLIST, True),  # inflated
                },
            }
        )
    events.sort(key=lambda event: (event["timestamp"], event["id"]))
    return events


def enrollment() -> list[dict[str, Any]]:
    return [
        {
            "name": AGENT,
            "domains": list(DOMAINS),
            "tools": ["bash", "file_write"],
            "description": "Reports every review step done and no errors, whatever happened (audited in the demo).",
        }
    ]


def fill(rows: Sequence[dict[str, Any]], now: datetime, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """The worksheet rows with the auditor's findings: the latent truth of each sampled task."""
    facts = truth(seed)
    filled = []
    for row in rows:
        found = facts[row["task_id"]]
        finding = dict(row["finding"])
        finding.update(
            auditor=AUDITOR,
            checklist=dict(found["checklist"]),
            errors=list(found["errors"]),
            audited_at=(now - timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
            notes="checked the task's memory log, output and verification trail",
        )
        filled.append({**row, "finding": finding})
    return filled


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aaaf.demo.audit", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("agent", help="write the audited agent's evidence and enrollment")
    make.add_argument("--output", type=Path, required=True)
    make.add_argument("--enrollment", type=Path, required=True)
    make.add_argument("--now", default=demo_now())
    make.add_argument("--seed", type=int, default=DEFAULT_SEED)
    filler = commands.add_parser("fill", help="fill a worksheet with the auditor's findings")
    filler.add_argument("worksheet", type=Path)
    filler.add_argument("--output", type=Path, required=True)
    filler.add_argument("--now", default=demo_now())
    filler.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    now = parse_now(args.now)
    if args.command == "agent":
        args.output.write_text("".join(json.dumps(e) + "\n" for e in agent_events(now, args.seed)))
        args.enrollment.write_text(json.dumps(enrollment(), indent=2) + "\n")
        print(f"wrote {TASKS} tasks of {AGENT} to {args.output}", file=sys.stderr)
        return 0
    rows = [
        json.loads(line) for line in args.worksheet.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    args.output.write_text("".join(json.dumps(row) + "\n" for row in fill(rows, now, args.seed)))
    print(f"filled {len(rows)} findings into {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
