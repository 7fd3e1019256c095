"""A fleet triggered at once (issue 34 §1), on SQLite and PostgreSQL: every agent's ``pending``
assessment and its job in one transaction — all of them or none — one job per agent, and a
second trigger while they are pending makes nothing more."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from aaaf.errors import AAAFError
from aaaf.jobs.queue import ProcrastinateQueue, build_app
from aaaf.services import assessment_jobs
from aaaf.services.assessment_jobs import trigger_assessments
from tests.cli.events_factory import NOW
from tests.jobs.helpers import RecordingQueue, assessable_agent
from tests.sql_statements import statements


def _fleet(org: Any, size: int = 3) -> list[Any]:
    return [assessable_agent(org, f"agent-{i}", now=NOW) for i in range(size)]


def _all_assessments(org: Any, agents: list[Any]) -> list[Any]:
    return [a for agent in agents for a in org.assessments(agent.id)]


def test_a_bulk_trigger_records_one_pending_assessment_and_one_job_per_agent(store) -> None:
    org = store.scope(store.default_organization().id)
    agents = _fleet(org)
    queue = RecordingQueue()
    records = trigger_assessments(org, agents, queue, now=NOW)
    assert [r.agent_id for r in records] == [a.id for a in agents]
    assert {r.status for r in records} == {"pending"}
    assert queue.assessments == [r.id for r in records]
    with pytest.raises(AAAFError) as refused:  # while they are pending: nothing more
        trigger_assessments(org, agents, queue, now=NOW + timedelta(minutes=1))
    assert refused.value.code == "ASSESSMENT_IN_PROGRESS"
    assert queue.assessments == [r.id for r in records]
    assert sorted(a.id for a in _all_assessments(org, agents)) == sorted(r.id for r in records)


def test_a_bulk_trigger_refused_for_one_agent_records_none(store) -> None:
    org = store.scope(store.default_organization().id)
    agents = _fleet(org)
    bare = org.enroll_agent("no-evidence")
    queue = RecordingQueue()
    with pytest.raises(AAAFError) as refused:
        trigger_assessments(org, [*agents, bare], queue, now=NOW)
    assert refused.value.code == "INSUFFICIENT_EVIDENCE"
    assert _all_assessments(org, agents) == [] and queue.assessments == []


def test_a_bulk_trigger_is_one_transaction(store) -> None:
    """The last agent's assessment already runs: the records written before it roll back."""
    org = store.scope(store.default_organization().id)
    agents = _fleet(org)
    (running,) = trigger_assessments(org, agents[-1:], RecordingQueue(), now=NOW)
    queue = RecordingQueue()
    with pytest.raises(AAAFError) as refused:
        trigger_assessments(org, agents, queue, now=NOW)
    assert refused.value.code == "ASSESSMENT_IN_PROGRESS"
    assert [a.id for a in _all_assessments(org, agents)] == [running.id] and queue.assessments == []

    class Broken(RecordingQueue):
        def defer_assessments(self, connection: Any, organization_id: Any, assessment_ids: Any) -> None:
            raise RuntimeError("the queue is down")

    with pytest.raises(RuntimeError):
        trigger_assessments(org, agents[:-1], Broken(), now=NOW)
    assert [a.id for a in _all_assessments(org, agents)] == [running.id]


def _assess_jobs(store: Any) -> list[tuple[str, str, str]]:
    with store.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT args ->> 'assessment_id', queueing_lock, status::text FROM procrastinate_jobs"
                " WHERE task_name = 'aaaf.assess' ORDER BY 1"
            )
        ).all()
    return [(row[0], row[1], row[2]) for row in rows]


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_bulk_trigger_queues_one_procrastinate_job_per_agent(store: Any, store_url: str) -> None:
    org = store.scope(store.default_organization().id)
    agents = _fleet(org)
    queue = ProcrastinateQueue(build_app(store_url, lambda: store))
    records = trigger_assessments(org, agents, queue, now=NOW)
    expected = sorted((str(r.id), f"assessment:{r.id}", "todo") for r in records)
    assert _assess_jobs(store) == expected
    with pytest.raises(AAAFError):
        trigger_assessments(org, agents, queue, now=NOW)
    # the sweep queueing them again while they wait: the waiting jobs are kept, none doubled
    with store.engine.begin() as connection:
        queue.defer_assessments(connection, org.organization_id, [r.id for r in records])
    assert _assess_jobs(store) == expected


def _statements_of_a_trigger(store: Any, org: Any, agents: list[Any]) -> int:
    with statements(store) as executed:
        trigger_assessments(org, agents, RecordingQueue(), now=NOW)
    return len(executed)


def test_a_bulk_trigger_costs_the_same_statements_whatever_the_fleet(store) -> None:
    """Every record and its ``assessment.started`` are written at once: 2 or 6 agents, the
    same statements (the trigger of 40 agents made 451, 11 an agent, and took about as long
    as scoring them)."""
    org = store.scope(store.default_organization().id)
    agents = [assessable_agent(org, f"agent-{i}", now=NOW) for i in range(8)]
    hook = org.create_webhook("https://example.com/hook", ["assessment.started"], secret_sealed="sealed")
    small = _statements_of_a_trigger(store, org, agents[:2])
    assert _statements_of_a_trigger(store, org, agents[2:]) == small
    started = [json.loads(d.payload)["data"] for d in org.webhook_deliveries(hook.id)]
    assert sorted(data["agent_id"] for data in started) == sorted(str(agent.id) for agent in agents)
    assert {(data["type"], data["status"]) for data in started} == {("passive_only", "pending")}


def test_a_bulk_trigger_naming_an_agent_twice_records_none(store) -> None:
    org = store.scope(store.default_organization().id)
    agents = _fleet(org)
    queue = RecordingQueue()
    with pytest.raises(AAAFError) as refused:
        trigger_assessments(org, [*agents, agents[0]], queue, now=NOW)
    assert refused.value.code == "ASSESSMENT_IN_PROGRESS"
    assert refused.value.details["agent"] == agents[0].name
    assert _all_assessments(org, agents) == [] and queue.assessments == []


def test_a_trigger_reads_and_checks_the_evidence_with_the_collector_paused(
    store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As assess --all loads: an automatic collection re-scans the whole heap while the rows
    are read (in 3 of 9 triggers of the bench fleet: 0.13-0.15 s of CPU instead of 0.03-0.05)."""
    import gc

    from aaaf.services import assess as assess_service

    org = store.scope(store.default_organization().id)
    agents = _fleet(org)
    collecting: list[tuple[str, bool]] = []
    read, start = type(org).events_for_agents, assess_service.start_assessments

    def reading(self: Any, *args: Any, **kwargs: Any) -> Any:
        collecting.append(("read", gc.isenabled()))
        return read(self, *args, **kwargs)

    def starting(*args: Any, **kwargs: Any) -> Any:
        collecting.append(("check and record", gc.isenabled()))
        return start(*args, **kwargs)

    monkeypatch.setattr(type(org), "events_for_agents", reading)
    monkeypatch.setattr(assess_service, "start_assessments", starting)
    # the agents whose events are read: those a count in the database does not settle
    monkeypatch.setattr(assessment_jobs, "_met_by_completed_tasks", lambda *args: frozenset())
    assert gc.isenabled()
    trigger_assessments(org, agents, RecordingQueue(), now=NOW)
    assert collecting == [("read", False), ("check and record", False)]
    assert gc.isenabled()  # restored
