"""assess --all's parallel path: this process and a spawned helper share the chunks and give
the same assessments as the sequential path; helpers on SQLite read through the DB-API
without importing SQLAlchemy; foreign agents are refused before anything is dispatched."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import textwrap
import uuid
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.evidence.validation import validate_event
from aaaf.services import assess_parallel as assess_service
from aaaf.services.assess import assess_many
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log


@pytest.fixture()
def org(sqlite_at_head: Path):
    store = open_store(f"sqlite:///{sqlite_at_head}")
    yield store.scope(store.default_organization().id)
    store.close()


def _load(org, tasks: dict[str, int]) -> None:
    for name, count in tasks.items():
        agent = org.enroll_agent(name)
        org.add_events(
            [
                (agent.id, validate_event(e, now=NOW, default_agent=name))
                for e in agent_log(None, count, prefix=name)
            ]
        )


def _scores(record) -> str:
    result = dict(record.result)
    result.pop("calibration", None)
    return json.dumps(result, sort_keys=True)


def test_this_process_and_a_helper_share_the_chunks(org, monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    _load(org, {f"agent-{n}": 31 + n for n in range(9)} | {"thin": 8})
    sequential = assess_many(org, org.agents(), now=NOW, window_end=NOW, workers=1)
    monkeypatch.setattr(assess_service, "CHUNK_EVENTS", 1)  # ten chunks: both sides get some
    with caplog.at_level("DEBUG", logger="aaaf.services.assess_parallel"):
        parallel = assess_many(org, org.agents(), now=NOW + timedelta(seconds=1), window_end=NOW, workers=2)
    (summary,) = [r.getMessage() for r in caplog.records if "scored here" in r.getMessage()]
    here = int(summary.split()[1])
    assert 0 < here < 10, summary  # both this process and the helper scored chunks
    assert [o.agent.name for o in parallel] == [o.agent.name for o in sequential]
    for one, two in zip(sequential, parallel, strict=True):
        assert (one.error is None) == (two.error is None)
        if one.assessment is not None:
            assert _scores(one.assessment) == _scores(two.assessment)
            assert [d.score for d in one.assessment.dimensions] == [
                d.score for d in two.assessment.dimensions
            ]
    thin = next(o for o in parallel if o.agent.name == "thin")
    assert thin.error is not None and thin.error.code == "INSUFFICIENT_EVIDENCE"
    # every outcome was stored (the write opened once this process ran out of chunks)
    for outcome in parallel:
        if outcome.assessment is not None:
            assert org.get_assessment(outcome.assessment.id).result == outcome.assessment.result


def test_the_write_opens_once_when_this_process_runs_out_of_chunks(org, monkeypatch) -> None:
    _load(org, {f"agent-{n}": 31 for n in range(6)})
    monkeypatch.setattr(assess_service, "CHUNK_EVENTS", 1)
    calls: list[int] = []
    kept: list[int] = []

    def keep(scored) -> None:  # type: ignore[no-untyped-def]
        kept.append(len(scored))

    agents = org.agents()
    assess_service.score_all(
        org, agents, org.config(), NOW, "passive_only", None, 2, keep, lambda: calls.append(len(kept))
    )
    assert sum(kept) == len(agents)
    # called once, while helpers still had chunks whose scores came after it
    assert len(calls) == 1 and calls[0] < len(agents)


def test_every_chunk_left_is_queued_for_the_helpers_before_the_write(org, monkeypatch) -> None:
    """When this process turns to writing, the chunks it leaves to the helpers are all queued
    for them: none waits for the write's first part while the helpers have nothing to do."""
    _load(org, {f"agent-{n}": 31 for n in range(12)})
    monkeypatch.setattr(assess_service, "CHUNK_EVENTS", 1)  # twelve chunks
    handed_out: list[int] = []
    scored_here: list[int] = []
    at_write: list[int] = []
    submit, score_loaded = ProcessPoolExecutor.submit, assess_service._score_loaded

    def counted_submit(self, task, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        if task is assess_service._score_chunk_in_worker:
            handed_out.append(1)
        return submit(self, task, *args, **kwargs)

    def counted_score_loaded(*args, **kwargs):  # type: ignore[no-untyped-def]
        scored_here.append(1)  # in this process only: the helpers import the module afresh
        return score_loaded(*args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", counted_submit)
    monkeypatch.setattr(assess_service, "_score_loaded", counted_score_loaded)
    kept: list[int] = []
    assess_service.score_all(
        org,
        org.agents(),
        org.config(),
        NOW,
        "passive_only",
        None,
        2,
        lambda scored: kept.append(len(scored)),
        lambda: at_write.append(len(handed_out) + len(scored_here)),
    )
    assert sum(kept) == 12
    assert at_write == [12]


def test_foreign_agents_are_refused_before_dispatch(org) -> None:
    _load(org, {"a": 31})
    stranger = replace(org.get_agent("a"), id=uuid.uuid4())
    with pytest.raises(AAAFError) as caught:
        assess_many(org, [*org.agents(), stranger], now=NOW, workers=2)
    assert caught.value.code == "NOT_FOUND"
    assert org.assessments(org.get_agent("a").id) == []


def test_a_sqlite_helper_never_imports_sqlalchemy() -> None:
    code = (
        "import sys, aaaf.services.assess, aaaf.store.sqlite_events; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_chunks_hold_about_chunk_events_events_and_never_split_an_agent(monkeypatch) -> None:
    monkeypatch.setattr(assess_service, "CHUNK_EVENTS", 100)
    counts = {"a": 30, "b": 80, "c": 250, "d": 0, "e": 99, "f": 1, "g": 5}
    # a+b = 110 >= 100 closes; c alone >= 100; d+e+f = 100 closes; g is the rest
    assert assess_service.plan_chunks(list(counts), counts) == [["a", "b"], ["c"], ["d", "e", "f"], ["g"]]
    assert assess_service.plan_chunks([], {}) == []


def test_parallelism_follows_the_events_not_the_agents(org, monkeypatch) -> None:
    """100 agents x 10 000 events is as much work as 1 000 x 1 000 (issue 10 item 7)."""
    _load(org, {"big": 40, "small": 31})
    counts = org.event_counts([a.id for a in org.agents()])
    assert sorted(counts.values()) == sorted(
        [org.count_events(org.get_agent("big").id), org.count_events(org.get_agent("small").id)]
    )
    total = sum(counts.values())
    monkeypatch.setattr(assess_service, "PARALLEL_MIN_EVENTS", total)
    monkeypatch.setattr(assess_service.os, "cpu_count", lambda: 2)
    assert assess_service._workers_for(org, total, 2) == 2  # two agents, enough events: parallel
    assert assess_service._workers_for(org, total - 1, 2) == 1


@pytest.mark.parametrize("workers", [2, 3])
def test_helpers_do_not_run_the_main_script_again(
    org, sqlite_at_head: Path, tmp_path: Path, workers: int
) -> None:
    """A spawned helper imports the parent's main script unless it is hidden from it: the
    ``aaaf`` command's, a benchmark's or a user's (SQLAlchemy and the whole store with it)."""
    _load(org, {f"agent-{n}": 31 for n in range(4)})
    imported = tmp_path / "imported"
    script = tmp_path / "main_script.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import os
            with open({str(imported)!r}, "a") as out:
                out.write(f"{{os.getpid()}}\\n")
            if __name__ == "__main__":
                from datetime import datetime
                from aaaf.services.assess import assess_many
                from aaaf.store import open_store
                store = open_store({f"sqlite:///{sqlite_at_head}"!r})
                org = store.scope(store.default_organization().id)
                now = datetime.fromisoformat({NOW.isoformat()!r})
                from aaaf.services import assess_parallel
                assess_parallel.CHUNK_EVENTS = 1  # a chunk per agent: every helper gets some
                outcomes = assess_many(org, org.agents(), now=now, workers={workers}, uncertainty=False)
                print(os.getpid(), sum(o.assessment is not None for o in outcomes))
            """
        )
    )
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    pid, assessed = out.stdout.split()
    assert assessed == "4"  # helpers scored them (four chunks, which this process leaves to them)
    assert imported.read_text().split() == [pid]


def test_helpers_start_before_the_previous_assessments_are_read(org, monkeypatch) -> None:
    """The helpers' start-up overlaps this process's preparations (the configuration, the
    previous assessments, opening the write) instead of following them."""
    import aaaf.store.assessment_batch as batch

    _load(org, {f"agent-{n}": 31 for n in range(3)})
    helpers_running: list[int] = []
    read = batch.latest_completed_composites

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        helpers_running.append(len(multiprocessing.active_children()))
        return read(*args, **kwargs)

    monkeypatch.setattr(batch, "latest_completed_composites", spy)
    outcomes = assess_many(org, org.agents(), now=NOW, workers=2, uncertainty=False)
    assert all(o.assessment is not None for o in outcomes)
    assert helpers_running == [1]
