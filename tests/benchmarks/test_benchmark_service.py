"""The anonymised cross-organization benchmark on both databases (issue 20 §2): deciles from
hand-worked numbers, the k-anonymity floors (5 organizations, 20 agents), opt-in only, latest
valid assessments only, and an agent's standing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect

from aaaf.errors import AAAFError
from aaaf.services.benchmarks import agent_standing, benchmark_table, compute_benchmarks
from aaaf.store import Store
from aaaf.store.tables_shared import benchmark_cells
from tests.benchmarks.seeding import scored_agent, seeded_org

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
# 20 agents scoring 0.05, 0.10, … 1.00: the p-th quantile (definition 7) sits at position
# h = 19p, so it is (1 + 19p) / 20 — 0.145, 0.24, … 0.905
TWENTY = [i / 20 for i in range(1, 21)]
HAND_DECILES = [(1 + 19 * k / 10) / 20 for k in range(1, 10)]


def _five_orgs(store: Store, *, scores: list[float] = TWENTY, orgs: int = 5) -> list:
    per = len(scores) // orgs
    return [seeded_org(store, f"org{o}", scores[o::orgs][:per] if per else [], now=NOW) for o in range(orgs)]


def _cell(store: Store, domain: str = "all", dimension: str = "accuracy"):
    cells = [c for c in benchmark_table(store).cells if c.domain == domain and c.dimension == dimension]
    return cells[0] if cells else None


def test_deciles_of_five_orgs_and_twenty_agents_are_the_hand_worked_ones(store: Store) -> None:
    _five_orgs(store)
    done = compute_benchmarks(store, now=NOW)
    assert (done.organizations, done.agents) == (5, 20)
    cell = _cell(store)
    assert cell is not None
    assert cell.deciles == pytest.approx(HAND_DECILES, abs=1e-12)
    assert (cell.n_orgs, cell.n_agents, cell.axis) == (5, 20, "performance")
    assert HAND_DECILES[0] == pytest.approx(0.145) and HAND_DECILES[4] == pytest.approx(0.525)
    # every agent claims "code": that cell is published too, with the same numbers
    assert _cell(store, "code").deciles == pytest.approx(HAND_DECILES)


def test_four_organizations_are_not_published(store: Store) -> None:
    _five_orgs(store, orgs=4)  # 20 agents of 4 organizations
    done = compute_benchmarks(store, now=NOW)
    assert (done.organizations, done.agents, done.published) == (4, 20, 0)
    assert done.withheld >= 1
    assert benchmark_table(store).cells == []


def test_nineteen_agents_are_not_published(store: Store) -> None:
    _five_orgs(store, scores=TWENTY[:15], orgs=5)  # 3 per org: 15 agents
    for org_index, extra in enumerate(TWENTY[15:19]):  # 4 more: 19 in 5 organizations
        org = store.scope(store.organizations()[org_index].id)
        scored_agent(org, f"extra-{org_index}", {"accuracy": extra}, now=NOW)
    done = compute_benchmarks(store, now=NOW)
    assert (done.organizations, done.agents, done.published) == (5, 19, 0)
    with store.engine.connect() as connection:
        assert connection.execute(benchmark_cells.select()).all() == []


def test_organizations_that_did_not_opt_in_are_left_out(store: Store) -> None:
    _five_orgs(store)
    seeded_org(store, "outsider", [0.99] * 10, now=NOW, opt_in=False)
    compute_benchmarks(store, now=NOW)
    cell = _cell(store)
    assert (cell.n_orgs, cell.n_agents) == (5, 20)
    assert cell.deciles == pytest.approx(HAND_DECILES)
    # opting out later takes an organization's agents out at the next computation: 4 left
    store.scope(store.organizations()[0].id).update_config(benchmark_opt_in=False)
    compute_benchmarks(store, now=NOW)
    assert _cell(store) is None


def test_only_the_latest_valid_assessment_counts(store: Store) -> None:
    orgs = _five_orgs(store)
    agent = orgs[0].agents()[0]
    first = orgs[0].latest_completed_assessment(agent.id).dimensions
    # a newer expired assessment and a newer one held for review do not replace the valid one
    scored_agent(orgs[0], "", {"accuracy": 0.0}, now=NOW, agent=agent, completed_days_ago=0.5, valid_days=0.1)
    scored_agent(
        orgs[0],
        "",
        {"accuracy": 0.0},
        now=NOW,
        agent=agent,
        completed_days_ago=0.2,
        review_state="pending_review",
    )
    compute_benchmarks(store, now=NOW)
    assert _cell(store).deciles == pytest.approx(HAND_DECILES)
    # a newer valid one does: 0.05 → 1.0 for that agent
    assert first  # the seeded score is stored
    scored_agent(orgs[0], "", {"accuracy": 1.0}, now=NOW, agent=agent, completed_days_ago=0.1)
    compute_benchmarks(store, now=NOW)
    assert _cell(store).deciles != pytest.approx(HAND_DECILES)


def test_the_table_has_no_organization_or_agent_column(store: Store) -> None:
    columns = {column["name"] for column in inspect(store.engine).get_columns("benchmark_cells")}
    assert columns == {"id", "domain", "axis", "dimension", "deciles", "n_orgs", "n_agents", "computed_at"}


def test_agent_standing_is_read_off_the_published_deciles(store: Store) -> None:
    orgs = _five_orgs(store)
    mine = orgs[0]  # its agents score 0.05, 0.30, 0.55, 0.80 — part of the aggregate
    compute_benchmarks(store, now=NOW)
    standing = agent_standing(mine, "org0-agent-2", now=NOW)  # accuracy 0.55
    assert standing.assessment_id is not None and standing.organization_opted_in
    accuracy = next(s for s in standing.standings if s.domain == "all" and s.dimension == "accuracy")
    # between d50 = 0.525 and d60 = 0.62: 50 + 10 * 0.025 / 0.095 = 52.63
    assert accuracy.percentile == pytest.approx(52.63)
    assert (accuracy.score, accuracy.n_orgs, accuracy.n_agents) == (0.55, 5, 20)
    assert [s.domain for s in standing.standings] == ["all", "code"]
    assert next(
        s for s in agent_standing(mine, "org0-agent-0", now=NOW).standings
    ).percentile == pytest.approx(round(10 * 0.05 / 0.145, 2))
    # a dimension without a published cell gives no standing
    scored_agent(mine, "probe", {"accuracy": 0.9, "speed": 0.5}, now=NOW)
    assert {s.dimension for s in agent_standing(mine, "probe", now=NOW).standings} == {"accuracy"}
    # another organization's agent is not found from here (by id or by name)
    other = orgs[1].agents()[0]
    for ref in (str(other.id), other.name):
        with pytest.raises(AAAFError) as raised:
            agent_standing(mine, ref, now=NOW)
        assert raised.value.code == "NOT_FOUND"


def test_an_agent_without_a_valid_assessment_has_no_standing(store: Store) -> None:
    orgs = _five_orgs(store)
    compute_benchmarks(store, now=NOW)
    orgs[0].enroll_agent("newcomer", claimed_domains=["code"], tools=[])
    standing = agent_standing(orgs[0], "newcomer", now=NOW)
    assert standing.assessment_id is None and standing.standings == []


def test_computing_twice_gives_the_same_cells(store: Store) -> None:
    _five_orgs(store)
    first = compute_benchmarks(store, now=NOW)
    cells = benchmark_table(store).cells
    assert compute_benchmarks(store, now=NOW) == first
    assert benchmark_table(store).cells == cells
