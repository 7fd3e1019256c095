"""The README's tour runs as written after `make demo`, on any day (README "A tour of the CLI,
after `make demo`").

The demo's evidence is generated relative to the day it runs (``aaaf.demo.clock``), so it is
never stale: this test runs ``scripts/demo.sh`` (into a temporary folder, the clone's ``.venv``
linked in) and then every line of the README's tour blocks, verbatim, in one bash session from
that folder.  Each line must exit 0, or 2 where the README's own comment on the line says
"exit 2".  It does so twice: today, and 60 days from now — the demo's clock pinned there with
``AAAF_DEMO_NOW`` and every command's clock moved there (``time_machine``, started by a
``sitecustomize`` on the ``PYTHONPATH`` of every Python process of the run).
"""

from __future__ import annotations

import os
import re
import subprocess
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## A tour of the CLI, after `make demo`"
STATUS = "__tour_status__"

_SITECUSTOMIZE = """
import os
from datetime import timedelta

import time_machine

_days = float(os.environ["AAAF_TEST_CLOCK_DAYS"])
time_machine.travel(timedelta(days=_days), tick=True).start()
"""


def tour_commands() -> list[str]:
    """Every command line of the tour's ```bash blocks, in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _script(commands: list[str]) -> str:
    body = [f'{command}\necho "{STATUS} $?" >&2' for command in commands]
    return "\n".join(body) + "\n"


def _expected_status(command: str) -> int:
    comment = command.split("#", 1)[1] if "#" in command else ""
    return 2 if "exit 2" in comment else 0


@pytest.mark.parametrize("days_ahead", [0, 60], ids=["today", "in-60-days"])
def test_the_readme_tour_runs_after_the_demo(tmp_path: Path, days_ahead: int) -> None:
    commands = tour_commands()
    assert len(commands) >= 15 and commands[0].startswith("source .venv/bin/activate")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AAAF_")}
    env["COLUMNS"] = "200"
    if days_ahead:
        hooks = tmp_path / "clock"
        hooks.mkdir()
        (hooks / "sitecustomize.py").write_text(textwrap.dedent(_SITECUSTOMIZE), encoding="utf-8")
        env["PYTHONPATH"] = os.pathsep.join([str(hooks), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env["AAAF_TEST_CLOCK_DAYS"] = str(days_ahead)
        moved = datetime.now(UTC) + timedelta(days=days_ahead)
        env["AAAF_DEMO_NOW"] = moved.strftime("%Y-%m-%dT%H:00:00Z")
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    demo = subprocess.run(
        ["bash", str(ROOT / "scripts" / "demo.sh")],
        cwd=tmp_path,
        env={**env, "OUT": str(tmp_path / "out")},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert demo.returncode == 0, demo.stdout[-4000:] + demo.stderr[-4000:]
    # the demo says how to point a shell at it: the tour's first two lines
    assert "source .venv/bin/activate" in demo.stdout and "export AAAF_DATABASE_URL=" in demo.stdout
    if days_ahead:
        assert f"the demo's clock: {env['AAAF_DEMO_NOW']}" in demo.stdout
    tour = subprocess.run(
        ["bash", "-c", _script(commands)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    statuses = [int(line.split()[1]) for line in tour.stderr.splitlines() if line.startswith(STATUS)]
    assert len(statuses) == len(commands), tour.stdout[-3000:] + tour.stderr[-3000:]
    wrong = [
        (command, status)
        for command, status in zip(commands, statuses, strict=True)
        if status != _expected_status(command)
    ]
    assert not wrong, f"{wrong}\n{tour.stdout[-6000:]}\n{tour.stderr[-6000:]}"
    assert "Traceback" not in tour.stderr
    assert not (tmp_path / "aaaf.db").exists()  # no stray database beside the demo's
    # what the tour shows: the fleet, and the reference agents assessed on their stress evidence
    assert "security-auditor" in tour.stdout and "ref-oracle" in tour.stdout
    assert "only workflow runs" in tour.stdout
    badge = tmp_path / "out" / "badges" / "security-auditor.md"
    assert "/badges/default/security-auditor.svg)" in badge.read_text(encoding="utf-8")
