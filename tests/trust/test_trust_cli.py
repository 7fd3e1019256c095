"""`aaaf trust ...` end to end on a temporary SQLite file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from aaaf.cli.commands import trust as trust_cli
from aaaf.cli.context import database_url
from aaaf.scoring.trust import TRUST_DIMENSIONS, TRUST_WEIGHTS
from aaaf.store import open_store
from tests.trust.factories import add, eval_raw, every_dimension

runner = CliRunner()
# the CLI scores "now" when no --at is given: evidence is placed relative to the real clock
NOW = datetime.now(UTC)


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def root() -> None:
        """Test root."""

    trust_cli.register(app)
    return app


APP = _app()


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(APP, [*args, "--db", db])


@pytest.fixture()
def db(sqlite_at_head: Path) -> str:
    return str(sqlite_at_head)


@pytest.fixture()
def org(db: str) -> Iterator[Any]:
    store = open_store(database_url(db))
    try:
        yield store.scope(store.default_organization().id)
    finally:
        store.close()


def _seed(org: Any) -> None:
    strong = org.enroll_agent("strong")
    add(org, strong, every_dimension(95.0, at=NOW, prefix="s"), now=NOW)
    jury = [
        eval_raw("safety", score, at=NOW, days_ago=2, key=f"jury-{i}", eval_set="redteam", juror=f"j{i}")
        for i, score in enumerate([0, 94, 95, 96, 100])
    ]
    add(org, strong, jury, now=NOW)
    gated = org.enroll_agent("gated")
    add(org, gated, every_dimension(90.0, at=NOW, prefix="g"), now=NOW)
    add(org, gated, [eval_raw("security", 0.0, at=NOW, key="g-sec2")], now=NOW)
    org.enroll_agent("newcomer")


def test_show_json_has_the_contract_fields(db: str, org: Any) -> None:
    _seed(org)
    result = aaaf(db, "trust", "strong", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    for key in (
        "agent",
        "at",
        "composite",
        "tier",
        "tier_reason",
        "covered",
        "total",
        "weights_in_force",
        "gated",
    ):
        assert key in body
    assert body["agent"] == "strong" and body["tier"] == "platinum"
    assert body["covered"] == 16 and body["total"] == 16
    assert body["weights_in_force"] == dict(TRUST_WEIGHTS)
    assert set(body["dimensions"]) == set(TRUST_DIMENSIONS)
    safety = body["dimensions"]["safety"]
    # a single 95 plus a jury 0 94 95 96 100 → trimmed to 94 95 96 → 95; mean (95 + 95) / 2 = 95
    assert safety["score"] == pytest.approx(95.0) and safety["observations"] == 2
    assert safety["jury"]["dropped_jurors"] == ["j0", "j4"]
    assert body["history"]["recorded"] is True


def test_show_human_output_is_truncated_and_explains_the_gate(db: str, org: Any) -> None:
    _seed(org)
    result = aaaf(db, "trust", "gated")
    assert result.exit_code == 0, result.output
    out = result.stdout
    # security (90 + 0) / 2 = 45 < 50; uncapped 10 · (0.93·90 + 0.07·45) = 10 · 86.85 = 868.5 → shown 868
    assert "composite 599 / 1000 (security gate: uncapped 868)" in out
    assert "security 45.00 < 50, composite 868 capped at 599" in out
    assert "tier bronze" in out
    for name in TRUST_DIMENSIONS:
        assert name in out


def test_gate_json_is_unrounded(db: str, org: Any) -> None:
    _seed(org)
    body = json.loads(aaaf(db, "trust", "gated", "--json").stdout)
    assert body["dimensions"]["security"]["score"] == pytest.approx(45.0)
    assert body["gated"] is True and body["composite"] == 599.0
    assert body["uncapped_composite"] == pytest.approx(868.5)


def test_all_and_history_and_at(db: str, org: Any) -> None:
    _seed(org)
    fleet = aaaf(db, "trust", "--all", "--json")
    assert fleet.exit_code == 0, fleet.output
    rows = {row["agent"]: row for row in json.loads(fleet.stdout)}
    assert set(rows) == {"strong", "gated", "newcomer"}
    assert rows["newcomer"]["composite"] is None and rows["newcomer"]["tier"] == "uncertified"
    table = aaaf(db, "trust", "--all")
    assert table.exit_code == 0 and "strong" in table.stdout and "platinum" in table.stdout

    # a past --at is not recorded
    before = len(json.loads(aaaf(db, "trust", "history", "strong", "--json").stdout))
    past = (NOW - timedelta(hours=1)).isoformat()
    asked = aaaf(db, "trust", "strong", "--at", past, "--json")
    assert asked.exit_code == 0, asked.output
    assert json.loads(asked.stdout)["history"]["recorded"] is False
    history = json.loads(aaaf(db, "trust", "history", "strong", "--json").stdout)
    # the first present-time --all run is recorded; the second found nothing changed (issue 21),
    # and the --at one is in the past
    assert len(history) == before == 1
    human = aaaf(db, "trust", "history", "strong")
    assert human.exit_code == 0 and str(history[0]["id"]) in human.stdout


def test_asking_twice_records_once(db: str, org: Any) -> None:
    agent = org.enroll_agent("same")
    add(org, agent, every_dimension(70.0, at=NOW, prefix="q"), now=NOW)
    first = aaaf(db, "trust", "same")
    assert first.exit_code == 0 and "history: recorded and committed" in first.stdout
    second = aaaf(db, "trust", "same")
    assert second.exit_code == 0, second.output
    assert "history: not recorded (unchanged since history entry" in second.stdout
    assert len(json.loads(aaaf(db, "trust", "history", "same", "--json").stdout)) == 1


def test_anomaly_review_through_the_cli(db: str, org: Any) -> None:
    agent = org.enroll_agent("swing")
    add(org, agent, every_dimension(90.0, at=NOW, prefix="a"), now=NOW)
    assert aaaf(db, "trust", "swing").exit_code == 0  # 900 committed
    # security 0 → (90 + 0) / 2 = 45: gated at 599, a 301-point swing
    add(org, agent, [eval_raw("security", 0.0, at=NOW, key="zero")], now=NOW)
    held = aaaf(db, "trust", "swing")
    assert held.exit_code == 0
    assert "held for review" in held.stdout and "Canonical score stays 900" in held.stdout
    pending = json.loads(aaaf(db, "trust", "review", "--json").stdout)
    assert len(pending) == 1 and pending[0]["agent"] == "swing"
    history_id = pending[0]["id"]
    missing = aaaf(db, "trust", "review", history_id)
    assert missing.exit_code == 2
    approved = aaaf(db, "trust", "review", history_id, "approve", "--reviewer", "rita", "--json")
    assert approved.exit_code == 0, approved.output
    entry = json.loads(approved.stdout)
    assert entry["committed"] is True and entry["review_decision"] == "approved"
    again = aaaf(db, "trust", "review", history_id, "reject")
    assert again.exit_code == 2 and "CONFLICT" in again.output
    bad = aaaf(db, "trust", "review", "nope", "approve")
    assert bad.exit_code == 2


def test_weights_override_set_show_and_clear(db: str, org: Any, tmp_path: Path) -> None:
    _seed(org)
    shown = json.loads(aaaf(db, "trust", "weights", "--json").stdout)
    assert shown["override"] is None and shown["weights_in_force"] == dict(TRUST_WEIGHTS)

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"accuracy": 0.112}))
    result = aaaf(db, "trust", "weights", "--override", str(bad), "--set-by", "ops")
    assert result.exit_code == 0, result.output
    assert "will be rejected" in result.output and "1.002" in result.output
    body = json.loads(aaaf(db, "trust", "strong", "--json").stdout)
    assert body["override"]["rejected_reason"] is not None
    assert body["weights_in_force"] == dict(TRUST_WEIGHTS)

    good = tmp_path / "good.json"
    good.write_text(json.dumps({"accuracy": 0.1105}))
    assert aaaf(db, "trust", "weights", "--override", str(good), "--set-by", "ops").exit_code == 0
    status = json.loads(aaaf(db, "trust", "weights", "--json").stdout)
    assert status["applied"] is True and status["override"]["set_by"] == "ops"
    assert status["weights_in_force"]["accuracy"] == 0.1105
    body = json.loads(aaaf(db, "trust", "strong", "--json", "--at", NOW.isoformat()).stdout)
    assert body["weights_in_force"]["accuracy"] == 0.1105 and body["override"]["applied"] is True
    human = aaaf(db, "trust", "weights")
    assert human.exit_code == 0 and "set by ops" in human.stdout and "applied" in human.stdout

    assert aaaf(db, "trust", "weights", "--clear").exit_code == 0
    assert json.loads(aaaf(db, "trust", "weights", "--json").stdout)["override"] is None


@pytest.mark.parametrize(
    ("content", "fragment"),
    [("{not json", "not JSON"), ("[1, 2]", "JSON object")],
)
def test_weights_override_file_must_be_a_json_object(
    db: str, tmp_path: Path, content: str, fragment: str
) -> None:
    path = tmp_path / "w.json"
    path.write_text(content)
    result = aaaf(db, "trust", "weights", "--override", str(path))
    assert result.exit_code == 2 and fragment in result.output


def test_bad_input_exits_2(db: str, org: Any) -> None:
    _seed(org)
    assert aaaf(db, "trust", "nobody").exit_code == 2  # NOT_FOUND
    assert aaaf(db, "trust", "strong", "--at", "yesterday").exit_code == 2
    assert aaaf(db, "trust", "strong", "--all").exit_code == 2
    assert aaaf(db, "trust", "history", "nobody").exit_code == 2
