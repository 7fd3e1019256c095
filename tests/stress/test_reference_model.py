"""The reference agents run twice, and the heuristic brain behind the loopback
OpenAI-compatible reference model, with and without chaos (docs/stress-tests.md "The
reference agents"): same agent, same scores; the two adapters agree; chaos is seeded."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.services import assess as assess_service
from aaaf.services.stress import run_stress_test
from aaaf.store.store import open_store
from aaaf.stress.library import load_library
from aaaf.stress.reference_model import serve
from aaaf.stress.runner import AgentSpec

LIBRARY = load_library()
SMALL = [
    "probe-legal-1", "probe-security-2", "probe-design-1", "ladder-research-l4", "ladder-code-l5",
    "autonomy-config-a0", "tool-chain-03", "delegation-04", "delegation-12", "orchestration-launch",
]  # fmt: skip


@pytest.fixture()
def org(sqlite_at_head: Path) -> Iterator[Any]:
    """An organization on SQLite: these runs test the agents, not the storage."""
    store = open_store(f"sqlite:///{sqlite_at_head}")
    try:
        yield store.scope(store.default_organization().id)
    finally:
        store.close()


def _generous_copy(directory: Path, task_ids: list[str]) -> list[str]:
    """The tasks as an organization's own library with time baselines 100 times the standard
    ones: speed is the one score that rests on the clock, and this test is about everything
    else being reproducible (``make bench`` repeats a run of the standard library itself)."""
    tasks = []
    for task_id in task_ids:
        task = LIBRARY.get(task_id).task.model_dump(mode="json", by_alias=True)
        task["id"] = f"det-{task_id}"
        task["time_baseline_seconds"] *= 100
        if task.get("category"):
            task["category"] = f"det-{task['category']}"
        tasks.append(task)
    directory.mkdir()
    (directory / "tasks.json").write_text(json.dumps({"tasks": tasks}), encoding="utf-8")
    return [t["id"] for t in tasks]


def _scores(org: Any, name: str) -> dict[str, Any]:
    result = assess_service.assess_agent(
        org, name, now=datetime.now(UTC) + timedelta(seconds=1), assessment_type="stress_test_only"
    ).result
    return {
        f"{axis}.{dimension}": value["score"]
        for axis in ("performance", "capability")
        for dimension, value in result[axis]["dimensions"].items()
    } | {axis: result[axis]["composite_score"] for axis in ("performance", "capability")}


def test_two_runs_of_a_deterministic_agent_score_the_same(org: Any, tmp_path: Path) -> None:
    chosen = [
        *(t.task.id for t in LIBRARY.tasks if t.task.task_type in ("autonomy_ladder", "complexity_ladder")),
        *SMALL,
        *(f"learning-expenses-{i:02d}" for i in range(1, 16)),
    ]
    own = tmp_path / "det"
    ids = _generous_copy(own, list(dict.fromkeys(chosen)))
    spec = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents heuristic")
    runs = [
        run_stress_test(
            org,
            f"det-{n}",
            spec,
            library_dirs=[str(own)],
            task_ids=ids,
            parallel=4,
            log_dir=tmp_path / "logs",
        )
        for n in (1, 2)
    ]
    statuses = [{r["task_id"]: r["grade"]["status"] for r in records} for _, records in runs]
    assert statuses[0] == statuses[1]
    first, second = _scores(org, "det-1"), _scores(org, "det-2")
    assert first == second
    assert first["capability.learning_rate"] is not None and first["capability.learning_rate"] > 0


def _statuses(records: list[dict[str, Any]]) -> dict[str, str]:
    return {r["task_id"]: r["grade"]["status"] for r in records}


def test_the_heuristic_brain_answers_alike_through_both_adapters(org: Any, tmp_path: Path) -> None:
    spec = AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents heuristic")
    _, by_subprocess = run_stress_test(org, "sub", spec, task_ids=SMALL, parallel=4, log_dir=tmp_path)
    with serve() as (url, model):
        _, by_chat = run_stress_test(
            org, "chat", AgentSpec(url=url, model="heuristic"), task_ids=SMALL, parallel=4, log_dir=tmp_path
        )
    assert _statuses(by_chat) == _statuses(by_subprocess)
    assert not model.injected
    calls = {r["task_id"]: [c["tool"] for c in r["tools"]["calls"]] for r in by_subprocess}
    assert {r["task_id"]: [c["tool"] for c in r["tools"]["calls"]] for r in by_chat} == calls


@pytest.mark.parametrize("seed", [3])
def test_chaos_misbehaves_on_a_share_of_turns_reproducibly(org: Any, tmp_path: Path, seed: int) -> None:
    """About 30 % of turns misbehave; the provider's errors are retried away (no task is
    infrastructure-failed), the model's own slips cost it tasks; the same seed, the same run."""
    outcomes = []
    for attempt in (1, 2):
        with serve(chaos=0.3, seed=seed) as (url, model):
            run, records = run_stress_test(
                org, f"chaos-{attempt}", AgentSpec(url=url, model="heuristic"), task_ids=SMALL, parallel=4,
                log_dir=tmp_path,
            )  # fmt: skip
        outcomes.append((_statuses(records), dict(model.injected), model.turns))
        assert run.summary["infrastructure_failed"]["tasks"] == 0
    assert outcomes[0] == outcomes[1]
    statuses, injected, turns = outcomes[0]
    assert 0.15 <= sum(injected.values()) / turns <= 0.45, (injected, turns)
    assert Counter(statuses.values())["accepted"] < len(SMALL)
