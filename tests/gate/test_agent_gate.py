"""`aaaf gate --agent` end to end (issue 20 §1): the reference agents (docs/agent-protocol.md; the
ones `aaaf reference-agent oracle|careless` runs, started as ``python -m`` to spare each task
the CLI's start-up) through a few stress tasks, assessed ``stress_test_only`` on their own run's evidence and
compared with the stored baseline assessment.  The organization's minimums are lowered to 5
tasks (``aaaf config set``) so that six tasks make an assessment."""

from __future__ import annotations

import json
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml
from typer.testing import CliRunner

from aaaf.services.gate import find_baseline
from aaaf.store.store import open_store
from tests.gate.conftest import aaaf

TASKS = [f"autonomy-{kind}-a{level}" for kind in ("report", "config") for level in (0, 1, 2)]


def _agent(kind: str) -> str:
    return f"{sys.executable} -m aaaf.stress.reference_agents {kind}"


def _gate(tmp_path: Path, db: str, kind: str, *extra: str) -> tuple[int, dict[str, object], str]:
    tasks = [arg for task in TASKS for arg in ("--task", task)]
    result = aaaf(
        "gate", "--agent", "bot", "--agent-cmd", _agent(kind), *tasks, "--db", db,
        "--log-dir", str(tmp_path / "logs"), "--json", *extra, cwd=tmp_path,
    )  # fmt: skip
    return result.returncode, (json.loads(result.stdout) if result.stdout else {}), result.stderr


def test_an_agent_is_gated_against_its_stored_baseline(tmp_path: Path) -> None:
    db = str(tmp_path / "aaaf.db")
    for key in ("minimum_tasks_performance", "minimum_tasks_capability"):
        assert aaaf("config", "set", key, "5", "--db", db, cwd=tmp_path).returncode == 0
    # an unknown baseline is bad input, found before anything runs
    code, _, stderr = _gate(tmp_path, db, "oracle", "--baseline-assessment", str(uuid.uuid4()))
    assert code == 2 and "NOT_FOUND" in stderr
    # the first gate has nothing to compare with: SOLO, and its assessment is the baseline
    code, first, stderr = _gate(tmp_path, db, "oracle", "--junit", str(tmp_path / "first.xml"))
    assert code == 0, stderr
    assert first["verdict"] == "SOLO" and first["passed"] is True and first["mode"] == "agent"
    assert first["stress_summary"]["statuses"] == {"accepted": 6}  # type: ignore[index]
    # the careless agent under the same name: this run's evidence alone against the oracle's
    junit, html = tmp_path / "second.xml", tmp_path / "second.html"
    code, second, stderr = _gate(
        tmp_path,
        db,
        "careless",
        "--junit",
        str(junit),
        "--html",
        str(html),
        "--summary",
        str(tmp_path / "s.md"),
    )
    assert code == 1, stderr
    assert second["baseline"] == first["candidate"] and second["verdict"] == "REGRESS"
    performance = next(c for c in second["checks"] if c["name"] == "performance")  # type: ignore[attr-defined]
    # it skips the checkpoints of levels 0 and 1 (four of six tasks rejected): Performance drops a
    # tier, and Capability falls beyond its interval
    assert performance["tier_drop"] and performance["diff"] < -0.1
    assert performance["tier"]["baseline"] == "Elite"
    capability = next(c for c in second["checks"] if c["name"] == "capability")  # type: ignore[attr-defined]
    assert capability["regressed"] and capability["interval"][1] < 0
    assert "regress: the verdict is REGRESS" in second["failing"]  # type: ignore[operator]
    failed = {c.name for s in JUnitXml.fromfile(str(junit)) for c in s if any(isinstance(r, Failure) for r in c.result)}  # fmt: skip
    assert {"performance", "gate"} <= failed
    assert "REGRESS" in html.read_text(encoding="utf-8")
    # the baseline is the latest valid assessment: a rejected one is passed over
    store = open_store(f"sqlite:///{db}")
    try:
        org = store.scope(store.default_organization().id)
        agent = org.get_agent("bot")
        now = datetime.now(UTC) + timedelta(seconds=1)
        assert str(find_baseline(org, agent, now=now).id) == second["candidate"]
        org.set_review_state(uuid.UUID(str(second["candidate"])), "rejected")
        assert str(find_baseline(org, agent, now=now).id) == first["candidate"]
        assert find_baseline(org, agent, now=now + timedelta(days=400)) is None  # expired
    finally:
        store.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "bot"], "exactly one of --agent-cmd or --agent-url"),
        (["--agent", "bot", "--agent-cmd", "x", "--agent-url", "http://127.0.0.1:9/v1"], "exactly one of"),
        (["--agent", "bot", "--agent-url", "http://127.0.0.1:9/v1"], "--model"),
        (["--agent-cmd", "x"], "give BASELINE and CANDIDATE"),
        (["--agent", "bot", "--agent-cmd", "x", "--task", "no-such-task"], "no stress task matches"),
        (["--agent", "bot", "--agent-cmd", "x", "--fail-on", "tierdrop"], "unknown condition(s) tierdrop"),
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
