"""A worker is warmed before it takes jobs (aaaf.jobs.warm): its first assessment and badge
import nothing more, and ``aaaf worker`` warms before its workers start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from aaaf.jobs import runner, warm

REPO = Path(__file__).resolve().parents[2]

_FIRST_JOB = """
import json, sys
from datetime import UTC, datetime
from aaaf.jobs.warm import warm_up
from aaaf.services.assessment_jobs import issue_badge_of, run_triggered_assessment, trigger_assessment
from aaaf.services.issuer import secret_box
from aaaf.store import open_store
from tests.jobs.helpers import RecordingQueue, assessable_agent

now = datetime.now(UTC)
store = open_store(sys.argv[1])
secret_box(store)
org = store.scope(store.default_organization().id)
record = trigger_assessment(org, assessable_agent(org, "agent", now=now, tasks=30), RecordingQueue(), now=now)
warmed = warm_up()
before = set(sys.modules)
done = run_triggered_assessment(store, org.organization_id, record.id, now=now)
badge = issue_badge_of(store, org.organization_id, record.id, now=now)
print(json.dumps({"warmed": warmed, "status": done.status, "badge": badge is not None,
                  "imported": sorted(set(sys.modules) - before)}))
"""


def test_a_warmed_process_imports_nothing_more_for_its_first_assessment_and_badge(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.setdefault("AAAF_SECRET_KEY", "dGVzdC1zZWNyZXQtb2YtdGhlLWFhYWYtd29ya2VyLXdhcm0tdXAhIQ==")
    result = subprocess.run(
        [sys.executable, "-c", _FIRST_JOB, f"sqlite:///{tmp_path / 'aaaf.db'}"],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome == {"warmed": True, "status": "completed", "badge": True, "imported": []}


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_aaaf_worker_warms_before_its_workers_start(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    async def work(store: Any, concurrency: int, stress_runs: bool) -> None:
        calls.append("work")

    monkeypatch.setenv("AAAF_SECRET_KEY", "dGVzdC1zZWNyZXQtb2YtdGhlLWFhYWYtd29ya2VyLXdhcm0tdXAhIQ==")
    monkeypatch.setattr(warm, "warm_up", lambda: calls.append("warm") or True)
    monkeypatch.setattr(runner, "_work", work)
    runner.run_worker(store_url)
    assert calls == ["warm", "work"]


def test_a_failed_warm_up_is_logged_not_raised(monkeypatch: pytest.MonkeyPatch, caplog: Any) -> None:
    monkeypatch.setattr(warm, "JOB_MODULES", ("aaaf.no_such_module",))
    assert warm.warm_up() is False
    assert "warming the worker failed" in caplog.text
