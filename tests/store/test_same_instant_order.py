"""Of an agent's assessments completed in the same instant (and created in the same one), the
current is the one with the greatest id, whatever order the rows were written in, on SQLite and
PostgreSQL, and every reader picks the same one (docs/scoring.md §3.7): the store's own order
decided it before (a CLI test failed 3 times in 50)."""

from __future__ import annotations

from aaaf.store import Agent, Assessment, OrgStore, Store
from aaaf.store.assessment_batch import latest_completed_composites
from aaaf.store.benchmarks import latest_valid_assessment_ids
from aaaf.store.engine import read_connection

from .factories import T0, completed_assessment, minutes, org_of

DONE = T0 + minutes(5)


def _tied(org: OrgStore, agent: Agent) -> Assessment:
    """One more assessment of ``agent`` created at T0 and completed at ``DONE``, like the others."""
    return completed_assessment(org, agent, type="full", completed_at=DONE, created_at=T0)


def test_the_greatest_id_is_current_among_assessments_completed_in_one_instant(store: Store) -> None:
    org = org_of(store)
    agent = org.enroll_agent("twins")
    written = [_tied(org, agent) for _ in range(3)]
    # the current one written neither first nor last: neither order of the rows can find it
    while max(written, key=lambda a: a.id) in (written[0], written[-1]):
        written.append(_tied(org, agent))
    current = max(written, key=lambda a: a.id)
    assert {(a.completed_at, a.created_at) for a in written} == {(DONE, T0)}

    latest = org.latest_completed_assessment(agent.id)
    assert latest is not None and latest.id == current.id
    assert max(org.assessments(agent.id), key=lambda a: a.completion_order).id == current.id
    assert latest_completed_composites(org.engine, org.organization_id, [agent.id])[
        agent.id
    ].assessment_id == (current.id)
    with read_connection(org.engine) as connection:
        assert latest_valid_assessment_ids(connection, [agent.id], DONE + minutes(1)) == {
            agent.id: current.id
        }
    # "what changed" compares the current one with the next in the same order
    following = max((a for a in written if a.id != current.id), key=lambda a: a.id)
    assert org.previous_composite_id(agent.id, current.id, DONE) == following.id
