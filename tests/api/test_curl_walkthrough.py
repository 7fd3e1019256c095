"""The README's curl walkthrough, run as written against the live server of each database
(issue 13 "Done when"): ``scripts/curl_walkthrough.sh`` is the README's commands; this test
runs it with curl and checks what it prints, so the README cannot rot."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.conftest import ADMIN_KEY, LiveServer

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "curl_walkthrough.sh"


def test_the_readme_walkthrough_runs_with_curl(live: LiveServer, tmp_path: Path) -> None:
    if shutil.which("curl") is None or shutil.which("jq") is None:
        # CI installs both (.ci/run): never skipped there
        assert os.environ.get("CI") != "true", "CI must have curl and jq (.ci/run installs them)"
        pytest.skip("the walkthrough needs curl and jq")
    done = subprocess.run(
        ["bash", str(SCRIPT)],
        env={**os.environ, "BASE": live.base_url, "AAAF_ADMIN_KEY": ADMIN_KEY, "OUT": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"organization: [0-9a-f-]{36}", lines[0]), lines
    assert re.fullmatch(r"agent: [0-9a-f-]{36}", lines[1]), lines
    assert lines[2] == 'batch: {"accepted":6,"duplicates":0,"rejected":2}'
    # exactly which events were rejected, and why
    assert lines[3].startswith("rejected: index 6 id bad-type INVALID_EVENT_TYPE type: ")
    assert "task_teleported" in lines[3]
    assert lines[4].startswith(
        "rejected: index 7 id bad-field INVALID_REQUEST data.time_to_complete_seconds: "
    )
    assert re.fullmatch(r"assessment: [0-9a-f-]{36}", lines[5]), lines
    assert lines[6] == "status: completed"
    assert re.fullmatch(r"badge: HTTP 200, \d+ bytes of SVG", lines[7]), lines
    assert lines[8] == "verify: valid=true revoked=false expired=false agent=security-auditor"
    assert re.fullmatch(r"tiers: performance \w+, capability \w+", lines[9]), lines
    assert len(lines) == 10
    assert b"<svg" in (tmp_path / "badge.svg").read_bytes()[:500]


def test_the_readme_shows_the_script_line_for_line() -> None:
    """Every line of the README's curl block is a line of the script (nothing drifts)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The service with nothing but curl", 1)[1]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    script = set(SCRIPT.read_text(encoding="utf-8").splitlines())
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) > 40
    assert [line for line in lines if line not in script] == []
