"""`aaaf stress-libraries` as a user runs it (issue 20 §3): one organization publishes a
library directory shared, another lists and installs it, and its `aaaf stress-test` then runs
the installed task (the oracle reference agent solves it from the installed directory)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

AAAF = str(Path(sys.executable).with_name("aaaf"))
TASK = """tasks:
  - id: shared-legal-1
    task_type: domain_probe
    dimensions: [domain_breadth]
    domain: legal
    complexity_level: 1
    prompt: "What is 2 + 2? Answer with the number."
    time_baseline_seconds: 5
    checks: [{kind: answer_number, name: four, value: 4}]
    reference: {answer: "4"}
"""


def _aaaf(*args: str, cwd: Path, org: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AAAF_DB": "", "NO_COLOR": "1", "AAAF_STRESS_LIBRARY_CACHE": str(cwd / "cache")}
    env.pop("AAAF_ORG", None)
    prefix = ["--org", org] if org else []
    return subprocess.run(
        [AAAF, *prefix, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


def test_publish_shared_install_elsewhere_and_run_it(tmp_path: Path, sqlite_at_head: Path) -> None:
    db = str(sqlite_at_head)
    for name in ("alpha", "beta"):
        assert _aaaf("org", "create", name, "--db", db, cwd=tmp_path).returncode == 0
    library = tmp_path / "legal-lib"
    library.mkdir()
    (library / "tasks.yaml").write_text(TASK, encoding="utf-8")
    published = _aaaf(
        "stress-libraries", "publish", str(library), "--name", "legal-lib", "--version", "1.0", "--shared",
        "--db", db, "--json", cwd=tmp_path, org="alpha",
    )  # fmt: skip
    assert published.returncode == 0, published.stderr
    assert json.loads(published.stdout)["task_ids"] == ["shared-legal-1"]
    again = _aaaf(
        "stress-libraries", "publish", str(library), "--name", "legal-lib", "--version", "1.0",
        "--db", db, cwd=tmp_path, org="alpha",
    )  # fmt: skip
    assert again.returncode == 2 and "never changes" in again.stderr
    listed = json.loads(
        _aaaf("stress-libraries", "list", "--db", db, "--json", cwd=tmp_path, org="beta").stdout
    )["items"]
    assert [(item["name"], item["owned"], item["installed"]) for item in listed] == [
        ("legal-lib", False, False)
    ]
    installed = _aaaf("stress-libraries", "install", "legal-lib", "1.0", "--db", db, cwd=tmp_path, org="beta")
    assert installed.returncode == 0 and "installed legal-lib 1.0" in installed.stdout
    run = _aaaf(
        "stress-test", "beta-agent", "--agent-cmd", f"{AAAF} reference-agent oracle",
        "--task", "shared-legal-1", "--db", db, "--json", cwd=tmp_path, org="beta",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "finished" and record["summary"]["statuses"] == {"accepted": 1}
    assert "legal-lib@1.0" in record["library"]
    # alpha never installed it: the task is unknown to its runs
    unknown = _aaaf(
        "stress-test", "alpha-agent", "--agent-cmd", "true", "--task", "shared-legal-1",
        "--db", db, "--json", cwd=tmp_path, org="alpha",
    )  # fmt: skip
    assert unknown.returncode != 0


def test_a_shared_library_with_code_is_refused_at_publish(tmp_path: Path) -> None:
    library = tmp_path / "coded"
    library.mkdir()
    coded = TASK.replace(
        "checks: [{kind: answer_number, name: four, value: 4}]",
        "checks: [{kind: unit_tests, name: runs python, tests: 'assert True'}]",
    )
    (library / "tasks.yaml").write_text(coded, encoding="utf-8")
    result = _aaaf(
        "stress-libraries", "publish", str(library), "--name", "coded", "--version", "1", "--shared",
        "--db", str(tmp_path / "a.db"), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert "'shared-legal-1'" in result.stderr and "unit_tests" in result.stderr
