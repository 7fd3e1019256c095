"""`aaaf report` end to end: collect part of the demo fleet, assess it, write the reports."""

from __future__ import annotations

import importlib.util
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aaaf.demo.fleet import generate_fleet
from aaaf.scoring.core import display
from aaaf.services.reports import TRUST_MISSING_NOTE

pytest.importorskip("aaaf.store", reason="the store is not installed yet")

# imported after the skip: the CLI needs the store
from aaaf.cli.main import app

runner = CliRunner()
# the demo's month ends an hour ago, so no event is in the future whatever the machine's clock says
NOW = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=1)
AGENTS = ("security-auditor", "copy-editor", "meeting-summarizer", "intern-bot")


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(app, [*args, "--db", db])


@pytest.fixture(scope="module")
def assessed_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Four agents of the demo fleet collected and assessed (intern-bot has too little evidence)."""
    directory = tmp_path_factory.mktemp("report-cli")
    db = str(directory / "aaaf.db")
    events = [e for e in generate_fleet(NOW).events if e["agent"] in AGENTS]
    log = directory / "fleet.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    collected = aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll")
    assert collected.exit_code == 0, collected.output
    assessed = aaaf(db, "assess", "--all", "--type", "full", "--window-end", NOW.isoformat())
    assert assessed.exit_code == 2, assessed.output  # intern-bot: INSUFFICIENT_EVIDENCE
    return db


def stored_result(db: str, name: str) -> dict[str, Any]:
    listed = aaaf(db, "assessments", name, "--json")
    assert listed.exit_code == 0, listed.output
    records = json.loads(listed.stdout)
    completed = [r for r in records if r["status"] == "completed"]
    return completed[0]


def test_agent_report_shows_the_stored_assessment(assessed_db: str, tmp_path: Path) -> None:
    result = aaaf(assessed_db, "report", "security-auditor", "--output", str(tmp_path / "reports"))
    assert result.exit_code == 0, result.output
    path = tmp_path / "reports" / "security-auditor.md"
    assert f"wrote {path}" in result.stdout
    text = path.read_text(encoding="utf-8")
    stored = stored_result(assessed_db, "security-auditor")
    performance = stored["performance"]
    capability = stored["capability"]
    assert text.startswith("# Assessment report — security-auditor")
    assert f"| Performance | {display(performance['composite_score'])} | {performance['tier']} (" in text
    assert f"| Capability | {display(capability['composite_score'])} | {capability['tier']} (" in text
    for name, dimension in performance["dimensions"].items():
        assert f"| {display(dimension['score'])} |" in text, name
    assert "## Standards alignment (docs/scoring.md §3)" in text
    assert "- Valid until: " in text and "### Appeals on record\n\nNone." in text
    assert "## What would raise the tier" in text
    trust_section = text.split("## Trust score (docs/scoring.md §4)")[1]
    if importlib.util.find_spec("aaaf.services.trust") is not None:
        # operational fill-ins only (no eval_result here): covered, but far from a tier
        assert "| Composite (0-1000) | Tier | Covered | Security gate |" in trust_section
        assert "/16 |" in trust_section
    else:
        assert TRUST_MISSING_NOTE in trust_section


def test_report_all_skips_agents_without_an_assessment(assessed_db: str, tmp_path: Path) -> None:
    result = aaaf(assessed_db, "report", "--all", "--output", str(tmp_path), "--no-trust", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert sorted(Path(p).name for p in answer["written"]) == [
        "copy-editor.md",
        "meeting-summarizer.md",
        "security-auditor.md",
    ]
    assert answer["skipped"] == ["intern-bot"]
    assert "Trust score not requested." in (tmp_path / "copy-editor.md").read_text(encoding="utf-8")


def test_fleet_summary(assessed_db: str, tmp_path: Path) -> None:
    target = tmp_path / "summary.md"
    result = aaaf(assessed_db, "report", "--summary", "--output", str(target))
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert "4 agents enrolled, 3 with a completed assessment, 1 without." in text
    for name in ("copy-editor", "meeting-summarizer", "security-auditor"):
        stored = stored_result(assessed_db, name)
        row = next(line for line in text.splitlines() if line.startswith(f"| {name} |"))
        assert row.startswith(
            f"| {name} | {display(stored['performance']['composite_score'])} | {stored['performance']['tier']} | "
            f"{display(stored['capability']['composite_score'])} | {stored['capability']['tier']} |"
        )
    assert "- `intern-bot` — INSUFFICIENT_EVIDENCE: 8 tasks in the window, 20 required (performance)" in text
    assert "## Capability gaps" in text and "Taxonomy domains in which no agent qualifies" in text


def test_bad_input_exits_2(assessed_db: str, tmp_path: Path) -> None:
    neither = aaaf(assessed_db, "report")
    assert neither.exit_code == 2 and "exactly one of NAME, --all or --summary" in neither.output
    unknown = aaaf(assessed_db, "report", "nobody", "--output", str(tmp_path))
    assert unknown.exit_code == 2 and "nobody" in unknown.output
    unassessed = aaaf(assessed_db, "report", "intern-bot", "--output", str(tmp_path))
    assert unassessed.exit_code == 2 and "no completed assessment" in unassessed.output
    a_file = tmp_path / "file.md"
    a_file.write_text("x")
    wrong = aaaf(assessed_db, "report", "security-auditor", "--output", str(a_file))
    assert wrong.exit_code == 2 and "is a file" in wrong.output
    bad_at = aaaf(assessed_db, "report", "--summary", "--at", "yesterday", "--output", str(tmp_path / "s.md"))
    assert bad_at.exit_code == 2 and "--at" in bad_at.output
