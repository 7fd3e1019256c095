"""The agent gate runs its stress suite on the gate's own clock, not the system's: the run's
start and end carry the instant the caller gave."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.services.gate_agent import run_agent_gate
from aaaf.store.store import Store
from aaaf.stress.runner import AgentSpec
from tests.stress_tasks import probe_task

INSTANT = datetime(2031, 3, 4, 5, 6, 7, tzinfo=UTC)


def test_the_gate_stress_run_reads_the_gates_clock(store: Store, tmp_path: Path) -> None:
    library = tmp_path / "acme-tasks"
    library.mkdir()
    (library / "tasks.json").write_text(json.dumps({"tasks": [probe_task("own-1")]}), encoding="utf-8")
    script = tmp_path / "agent.py"
    script.write_text("import sys; sys.stdin.readline(); sys.exit(9)")
    org = store.scope(store.default_organization().id)
    with pytest.raises(AAAFError, match="Minimum required"):  # one task is too few to gate
        run_agent_gate(
            org,
            "clocked",
            AgentSpec(command=f"{sys.executable} {script}"),
            fail_on=[],
            clock=lambda: INSTANT,
            library_dirs=[str(library)],
            task_ids=["own-1"],
            log_dir=tmp_path / "logs",
            turn_timeout=1.0,
            task_timeout=3.0,
        )
    [run] = org.stress_runs(org.get_agent("clocked").id)
    assert (run.started_at, run.finished_at) == (INSTANT, INSTANT)
