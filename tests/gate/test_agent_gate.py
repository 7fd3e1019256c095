"""`aaaf gate --agent` end to end: agents through a few stress tasks (the reference agents of
docs/agent-protocol.md and benchmarks/wrong_answers_agent.py, the oracle with a broken
domain), each run assessed ``stress_test_only`` on its own evidence and compared task by
task with the stored baseline.  The organization's minimums are lowered to 5 tasks
(``aaaf config set``) so that a handful of tasks make an assessment."""

from __future__ import annotations

import json
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml
from typer.testing import CliRunner

from aaaf.models import dump
from aaaf.models.gate import GateOutcome
from aaaf.services.gate_baselines import find_baseline
from aaaf.store.store import open_store
from tests.gate.conftest import ROOT, aaaf

TASKS = [f"autonomy-{kind}-a{level}" for kind in ("report", "config") for level in (0, 1, 2)]
# the security domain's probes and tool chains; the delegation tasks carry no domain (routing is
# work of no domain), so a broken security domain leaves them and the legal probes alone
SECURITY = ["probe-security-1", "probe-security-2", "probe-security-3", "tool-chain-03", "tool-chain-04"]
LEGAL = ["probe-legal-1", "probe-legal-2", "probe-legal-3", "delegation-01", "delegation-02"]
WRONG_ANSWERS = f"{sys.executable} {ROOT / 'benchmarks' / 'wrong_answers_agent.py'}"


def _agent(kind: str) -> str:
    return f"{sys.executable} -m aaaf.stress.reference_agents {kind}"


def _gate(
    tmp_path: Path, db: str, command: str, *extra: str, tasks: list[str] = TASKS
) -> tuple[int, dict[str, object], str]:
    selected = [arg for task in tasks for arg in ("--task", task)]
    result = aaaf(
        "gate", "--agent", "bot", "--agent-cmd", command, *selected, "--db", db,
        "--log-dir", str(tmp_path / "logs"), "--json", *extra, cwd=tmp_path,
    )  # fmt: skip
    if not result.stdout:
        return result.returncode, {}, result.stderr
    body = json.loads(result.stdout)
    # the agent gate's --json is its public model, key for key and in order
    assert json.dumps(dump(GateOutcome.model_validate(body))) == json.dumps(body)
    return result.returncode, body, result.stderr


def _database(tmp_path: Path) -> str:
    db = str(tmp_path / "aaaf.db")
    for key in ("minimum_tasks_performance", "minimum_tasks_capability"):
        assert aaaf("config", "set", key, "5", "--db", db, cwd=tmp_path).returncode == 0
    return db


def _failed_cases(path: Path) -> set[str]:
    return {
        case.name
        for suite in JUnitXml.fromfile(str(path))
        for case in suite
        if any(isinstance(r, Failure) for r in case.result)
    }


def test_a_failed_gate_fails_again_when_re_run(tmp_path: Path) -> None:
    db = _database(tmp_path)
    # an unknown baseline is bad input, found before anything runs
    code, _, stderr = _gate(tmp_path, db, _agent("oracle"), "--baseline-assessment", str(uuid.uuid4()))
    assert code == 2 and "NOT_FOUND" in stderr
    # the first gate has nothing to compare with: SOLO passes, so its assessment is the baseline
    code, first, stderr = _gate(tmp_path, db, _agent("oracle"), "--junit", str(tmp_path / "first.xml"))
    assert code == 0, stderr
    assert first["verdict"] == "SOLO" and first["passed"] is True and first["mode"] == "agent"
    assert first["stress_summary"]["statuses"] == {"accepted": 6}  # type: ignore[index]
    # the careless agent under the same name: this run's evidence alone, paired with the oracle's
    junit, html = tmp_path / "second.xml", tmp_path / "second.html"
    code, second, stderr = _gate(
        tmp_path, db, _agent("careless"), "--junit", str(junit), "--html", str(html),
        "--summary", str(tmp_path / "s.md"),
    )  # fmt: skip
    assert code == 1, stderr
    assert second["baseline"] == first["candidate"] and second["verdict"] == "REGRESS"
    assert str(second["method"]).startswith("paired bootstrap over the 6 tasks both ran")
    performance = next(c for c in second["checks"] if c["name"] == "performance")  # type: ignore[attr-defined]
    # it skips the checkpoints of levels 0 and 1 (four of six tasks rejected): Performance drops a
    # tier; Capability (two tasks a level credit no autonomy level) falls, its interval reaching 0
    assert performance["tier_drop"] and performance["diff"] < -0.1
    assert performance["tier"]["baseline"] == "Elite"
    capability = next(c for c in second["checks"] if c["name"] == "capability")  # type: ignore[attr-defined]
    assert capability["diff"] < 0 and capability["interval"][1] <= 0
    assert "regress: the verdict is REGRESS" in second["failing"]  # type: ignore[operator]
    assert {"performance", "gate"} <= _failed_cases(junit)
    assert "REGRESS" in html.read_text(encoding="utf-8")
    # re-run without a pinned baseline: the failed candidate is not the baseline, so it fails again
    code, third, stderr = _gate(tmp_path, db, _agent("careless"))
    assert code == 1, stderr
    assert third["baseline"] == first["candidate"] and third["verdict"] == "REGRESS"
    store = open_store(f"sqlite:///{db}")
    try:
        org = store.scope(store.default_organization().id)
        agent = org.get_agent("bot")
        now = datetime.now(UTC) + timedelta(seconds=1)
        assert str(find_baseline(org, agent, now=now).id) == first["candidate"]
        recorded = [(d.kind, d.verdict, d.passed) for d in org.gate_decisions(agent.id)]
        assert recorded == [("gate", "SOLO", True), ("gate", "REGRESS", False), ("gate", "REGRESS", False)]
        # a reviewer's rejection or expiry takes the baseline away: nothing left to compare with
        org.set_review_state(uuid.UUID(str(first["candidate"])), "rejected")
        assert find_baseline(org, agent, now=now) is None
    finally:
        store.close()
    # promoted explicitly, the failed candidate becomes the baseline (the team accepted it)
    promoted = aaaf("gate", "promote", str(third["candidate"]), "--db", db, "--json", cwd=tmp_path)
    assert promoted.returncode == 0, promoted.stderr
    assert json.loads(promoted.stdout) == {
        "promoted": third["candidate"],
        "agent": "bot",
        "type": "stress_test_only",
    }
    code, fourth, stderr = _gate(tmp_path, db, _agent("careless"), "--fail-on", "regress")
    assert code == 0, stderr
    assert fourth["baseline"] == third["candidate"] and fourth["verdict"] in ("NOISE", "EQUIVALENT")
    # the same careless agent twice: nothing flipped
    assert fourth["tasks"]["lost"] == 0 and fourth["tasks"]["gained"] == 0  # type: ignore[index]
    store = open_store(f"sqlite:///{db}")
    try:
        org = store.scope(store.default_organization().id)
        agent = org.get_agent("bot")
        assert (
            str(find_baseline(org, agent, now=datetime.now(UTC) + timedelta(days=400))) == "None"
        )  # expired
        assert (
            str(find_baseline(org, agent, now=datetime.now(UTC) + timedelta(seconds=1)).id)
            == fourth["candidate"]
        )
    finally:
        store.close()


