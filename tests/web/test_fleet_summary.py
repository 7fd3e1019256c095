"""The overview's per-agent summary gives what reading every assessment would give (SQLite
and PostgreSQL): after assessments, a re-assessment, a hold and its approval, a revocation, a
re-issued badge, trust scores, and for agents never assessed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from aaaf.api.web import fleet as fleet_view
from aaaf.api.web import views
from aaaf.services import assess as assess_service
from aaaf.services import trust as trust_service
from aaaf.services.collect import collect
from aaaf.store.records import SignedCredential
from tests.api.conftest import agent_evidence, task_events

SMALL = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


def _slow(org: Any, *, now: datetime) -> tuple[list[Any], list[Any], list[Any], dict[Any, Any]]:
    """The overview's numbers read the slow way: every completed assessment, every current
    badge, every task_completed event, every agent's committed trust score."""
    from aaaf.scoring.trust import SCHEME

    agents = sorted(org.agents(), key=lambda agent: agent.name)
    completed = org.assessments(status="completed")
    rows = fleet_view.fleet_rows(
        agents, fleet_view.composite_history(completed), org.badges(current_only=True), now=now
    )
    assessed = {a.agent_id for a in completed}
    config = org.config()
    required = max(config.min_tasks_performance, config.min_tasks_capability)
    events = org.events_for_agents([a.id for a in agents], types=["task_completed"])
    since = now - timedelta(days=config.window_days)
    due, collecting = [], []
    for agent, reason in assess_service.due_agents(org, now=now):
        tasks = assess_service.completed_tasks_since(events[agent.id], since)
        if agent.id not in assessed and tasks < required:
            collecting.append((agent.name, tasks, required))
        else:
            due.append((agent.name, reason))
    trust = {
        agent_id: (entry.score, entry.tier)
        for agent_id, entry in org.last_committed_scores([a.id for a in agents], SCHEME).items()
    }
    return rows, due, collecting, trust


def _fast(org: Any, *, now: datetime) -> tuple[list[Any], list[Any], list[Any], dict[Any, Any]]:
    """The same numbers as the overview reads them: the summaries."""
    agents, summaries, rows = views.fleet_state(org, now=now)
    due, collecting = views.due_and_collecting(org, agents, summaries, now=now)
    trust = {
        agent_id: (summary.trust_score, summary.trust_tier)
        for agent_id, summary in summaries.items()
        if summary.trust_score is not None or summary.trust_tier is not None
    }
    return (
        rows,
        [(agent.name, reason) for agent, reason in due],
        [(c["agent"].name, c["tasks"], c["required"]) for c in collecting],
        trust,
    )


def _row(row: Any) -> tuple[Any, ...]:
    return (
        row.agent.name,
        None if row.assessment is None else row.assessment.id,
        row.flags,
        row.last_assessed,
        row.hold_reason,
        tuple(sorted(row.axes.items())),
    )


def _same(org: Any, *, now: datetime) -> tuple[list[Any], list[Any], list[Any], dict[Any, Any]]:
    slow, fast = _slow(org, now=now), _fast(org, now=now)
    assert [_row(r) for r in fast[0]] == [_row(r) for r in slow[0]]
    assert fast[1:] == slow[1:]
    return fast


def _sign(slot: Any) -> SignedCredential:
    return SignedCredential(json_data={}, credential_jwt="jwt")


