"""The results of several stress runs in one read (the agent page's) are each run's own read,
on SQLite and PostgreSQL; another organization's run reads as having none."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from aaaf.services.keys import create_organization
from tests.store.factories import finished_stress_run


def test_the_results_of_several_runs_are_each_runs_own(store: Any) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    mine = store.scope(create_organization(store, "mine", now=now)[0].id)
    theirs = store.scope(create_organization(store, "theirs", now=now)[0].id)
    agent = mine.enroll_agent("alpha")
    runs = [finished_stress_run(mine, agent.id, now=now, tasks=tasks) for tasks in (3, 0, 2)]
    foreign = finished_stress_run(theirs, theirs.enroll_agent("beta").id, now=now, tasks=2)
    read = mine.results_of_stress_runs([run.id for run in runs] + [foreign.id])
    assert read == {**{run.id: mine.stress_run_results(run.id) for run in runs}, foreign.id: []}
    assert [row["task_key"] for row in read[runs[0].id]] == ["speed-2", "speed-1", "speed-0"]
    assert mine.results_of_stress_runs([]) == {}
