"""The overview's per-agent summary gives what reading every assessment would give (SQLite
and PostgreSQL): after assessments, a re-assessment, a hold and its approval, a revocation, a
re-issued badge, trust scores, and for agents never assessed."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from aaaf.api.web import fleet as fleet_view
from aaaf.api.web import views
from aaaf.scoring.defaults import AXES
from aaaf.scoring.fleet_standing import largest_change
from aaaf.services import assess as assess_service
from aaaf.services import dashboard_pages, reassessment
from aaaf.services import trust as trust_service
from aaaf.services.collect import collect
from aaaf.store.agent_summaries import FLAGS, SORTS
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
    for agent, reason in reassessment.due_agents(org, now=now):
        tasks = reassessment.completed_tasks_since(events[agent.id], since)
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
    every = org.fleet_page(now=now, flag=None, tier=None, sort="name", page=1, size=10_000)
    rows = views.page_rows(every.rows, now=now)
    due, collecting = dashboard_pages.due_and_collecting(org, now=now)
    trust = {
        agent_id: (summary.trust_score, summary.trust_tier)
        for agent_id, summary in org.agent_summaries().items()
        if summary.trust_score is not None or summary.trust_tier is not None
    }
    return (
        rows,
        [(d.agent.name, d.reason) for d in due],
        [(c.agent.name, c.tasks, c.required) for c in collecting],
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


def _slow_select(rows: list[Any], *, flag: str | None, tier: str | None, sort: str) -> list[str]:
    """The fleet filtered and sorted in Python: the names in the order the table lists them."""
    chosen = [row for row in rows if flag is None or flag in row.flags]
    if tier:
        chosen = [r for r in chosen if r.withheld is None and any(c.tier == tier for c in r.axes.values())]
    if sort in ("performance", "capability"):
        chosen.sort(key=lambda row: -(-1.0 if row.axes[sort].score is None else row.axes[sort].score))
    elif sort == "change":
        chosen.sort(key=lambda row: (row.change() is None, row.change() or 0.0))
    elif sort == "assessed":
        chosen.sort(key=lambda row: -(row.last_assessed.timestamp() if row.last_assessed else float("-inf")))
    return [row.agent.name for row in chosen]


def _fast_select(org: Any, *, now: datetime, flag: str | None, tier: str | None, sort: str) -> list[str]:
    """The same, read a page of two at a time from the summaries."""
    names, page, pages = [], 1, 1
    while page <= pages:
        shown = org.fleet_page(now=now, flag=flag, tier=tier, sort=sort, page=page, size=2)
        names += [agent.name for agent, _ in shown.rows]
        pages = shown.pages
        page += 1
    assert shown.matched == len(names)
    return names


def _counts_and_orders(org: Any, rows: list[Any], *, now: datetime) -> None:
    """The summary's counts (per flag, per tier) and every filter and order agree with the rows."""
    counts = org.fleet_counts(now=now)
    assert counts.total == len(rows)
    assert counts.flags == {flag: sum(flag in row.flags for row in rows) for flag in fleet_view.FLAGS}
    for axis in AXES:
        slow = Counter(
            r.axes[axis].tier for r in rows if r.withheld is None and r.axes[axis].tier is not None
        )
        assert fleet_view.distribution(counts.tiers[axis], axis) == fleet_view.distribution(slow, axis)
    tiers = {cell.tier for row in rows for cell in row.axes.values() if cell.tier is not None}
    choices = [(None, None, sort) for sort in SORTS]
    choices += [(flag, None, "name") for flag in fleet_view.FLAGS]
    choices += [(None, tier, "change") for tier in sorted(tiers)]
    for flag, tier, sort in choices:
        fast = _fast_select(org, now=now, flag=flag, tier=tier, sort=sort)
        assert fast == _slow_select(rows, flag=flag, tier=tier, sort=sort), (flag, tier, sort)


def _same(org: Any, *, now: datetime) -> tuple[list[Any], list[Any], list[Any], dict[Any, Any]]:
    slow, fast = _slow(org, now=now), _fast(org, now=now)
    assert [_row(r) for r in fast[0]] == [_row(r) for r in slow[0]]
    assert fast[1:] == slow[1:]
    _counts_and_orders(org, slow[0], now=now)
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
    slow_count = reassessment.completed_tasks_since(
        org.events(alpha_agent.id, types=["task_completed"]), latest.completed_at
    )
    assert slow_count == 3
    _same(org, now=now + timedelta(hours=5))

    # rebuilt from scratch (the migration's backfill), the rows are the same
    before = org.agent_summaries()
    org.refresh_summaries([agent.id for agent in org.agents()])
    assert org.agent_summaries() == before


def test_the_flags_are_the_tables() -> None:
    assert tuple(fleet_view.FLAGS) == FLAGS


def test_the_change_is_the_largest_move() -> None:
    assert largest_change([0.12, -0.05]) == 0.12
    assert largest_change([0.05, -0.2]) == -0.2
    assert largest_change([0.1, -0.1]) == -0.1  # a fall before a rise of the same size
    assert largest_change([None, 0.3]) == 0.3
    assert largest_change([None, None]) is None
