"""`aaaf stress-test`, `aaaf stress-runs`, `aaaf reference-agent` and `aaaf assess --type
stress_test_only` as a user runs them (issue 15 §5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

AAAF = str(Path(sys.executable).with_name("aaaf"))


def _aaaf(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AAAF_DB": "", "NO_COLOR": "1"}
    return subprocess.run([AAAF, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def test_stress_test_runs_the_reference_agent_and_assess_scores_stress_evidence_alone(
    tmp_path: Path, sqlite_at_head: Path
) -> None:
    db = str(sqlite_at_head)
    run = _aaaf(
        "stress-test", "cli-oracle", "--agent-cmd", f"{AAAF} reference-agent oracle",
        "--task", "probe-legal-1", "--task", "delegation-02", "--db", db, "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "finished" and record["summary"]["statuses"] == {"accepted": 2}
    assert record["adapter"] == "subprocess" and Path(record["log_path"]).is_file()
    assert record["log_path"].startswith(str(tmp_path / "stress-logs"))
    runs = _aaaf("stress-runs", "cli-oracle", "--db", db, "--json", cwd=tmp_path)
    assert [r["id"] for r in json.loads(runs.stdout)] == [record["id"]]
    # two tasks are below the Performance minimum: stress evidence is counted, and is not enough
    assessed = _aaaf("assess", "cli-oracle", "--type", "stress_test_only", "--db", db, "--json", cwd=tmp_path)
    assert assessed.returncode == 2
    error = json.loads(assessed.stderr)["error"]
    assert error["code"] == "INSUFFICIENT_EVIDENCE" and error["details"]["current_count"] == 2


def test_an_invalid_user_library_is_refused_before_anything_runs(tmp_path: Path) -> None:
    library = tmp_path / "mine"
    library.mkdir()
    (library / "bad.yaml").write_text("tasks:\n  - id: Bad Id\n", encoding="utf-8")
    result = _aaaf(
        "stress-test", "x", "--agent-cmd", "true", "--library", str(library), "--db", str(tmp_path / "a.db"), "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert "bad.yaml" in json.loads(result.stderr)["error"]["message"]


def test_list_shows_every_task_with_its_type_domain_and_levels(tmp_path: Path) -> None:
    """``aaaf stress-test --list``: no agent, nothing run; the tasks in run order."""
    from aaaf.stress.library import load_library

    library = load_library()
    listed = _aaaf("stress-test", "--list", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    tasks = json.loads(listed.stdout)
    assert [t["id"] for t in tasks] == [loaded.task.id for loaded in library.select()]
    by_id = {t["id"]: t for t in tasks}
    assert by_id["autonomy-report-a1"] | {"tools": None} == {
        "id": "autonomy-report-a1", "task_type": "autonomy_ladder", "domain": "analysis", "complexity_level": 2,
        "autonomy_level": 1, "dimensions": ["autonomy_level"], "category": None, "sequence_position": None,
        "tools": None, "time_baseline_seconds": library.get("autonomy-report-a1").task.time_baseline_seconds,
        "library": "aaaf-standard",
    }  # fmt: skip
    assert by_id["delegation-01"]["domain"] is None
    assert by_id["learning-expenses-03"]["category"] == "expense-filing"
    assert by_id["learning-expenses-03"]["sequence_position"] == 3
    table = _aaaf("stress-test", "--list", "--dimension", "learning_rate", cwd=tmp_path)
    assert (
        table.returncode == 0
        and "learning-citations-15" in table.stdout
        and "probe-legal-1" not in table.stdout
    )
    missing = _aaaf("stress-test", "--json", cwd=tmp_path)
    assert missing.returncode == 2 and "--list" in json.loads(missing.stderr)["error"]["message"]
