"""The one door for stress-test evidence in :func:`aaaf.services.collect.collect` (docs/stress-tests.md
"Provenance"), on SQLite and PostgreSQL: without ``stress_run`` every event marked
``stress_test`` is refused per item; with it (the harness recording its own run) the run must be
this organization's, executed by the harness, still running and of the agent collected for, and
every event must be that run's — anything else is refused and nothing of it is stored."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.services.collect import collect
from aaaf.store.store import Store

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _event(key: str, **marks: Any) -> dict[str, Any]:
    at = (NOW - timedelta(hours=1)).isoformat()
    return {
        "id": key,
        "type": "task_assigned",
        "timestamp": at,
        "data": {"task_id": key, "complexity_level": 2, "domain": "code", "assigned_at": at, **marks},
    }


def _run(org: Any, agent: Any, adapter: str = "subprocess") -> Any:
    return org.create_stress_run(
        agent.id,
        adapter=adapter,
        agent_reference="x",
        library="aaaf-standard",
        library_version="v",
        started_at=NOW,
    )


def test_without_a_run_every_stress_mark_is_refused_and_the_rest_kept(store: Store) -> None:
    org = store.scope(store.default_organization().id)
    agent = org.enroll_agent("a")
    run = _run(org, agent)  # a real run of the harness: naming it in an event is still refused
    items = [
        (1, _event("plain")),
        (2, _event("forged", evidence_source="stress_test", stress_run_id=str(uuid.uuid4()))),
        (3, _event("real-run-id", evidence_source="stress_test", stress_run_id=str(run.id))),
        (4, _event("no-run-id", evidence_source="stress_test")),
        (5, _event("reported", evidence_source="reported_stress_test", stress_run_id=str(run.id))),
    ]
    report = collect(org, items, now=NOW, default_agent="a")
    assert (report.accepted, report.rejected) == (2, 3)
    assert [(e.line, e.code, e.field) for e in report.errors] == [
        (line, "STRESS_EVIDENCE_REFUSED", "data.evidence_source") for line in (2, 3, 4)
    ]
    assert sorted(str(e.key) for e in org.events(agent.id)) == ["plain", "reported"]


def test_the_harness_stores_its_runs_events_and_nothing_else(store: Store) -> None:
    org = store.scope(store.default_organization().id)
    agent = org.enroll_agent("a")
    run = _run(org, agent)
    mine = {"evidence_source": "stress_test", "stress_run_id": str(run.id)}
    items = [
        (1, _event("t1", **mine)),
        (2, _event("unmarked")),
        (3, _event("other-run", evidence_source="stress_test", stress_run_id=str(uuid.uuid4()))),
        (4, _event("t2", **mine)),
    ]
    report = collect(org, items, now=NOW, default_agent="a", stress_run=run.id)
    assert (report.accepted, report.rejected) == (2, 2)
    assert [(e.line, e.field) for e in report.errors] == [
        (2, "data.evidence_source"),
        (3, "data.stress_run_id"),
    ]
    assert all(e.code == "STRESS_EVIDENCE_REFUSED" for e in report.errors)
    assert sorted(str(e.key) for e in org.events(agent.id)) == ["t1", "t2"]


@pytest.mark.parametrize("case", ["imported", "finished", "other agent", "other organization", "unknown"])
def test_the_door_opens_only_for_a_running_harness_run_of_the_agent(store: Store, case: str) -> None:
    org = store.scope(store.default_organization().id)
    agent = org.enroll_agent("a")
    other = org.enroll_agent("b")
    if case == "imported":
        run = _run(org, agent, adapter="inspect_log")
    elif case == "other agent":
        run = _run(org, other)
    elif case == "other organization":
        elsewhere = store.create_organization("elsewhere")
        foreign = store.scope(elsewhere.id)
        run = _run(foreign, foreign.enroll_agent("a"))
    else:
        run = _run(org, agent)
    if case == "finished":
        org.finish_stress_run(
            run.id, status="finished", finished_at=NOW, log_path=None, summary={}, results=[]
        )
    run_id = uuid.uuid4() if case == "unknown" else run.id
    event = _event("t1", evidence_source="stress_test", stress_run_id=str(run_id))
    with pytest.raises(AAAFError) as refused:
        collect(org, [(1, event)], now=NOW, default_agent="a", stress_run=run_id)
    expected = {"imported": "INVALID_REQUEST", "finished": "CONFLICT", "other agent": "INVALID_REQUEST"}
    assert refused.value.code == expected.get(case, "NOT_FOUND")
    assert org.events(agent.id) == []