def test_the_summary_matches_the_slow_computation(store: Any) -> None:
    from aaaf.services.keys import create_organization

    now = datetime.now(UTC).replace(microsecond=0)
    organization, _ = create_organization(store, "summary", now=now, config=SMALL)
    org = store.scope(organization.id)
    for name, tasks in (("alpha", 12), ("beta", 10), ("gamma", 3), ("delta", 0)):
        agent = org.enroll_agent(name)
        if tasks:
            org_events = agent_evidence(str(agent.id), tasks)
            collect(org, list(enumerate(org_events, 1)), now=now)
    rows, due, collecting, trust = _same(org, now=now)
    assert [r.flags for r in rows] == [("lacks_evidence",)] * 4
    assert {name for name, _ in due} == {"alpha", "beta"}
    assert collecting == [("delta", 0, 6), ("gamma", 3, 6)]
    assert trust == {}

    # assessments: alpha twice (a change since the previous one), beta once with uncertainty
    first = assess_service.assess_agent(org, "alpha", now=now - timedelta(days=1), uncertainty=False)
    second = assess_service.assess_agent(org, "alpha", now=now, uncertainty=False)
    beta = assess_service.assess_agent(org, "beta", now=now, uncertainty=True)
    rows, due, _, _ = _same(org, now=now)
    alpha_row = next(r for r in rows if r.agent.name == "alpha")
    assert alpha_row.assessment.id == second.id != first.id
    assert alpha_row.axes["performance"].delta is not None
    beta_row = next(r for r in rows if r.agent.name == "beta")
    assert beta_row.axes["performance"].low is not None  # its interval came through
    assert due == []

    # badges issued, then beta's revoked; a hold on alpha's latest, then approved
    alpha_id, beta_id = second.id, beta.id
    org.issue_badge(
        alpha_id, second.agent_id, sign=_sign, valid_until=now + timedelta(days=90), issued_at=now
    )
    org.issue_badge(beta_id, beta.agent_id, sign=_sign, valid_until=now + timedelta(days=90), issued_at=now)
    org.revoke_badge(beta_id, reason="compromised", at=now)
    org.set_review_state(alpha_id, "pending_review")
    rows, _, _, _ = _same(org, now=now)
    assert [r.flags[:1] for r in rows if r.agent.name in ("alpha", "beta")] == [("held",), ("revoked",)]
    org.set_review_state(alpha_id, "approved", reviewer="lead", at=now)
    rows, _, _, _ = _same(org, now=now)
    assert "held" not in next(r for r in rows if r.agent.name == "alpha").flags

    # a superseded credential and a new one: the new one is the current badge
    org.issue_badge(
        beta_id,
        beta.agent_id,
        sign=_sign,
        valid_until=now + timedelta(days=90),
        issued_at=now,
        supersede_reason="re-issued",
    )
    rows, _, _, _ = _same(org, now=now)
    assert "revoked" not in next(r for r in rows if r.agent.name == "beta").flags

    # trust scores, committed; and a later moment at which the badges have expired
    for name in ("alpha", "beta"):
        trust_service.compute_trust(org, org.get_agent(name), at=now, record=True)
    _, _, _, trust = _same(org, now=now)
    assert set(trust) == {org.get_agent("alpha").id, org.get_agent("beta").id}
    rows, due, _, _ = _same(org, now=now + timedelta(days=200))
    assert {name for name, _ in due} == {"alpha", "beta"}
    assert all("expired" in r.flags for r in rows if r.agent.name in ("alpha", "beta"))

    # tasks completed after alpha's latest assessment count towards its re-assessment
    alpha_agent = org.get_agent("alpha")
    later = [
        e
        for i in range(3)
        for e in task_events(str(alpha_agent.id), f"late-{i}", now + timedelta(hours=1 + i))
    ]
    collect(org, list(enumerate(later, 1)), now=now + timedelta(hours=5))
    counts = org.completed_tasks_since_assessed(fresh_since=now - timedelta(days=30))
    assert counts[alpha_agent.id] == 3
    latest = org.latest_completed_assessment(alpha_agent.id)
    slow_count = assess_service.completed_tasks_since(
        org.events(alpha_agent.id, types=["task_completed"]), latest.completed_at
    )
    assert slow_count == 3
    _same(org, now=now + timedelta(hours=5))

    # rebuilt from scratch (the migration's backfill), the rows are the same
    before = org.agent_summaries()
    org.refresh_summaries([agent.id for agent in org.agents()])
    assert org.agent_summaries() == before
