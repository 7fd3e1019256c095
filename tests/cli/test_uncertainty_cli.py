"""Issue 12 end to end: every assessment and trust score carries its SCORING.md §2.5
uncertainty in ``--json``, the report, ``explain``, the badge JSON (signed, and still
verifying), and the API's assessment object; ``--no-uncertainty`` leaves it out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.scoring import aaaf as engine
from aaaf.scoring.uncertainty import CAPABILITY_INTERVAL_NOTE
from aaaf.settings import get_settings
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log, write_jsonl

runner = CliRunner()


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(app, [*args, "--db", db])


@pytest.fixture()
def fleet(tmp_path: Path, sqlite_at_head: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("AAAF_ISSUER_KEY_PATH", raising=False)
    monkeypatch.delenv("AAAF_DATABASE_URL", raising=False)
    monkeypatch.setenv("AAAF_PUBLIC_BASE_URL", "https://assess.example.com")
    get_settings.cache_clear()
    db = str(sqlite_at_head)
    log = write_jsonl(tmp_path / "fleet.jsonl", agent_log("coder", 36) + agent_log("tester", 32))
    assert aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll").exit_code == 0
    return db


def _engine_uncertainty(db: str, agent: str) -> dict[str, Any]:
    with open_store("sqlite:///" + db) as store:
        org = store.scope(store.default_organization().id)
        events = org.events(org.get_agent(agent).id)
        config = org.config()
    result = engine.assess(events, config, NOW, assessment_type="passive_only")
    return {axis: result.axis(axis).uncertainty for axis in ("performance", "capability")}  # type: ignore[union-attr]


def test_assess_json_carries_both_axes_uncertainty_as_the_engine_gives_it(fleet: str) -> None:
    result = aaaf(fleet, "assess", "coder", "--window-end", NOW.isoformat(), "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    expected = _engine_uncertainty(fleet, "coder")
    for axis in ("performance", "capability"):
        found = body[axis]["uncertainty"]
        assert found == json.loads(json.dumps(expected[axis]))  # same seed, same figures
        assert found["resamples"] == 1000
        assert list(found["tier_probabilities"])[:5] == [t.name for t in engine.TIERS[axis]]
        assert body[axis]["tier"] in found["tier_probabilities"]
        if found["ci"] is not None:
            assert found["ci"][0] <= found["ci"][1]


def test_no_uncertainty_leaves_it_out_for_bulk_rescoring(fleet: str) -> None:
    result = aaaf(fleet, "assess", "--all", "--no-uncertainty", "--window-end", NOW.isoformat(), "--json")
    assert result.exit_code == 0, result.output
    for outcome in json.loads(result.stdout):
        assessment = outcome["assessment"]
        assert assessment["performance"]["uncertainty"] is None
        assert assessment["capability"]["uncertainty"] is None
        assert assessment["performance"]["composite_score"] is not None
    # the default (with) gives it to every agent of --all too
    result = aaaf(fleet, "assess", "--all", "--window-end", NOW.isoformat(), "--json")
    for outcome in json.loads(result.stdout):
        assert outcome["assessment"]["performance"]["uncertainty"]["resamples"] == 1000


def test_report_explain_and_badge_show_it(fleet: str, tmp_path: Path) -> None:
    result = aaaf(fleet, "assess", "coder", "--window-end", NOW.isoformat(), "--json")
    body = json.loads(result.stdout)
    assessment_id = body["id"]
    perf = body["performance"]

    report = aaaf(fleet, "report", "coder", "--output", str(tmp_path / "reports"), "--no-trust")
    assert report.exit_code == 0, report.output
    text = next((tmp_path / "reports").glob("*.md")).read_text()
    assert "## How sure are these scores (docs/uncertainty.md)" in text
    assert CAPABILITY_INTERVAL_NOTE in text
    probability = perf["uncertainty"]["tier_probabilities"][perf["tier"]]
    assert ("borderline" in text) == any(
        body[axis]["uncertainty"]["tier_probabilities"].get(body[axis]["tier"], 1.0) < 0.8
        for axis in ("performance", "capability")
    )
    assert f"{perf['tier']}: {int(probability * 100) / 100:.2f}" in text

    explained = aaaf(fleet, "explain", assessment_id, "--json")
    assert explained.exit_code == 0, explained.output
    assert json.loads(explained.stdout)["uncertainty"]["performance"] == perf["uncertainty"]
    shown = aaaf(fleet, "explain", assessment_id)
    assert "How sure are these scores" in shown.stdout

    out = tmp_path / "badge"
    badge = aaaf(fleet, "badge", assessment_id, "--format", "json", "--output", str(out))
    assert badge.exit_code == 0, badge.output
    credential = json.loads((out / "coder.json").read_text())
    subject = credential["credentialSubject"]
    assert subject["performance"]["uncertainty"] == perf["uncertainty"]
    assert subject["performance"]["tier_probability"] == probability
    verified = aaaf(fleet, "verify", str(out / "coder.json"))
    assert verified.exit_code == 0 and "VALID" in verified.output
    assert f"(P = {int(probability * 100) / 100:.2f}" in verified.output  # the verification says it
    as_json = json.loads(aaaf(fleet, "verify", str(out / "coder.json"), "--json").stdout)
    said = as_json["subject"]["performance"]
    assert said["tier_probability"] == probability and said["borderline"] == (probability < 0.8)
    assert said["interval"] == perf["uncertainty"]["ci"]
    # the interval is signed: changing it breaks the credential
    subject["performance"]["uncertainty"]["ci"] = [0.0, 1.0]
    (out / "edited.json").write_text(json.dumps(credential))
    assert aaaf(fleet, "verify", str(out / "edited.json")).exit_code != 0


def test_trust_json_and_text_show_it(fleet: str) -> None:
    result = aaaf(fleet, "trust", "show", "coder", "--at", NOW.isoformat(), "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)["uncertainty"]
    assert found["resamples"] == 1000
    assert list(found["tier_probabilities"])[:5] == ["uncertified", "bronze", "silver", "gold", "platinum"]
    text = aaaf(fleet, "trust", "show", "coder", "--at", NOW.isoformat())
    assert "how sure (docs/uncertainty.md)" in text.stdout