def test_the_gate_names_the_tasks_of_a_broken_domain(tmp_path: Path) -> None:
    db = _database(tmp_path)
    tasks = SECURITY + LEGAL
    code, first, stderr = _gate(tmp_path, db, WRONG_ANSWERS, "--promote", tasks=tasks)
    assert code == 0 and first["verdict"] == "SOLO" and first["promoted"] is True, stderr
    junit, summary, html = tmp_path / "junit.xml", tmp_path / "summary.md", tmp_path / "report.html"
    code, broken, stderr = _gate(
        tmp_path, db, f"{WRONG_ANSWERS} --domain security", "--junit", str(junit),
        "--summary", str(summary), "--html", str(html), tasks=tasks,
    )  # fmt: skip
    assert code == 1, stderr
    assert broken["verdict"] == "REGRESS", broken["reason"]
    flips = broken["tasks"]
    assert flips["lost"] == 5 and flips["gained"] == 0 and flips["paired"] == 10  # type: ignore[index]
    assert flips["mcnemar"]["p_value"] == pytest.approx(2 * 0.5**5)  # type: ignore[index]
    lost = {f["task"] for f in flips["flips"]}  # type: ignore[index]
    assert lost == set(SECURITY)
    groups = {(g["domain"], g["task_type"]): g for g in flips["groups"]}  # type: ignore[index]
    assert set(groups[("security", "domain_probe")]["lost"]) == {
        "probe-security-1",
        "probe-security-2",
        "probe-security-3",
    }
    assert set(groups[("security", "tool_challenge")]["lost"]) == {"tool-chain-03", "tool-chain-04"}
    assert not any(domain == "legal" for domain, _ in groups)
    # JUnit: a failed case per lost task, in its domain's class; the summary and the page name them
    cases = {(c.classname, c.name): c for s in JUnitXml.fromfile(str(junit)) for c in s}
    for task in SECURITY:
        assert any(isinstance(r, Failure) for r in cases[("aaaf.gate.task.security", task)].result)
    assert not any(name in LEGAL for _, name in cases)
    text = summary.read_text(encoding="utf-8")
    assert "### Tasks that flipped" in text and "5 lost, 0 gained of 10 tasks both ran" in text
    assert (
        "| security | domain_probe | 3 | `probe-security-1`, `probe-security-2`, `probe-security-3` | — |"
        in text
    )
    page = html.read_text(encoding="utf-8")
    assert "Tasks that flipped" in page and "tool-chain-03, tool-chain-04" in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "bot"], "exactly one of --agent-cmd or --agent-url"),
        (["--agent", "bot", "--agent-cmd", "x", "--agent-url", "http://127.0.0.1:9/v1"], "exactly one of"),
        (["--agent", "bot", "--agent-url", "http://127.0.0.1:9/v1"], "--model"),
        (["--agent-cmd", "x"], "give BASELINE and CANDIDATE"),
        (["--agent", "bot", "--agent-cmd", "x", "--task", "no-such-task"], "no stress task matches"),
        (["--agent", "bot", "--agent-cmd", "x", "--fail-on", "tierdrop"], "unknown condition(s) tierdrop"),
        (["a.jsonl", "b.jsonl", "--promote"], "--promote goes with --agent"),
        (["promote"], "gate promote needs an assessment id"),
    ],
)
def test_agent_mode_bad_input_exits_2_before_anything_runs(
    tmp_path: Path, args: list[str], message: str
) -> None:
    from aaaf.cli.main import app

    db = tmp_path / "aaaf.db"
    result = CliRunner().invoke(app, ["gate", *args, "--db", str(db)], env={"NO_COLOR": "1"})
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not db.exists()  # nothing was stored
