"""`aaaf config` (issue 21, scope 7): show, set, weights, taxonomy; every change recorded with
its time; assessments keep the configuration in force when they ran — on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.scoring.defaults import CAPABILITY_WEIGHTS, PERFORMANCE_WEIGHTS, AAAFConfig
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log, write_jsonl

runner = CliRunner()


def aaaf(db: str, *args: str) -> Any:
    return runner.invoke(app, [*args, "--db", db])


def shown(db: str) -> dict[str, Any]:
    result = aaaf(db, "config", "show", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_show_starts_at_the_defaults(store_url: str) -> None:
    body = shown(store_url)
    config = body["config"]
    assert config["assessment_window_days"] == 30
    assert config["validity_period_days"] == 90
    assert config["minimum_tasks_performance"] == 20
    assert config["minimum_tasks_capability"] == 30
    assert config["reassessment_task_threshold"] == 50
    assert config["recency_weights"] == {"0_7_days": 1.0, "8_14_days": 0.8, "15_30_days": 0.6}
    assert config["performance_weights"] == dict(PERFORMANCE_WEIGHTS)
    assert config["capability_weights"] == dict(CAPABILITY_WEIGHTS)
    assert config["domain_taxonomy"] == list(AAAFConfig().taxonomy)
    assert body["history"] == []
    human = aaaf(store_url, "config", "show")
    assert human.exit_code == 0 and "no change recorded" in human.stdout


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("assessment_window_days", "45", 45),
        ("validity_period_days", "60", 60),
        ("minimum_tasks_performance", "10", 10),
        ("minimum_tasks_capability", "0", 0),
        ("reassessment_task_threshold", "25", 25),
        (
            "recency_weights",
            '{"0_7_days": 1.0, "8_14_days": 0.5, "15_45_days": 0.25}',
            {"0_7_days": 1.0, "8_14_days": 0.5, "15_45_days": 0.25},
        ),
        (
            "recency_weights",
            "0_10_days=1,11_30_days=0.7",
            {"0_10_days": 1.0, "11_30_days": 0.7},
        ),
    ],
)
def test_set_each_key_is_recorded_with_its_time(store_url: str, key: str, text: str, value: Any) -> None:
    before = shown(store_url)["config"][key]
    result = aaaf(store_url, "config", "set", key, text, "--json")
    assert result.exit_code == 0, result.output
    change = json.loads(result.stdout)
    assert change["changed"] is True
    assert change["change"]["changes"] == {key: {"before": before, "after": value}}
    body = shown(store_url)
    assert body["config"][key] == value
    assert [entry["changes"] for entry in body["history"]] == [{key: {"before": before, "after": value}}]
    assert body["history"][0]["changed_at"].endswith("Z")
    human = aaaf(store_url, "config", "show")
    row = next(line for line in human.stdout.splitlines() if line.startswith(f"│ {key} "))
    assert body["history"][0]["changed_at"] in row  # the "changed at" column
    # the same value again changes nothing and records nothing
    again = aaaf(store_url, "config", "set", key, text, "--json")
    assert again.exit_code == 0 and json.loads(again.stdout) == {"changed": False, "change": None}
    assert len(shown(store_url)["history"]) == 1


@pytest.mark.parametrize(
    ("key", "text", "needle"),
    [
        ("assessment_window_days", "0", "must be at least 1"),
        ("validity_period_days", "-5", "must be at least 1"),
        ("minimum_tasks_performance", "2.5", "expected a whole number"),
        ("minimum_tasks_capability", "many", "expected a whole number"),
        ("reassessment_task_threshold", "true", "expected a whole number"),
        ("recency_weights", "0_7_days=1,20_30_days=0.5", "without gap"),
        ("recency_weights", '{"0_7_days": 1.5}', "[0, 1]"),
        ("recency_weights", '{"0_7_days": 0, "8_30_days": 0}', "above 0"),
        ("recency_weights", '{"week": 1}', "<from>_<to>_days"),
        ("window_days", "30", "unknown configuration key 'window_days'"),
        ("performance_weights", "{}", "aaaf config weights"),
    ],
)
def test_set_refuses_bad_values_naming_the_problem(store_url: str, key: str, text: str, needle: str) -> None:
    result = aaaf(store_url, "config", "set", key, text)
    assert result.exit_code == 2
    assert needle in result.output
    assert "INVALID_REQUEST" in result.output
    assert shown(store_url)["history"] == []


def test_weights_pairs_file_sum_and_unknown_names(store_url: str, tmp_path: Path) -> None:
    bad_sum = aaaf(store_url, "config", "weights", "--axis", "performance", "accuracy=0.5", "--json")
    assert bad_sum.exit_code == 2
    error = json.loads(bad_sum.stderr)["error"]
    # 0.25 + 0.5 + 0.15 + 0.20 + 0.15 = 1.25
    assert error["code"] == "WEIGHT_SUM_INVALID"
    assert "weights sum to 1.250000" in error["message"]
    assert math.isclose(error["details"]["sum"], 1.25)
    unknown = aaaf(store_url, "config", "weights", "--axis", "performance", "charisma=0.1")
    assert unknown.exit_code == 2 and "charisma" in unknown.output
    wrong_axis = aaaf(store_url, "config", "weights", "--axis", "capability", "accuracy=0.1")
    assert wrong_axis.exit_code == 2 and "unknown capability dimension(s): accuracy" in wrong_axis.output
    not_a_number = aaaf(store_url, "config", "weights", "--axis", "performance", "accuracy=lots")
    assert not_a_number.exit_code == 2 and "finite number" in not_a_number.output
    assert aaaf(store_url, "config", "weights", "--axis", "sideways", "accuracy=0.1").exit_code == 2
    assert shown(store_url)["history"] == []

    # a balanced change: +0.05 accuracy, −0.05 speed
    ok = aaaf(store_url, "config", "weights", "--axis", "performance", "accuracy=0.30,speed=0.10")
    assert ok.exit_code == 0, ok.output
    assert shown(store_url)["config"]["performance_weights"] == {
        "task_completion_rate": 0.25,
        "accuracy": 0.30,
        "speed": 0.10,
        "consistency": 0.20,
        "review_compliance": 0.15,
    }
    table = {
        "domain_breadth": 0.10,
        "complexity_ceiling": 0.20,
        "tool_proficiency": 0.20,
        "autonomy_level": 0.10,
        "learning_rate": 0.10,
        "delegation_capability": 0.15,
        "orchestration_skills": 0.15,
    }
    path = tmp_path / "capability.json"
    path.write_text(json.dumps(table))
    from_file = aaaf(store_url, "config", "weights", "--axis", "capability", str(path))
    assert from_file.exit_code == 0, from_file.output
    body = shown(store_url)
    assert body["config"]["capability_weights"] == table
    assert [list(entry["changes"]) for entry in body["history"]] == [
        ["performance_weights"],
        ["capability_weights"],
    ]
    not_json = tmp_path / "bad.json"
    not_json.write_text("accuracy: 0.3")
    assert aaaf(store_url, "config", "weights", "--axis", "capability", str(not_json)).exit_code == 2
    missing = aaaf(store_url, "config", "weights", "--axis", "capability", str(tmp_path / "none.json"))
    assert missing.exit_code == 2 and "neither a JSON file nor NAME=VALUE pairs" in missing.output


def test_taxonomy(store_url: str) -> None:
    ok = aaaf(store_url, "config", "taxonomy", "code, security,testing")
    assert ok.exit_code == 0, ok.output
    assert shown(store_url)["config"]["domain_taxonomy"] == ["code", "security", "testing"]
    assert aaaf(store_url, "config", "taxonomy", "code,code").exit_code == 2
    assert aaaf(store_url, "config", "taxonomy", " , ").exit_code == 2
    assert len(shown(store_url)["history"]) == 1


def _composite(weights: Mapping[str, float], dimensions: Mapping[str, Any]) -> float:
    """SCORING.md §0: weighted mean over covered dimensions, weights renormalised over them."""
    covered = {name: dim["score"] for name, dim in dimensions.items() if dim["score"] is not None}
    total = math.fsum(weights[name] for name in covered)
    return math.fsum(weights[name] * score for name, score in covered.items()) / total


NEW_PERFORMANCE = {
    "task_completion_rate": 0.10,
    "accuracy": 0.50,
    "speed": 0.10,
    "consistency": 0.20,
    "review_compliance": 0.10,
}


def test_assessments_use_the_config_in_force_when_they_ran(store_url: str, tmp_path: Path) -> None:
    log = write_jsonl(tmp_path / "log.jsonl", agent_log("coder", 36))
    assert aaaf(store_url, "collect", "--source", "task_logs", str(log), "--enroll").exit_code == 0
    first = aaaf(store_url, "assess", "coder", "--json", "--window-end", NOW.isoformat())
    assert first.exit_code == 0, first.output
    old = json.loads(first.stdout)
    old_dims = old["performance"]["dimensions"]
    assert old["performance"]["composite_score"] == pytest.approx(_composite(PERFORMANCE_WEIGHTS, old_dims))

    pairs = ",".join(f"{name}={weight}" for name, weight in NEW_PERFORMANCE.items())
    changed = aaaf(store_url, "config", "weights", "--axis", "performance", pairs)
    assert changed.exit_code == 0, changed.output

    # the old assessment's stored scores are untouched, to the bit
    listed = json.loads(aaaf(store_url, "assessments", "coder", "--json").stdout)
    again = next(row for row in listed if row["id"] == old["id"])
    assert again["performance"] == old["performance"] and again["capability"] == old["capability"]

    # a new assessment of the same evidence uses the new weights
    second = aaaf(store_url, "assess", "coder", "--json", "--window-end", NOW.isoformat())
    assert second.exit_code == 0, second.output
    new = json.loads(second.stdout)
    assert new["performance"]["dimensions"] == old_dims  # same evidence, same dimension scores
    expected = _composite(NEW_PERFORMANCE, old_dims)
    assert new["performance"]["composite_score"] == pytest.approx(expected)
    assert new["performance"]["composite_score"] != pytest.approx(old["performance"]["composite_score"])
    store = open_store(store_url)
    try:
        org = store.scope(store.default_organization().id)
        stored_old = org.get_assessment(old["id"]).result["performance"]["weights_used"]
        stored_new = org.get_assessment(new["id"]).result["performance"]["weights_used"]
        recorded_old = org.get_assessment(old["id"]).result["config"]
        recorded_new = org.get_assessment(new["id"]).result["config"]
    finally:
        store.close()
    assert stored_old == pytest.approx(dict(PERFORMANCE_WEIGHTS))
    assert stored_new == pytest.approx(NEW_PERFORMANCE)
    # each result records the whole configuration it ran with
    assert recorded_old["performance_weights"] == dict(PERFORMANCE_WEIGHTS)
    assert recorded_new["performance_weights"] == NEW_PERFORMANCE
    assert recorded_new["assessment_window_days"] == 30

    # an appeal against the old assessment re-scores it with the configuration it ran with
    filed = aaaf(
        store_url,
        "appeal",
        "file",
        old["id"],
        "--dimensions",
        "accuracy",
        "--justification",
        "the revision was a scope change",
        "--task",
        "coder-000",
        "--json",
    )
    assert filed.exit_code == 0, filed.output
    resolved = aaaf(store_url, "appeal", "resolve", json.loads(filed.stdout)["id"], "accepted")
    assert resolved.exit_code == 0, resolved.output
    listed = json.loads(aaaf(store_url, "assessments", "coder", "--json").stdout)
    appealed = next(row for row in listed if row["id"] == old["id"])["performance"]
    assert appealed["dimensions"]["accuracy"]["score"] > old_dims["accuracy"]["score"]
    assert appealed["composite_score"] == pytest.approx(
        _composite(PERFORMANCE_WEIGHTS, appealed["dimensions"])
    )
    assert appealed["composite_score"] != pytest.approx(_composite(NEW_PERFORMANCE, appealed["dimensions"]))
