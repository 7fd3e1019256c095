"""`aaaf explain` end to end on a small fleet (issue 10 §5): the tasks that lowered each
dimension most, each task's change equal to the engine's own leave-one-task-out, what would
raise the tier, --dimension, bad input (exit 2) and pruned evidence."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.scoring import aaaf as engine
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log, write_jsonl

runner = CliRunner()


def aaaf(db: str, *args: str):
    return runner.invoke(app, [*args, "--db", db])


@pytest.fixture()
def fleet(tmp_path: Path, sqlite_at_head: Path) -> tuple[str, dict[str, str]]:
    """Two agents of 36 tasks (every fourth revised once), assessed with assess --all."""
    db = str(sqlite_at_head)
    log = write_jsonl(tmp_path / "fleet.jsonl", agent_log("coder", 36) + agent_log("tester", 30))
    assert aaaf(db, "collect", "--source", "task_logs", str(log), "--enroll").exit_code == 0
    result = aaaf(db, "assess", "--all", "--window-end", NOW.isoformat(), "--json")
    assert result.exit_code == 0, result.output
    ids = {o["agent"]: o["assessment"]["id"] for o in json.loads(result.stdout)}
    return db, ids


def _engine_changes(db: str, agent: str, dimension: str, tasks: list[str]) -> dict[str, float]:
    """score − score without the task, straight from the pure engine."""
    store = open_store("sqlite:///" + db)
    try:
        org = store.scope(store.default_organization().id)
        events = org.events(org.get_agent(agent).id)
        config = org.config()
    finally:
        store.close()

    def score(excluded: frozenset[str]) -> float:
        result = engine.assess(events, config, NOW, excluded_tasks=excluded, enforce_minimums=False)
        axis = result.axis(engine.AXIS_OF[dimension])
        assert axis is not None
        value = axis.dimensions[dimension].score
        assert value is not None
        return value

    base = score(frozenset())
    return {task: base - score(frozenset({task})) for task in tasks}


def test_explain_json_names_the_tasks_that_lowered_accuracy(fleet) -> None:
    db, ids = fleet
    result = aaaf(db, "explain", ids["coder"], "--json", "--top", "3")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["status"] == "explained" and body["agent"] == "coder"
    assert body["spec"]["name"] == "aaaf" and body["spec"]["config"]["window_days"] == 30
    accuracy = body["dimensions"]["accuracy"]
    assert accuracy["recomputed_matches"] is True
    # the revised tasks (every fourth: 9 of 36) are exactly the ones that lowered accuracy
    revised = [f"coder-{i:03d}" for i in range(0, 36, 4)]
    assert accuracy["tasks_lowering"] == 9
    expected = _engine_changes(db, "coder", "accuracy", revised)
    ranked = sorted(expected, key=lambda task: (expected[task], task))[:3]
    assert [t["task_id"] for t in accuracy["lowered_by"]] == ranked
    for task in accuracy["lowered_by"]:
        assert task["change"] == pytest.approx(expected[task["task_id"]], abs=1e-12)
        assert task["change"] < 0
    # every dimension is explained; the uncovered ones have nothing lowering them
    assert set(body["dimensions"]) == set(engine.DIMENSIONS)
    assert body["dimensions"]["tool_proficiency"]["score"] is None
    assert body["dimensions"]["tool_proficiency"]["lowered_by"] == []
    raise_ = body["what_would_raise_the_tier"]["performance"]
    assert raise_["tier"] and {n["dimension"] for n in raise_["needs"]} >= {"accuracy"}


def test_explain_text_and_one_dimension(fleet) -> None:
    db, ids = fleet
    text = aaaf(db, "explain", ids["coder"], "--dimension", "accuracy")
    assert text.exit_code == 0, text.output
    assert "## Accuracy" in text.stdout and "coder-" in text.stdout
    assert "## What would raise the tier" in text.stdout
    assert "## Speed" not in text.stdout
    one = json.loads(aaaf(db, "explain", ids["coder"], "-d", "accuracy", "--json").stdout)
    assert list(one["dimensions"]) == ["accuracy"]
    assert list(one["what_would_raise_the_tier"]) == ["performance"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--dimension", "charisma"], "charisma"),
        (["--top", "0"], "--top"),
    ],
)
def test_bad_input_exits_2(fleet, args, needle) -> None:
    db, ids = fleet
    result = aaaf(db, "explain", ids["coder"], *args)
    assert result.exit_code == 2
    assert needle in result.output


def test_unknown_assessment_is_not_found(fleet) -> None:
    db, _ = fleet
    result = aaaf(db, "explain", "00000000-0000-0000-0000-000000000000", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stderr)["error"]["code"] == "NOT_FOUND"


def test_pruned_evidence_is_said_not_failed(fleet) -> None:
    db, ids = fleet
    store = open_store("sqlite:///" + db)
    try:
        org = store.scope(store.default_organization().id)
        removed = org.delete_events_before(NOW - timedelta(days=10))
    finally:
        store.close()
    assert removed > 0
    result = aaaf(db, "explain", ids["coder"], "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["status"] == "evidence_pruned"
    assert body["missing_events"] > 0 and "no longer available" in body["message"]
    # the stored scores and the recorded spec are still there
    assert body["dimensions"]["accuracy"]["score"] is not None
    assert body["spec"]["name"] == "aaaf"
    text = aaaf(db, "explain", ids["coder"])
    assert text.exit_code == 0 and "no longer available" in text.stdout


def test_the_report_says_what_moved_the_score(fleet, tmp_path: Path) -> None:
    db, _ = fleet
    result = aaaf(db, "report", "coder", "--no-trust", "--output", str(tmp_path / "reports"))
    assert result.exit_code == 0, result.output
    markdown = (tmp_path / "reports" / "coder.md").read_text(encoding="utf-8")
    section = markdown.split("## What moved this score", 1)[1].split("## What would raise the tier", 1)[0]
    assert "| Accuracy |" in section and "`coder-" in section and "−0." in section
