"""Concurrent `aaaf collect` processes lose nothing (issue 21 scope 9), on SQLite and PostgreSQL.

Real separate processes (`python -m aaaf.cli.main`), started together:

* two `collect --enroll` sharing new agent names — Why 3: they dropped good events with a
  misleading "[CONFLICT] An agent named 'kagent-00043' is already enrolled";
* a `collect` beside `assess --all` on the same database.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log, write_jsonl

NAMES = [f"kagent-{i:05d}" for i in range(60)]


def _start(store_url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "aaaf.cli.main", *args, "--db", store_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    stdout, stderr = process.communicate(timeout=300)
    return process.returncode, stdout, stderr


def _events_by_agent(store_url: str) -> dict[str, int]:
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        return {agent.name: org.count_events(agent.id) for agent in org.agents()}


def test_two_collects_enrolling_the_same_new_agents(store_url: str, tmp_path: Path) -> None:
    open_store(store_url).close()  # the schema exists before the race (as after any first use)
    logs = []
    for side in ("x", "y"):
        events = [e for name in NAMES for e in agent_log(name, 2, prefix=f"{name}-{side}")]
        logs.append(write_jsonl(tmp_path / f"{side}.jsonl", events))
    processes = [_start(store_url, "collect", str(log), "--enroll", "--json") for log in logs]
    results = [_finish(process) for process in processes]
    reports = []
    for code, stdout, stderr in results:
        assert code == 0, stdout + stderr
        reports.append(json.loads(stdout))
    assert [(r["accepted"], r["rejected"]) for r in reports] == [(240, 0), (240, 0)]
    assert sorted(reports[0]["enrolled"] + reports[1]["enrolled"]) == NAMES  # each enrolled once
    assert _events_by_agent(store_url) == dict.fromkeys(NAMES, 8)


def test_collect_beside_assess_all(store_url: str, tmp_path: Path) -> None:
    fleet = [e for name in NAMES[:6] for e in agent_log(name, 36)]
    code, out, err = _finish(
        _start(store_url, "collect", str(write_jsonl(tmp_path / "f.jsonl", fleet)), "--enroll")
    )
    assert code == 0, out + err
    more = [e for name in NAMES for e in agent_log(name, 3, prefix=f"{name}-late")]
    assess = _start(store_url, "assess", "--all", "--window-end", NOW.isoformat(), "--json")
    collect = _start(
        store_url, "collect", str(write_jsonl(tmp_path / "more.jsonl", more)), "--enroll", "--json"
    )
    collect_code, collect_out, collect_err = _finish(collect)
    assess_code, assess_out, assess_err = _finish(assess)
    assert collect_code == 0, collect_out + collect_err
    assert json.loads(collect_out)["accepted"] == len(more)
    assert assess_code in (0, 2), assess_out + assess_err  # 2: agents enrolled meanwhile lack evidence
    outcomes = json.loads(assess_out)
    assert all(o["assessment"]["status"] == "completed" for o in outcomes if o["agent"] in NAMES[:6])
    counts = _events_by_agent(store_url)
    assert counts == {name: (36 + 3) * 2 if name in NAMES[:6] else 3 * 2 for name in NAMES}
