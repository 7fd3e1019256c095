"""The anonymised cross-organization benchmark (issue 20 §2; document 004 §8 phase 3).

* :func:`compute_benchmarks` (the hourly job and ``aaaf benchmarks compute``): per domain
  (``all``, and each domain agents claim) and per dimension (every dimension of both axes
  and the two composites), the deciles of the latest valid scores of the agents of
  organizations that opted in (``benchmark_opt_in``, off by default).  A cell is published
  only when it aggregates at least ``BENCHMARK_MIN_ORGANIZATIONS`` (5) organizations and
  ``BENCHMARK_MIN_AGENTS`` (20) agents (k-anonymity); the rest are withheld — not stored.
  The published table has no organization or agent column.
* :func:`benchmark_table` — the published cells (``GET /api/v1/benchmarks``).
* :func:`agent_standing` — where one of the caller's own agents stands: its percentile per
  dimension against the published cells (``GET /api/v1/agents/{agent_id}/benchmark``, the
  dashboard's agent page).  An organization's own agents are part of the cells only as part
  of the aggregate; nothing identifies any other organization's agents.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime

from aaaf.models import AgentStanding, BenchmarkCell, BenchmarkComputation, BenchmarkTable, DimensionStanding
from aaaf.scoring.defaults import (
    AXES,
    BENCHMARK_ALL_DOMAINS,
    BENCHMARK_MIN_AGENTS,
    BENCHMARK_MIN_ORGANIZATIONS,
    COMPOSITE_DIMENSIONS,
    AAAFConfig,
)
from aaaf.stats.benchmark import deciles, percentile_against
from aaaf.store import OrgStore, Store
from aaaf.store.benchmarks import (
    AgentScores,
    StoredCell,
    agent_latest_scores,
    benchmark_inputs,
    read_cells,
    replace_cells,
)

AXIS_OF: dict[str, str] = {
    **{dimension: axis for axis, dimensions in AXES.items() for dimension in dimensions},
    **COMPOSITE_DIMENSIONS,
}


# performance before capability; each axis's composite first, then its dimensions in SCORING.md order
_DIMENSION_ORDER: dict[str, int] = {
    name: position
    for position, name in enumerate(
        ["performance_composite", *AXES["performance"], "capability_composite", *AXES["capability"]]
    )
}


def _cell_order(cell: StoredCell) -> tuple[int, str, int]:
    return (cell.domain != BENCHMARK_ALL_DOMAINS, cell.domain, _DIMENSION_ORDER.get(cell.dimension, 99))


def _iso(ts: datetime) -> str:
    text = ts.astimezone(UTC).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def publishable(n_orgs: int, n_agents: int) -> bool:
    """The k-anonymity floors: at least 5 organizations and 20 agents."""
    return n_orgs >= BENCHMARK_MIN_ORGANIZATIONS and n_agents >= BENCHMARK_MIN_AGENTS


def build_cells(inputs: Sequence[AgentScores], now: datetime) -> tuple[list[StoredCell], int]:
    """The publishable cells of ``inputs`` and how many cells were withheld (pure)."""
    values: dict[tuple[str, str], list[float]] = defaultdict(list)
    organizations: dict[tuple[str, str], set[object]] = defaultdict(set)
    for agent in inputs:
        for domain in (BENCHMARK_ALL_DOMAINS, *[d for d in agent.domains if d != BENCHMARK_ALL_DOMAINS]):
            for dimension, score in agent.scores.items():
                if dimension not in AXIS_OF:
                    continue
                values[(domain, dimension)].append(score)
                organizations[(domain, dimension)].add(agent.organization_id)
    cells: list[StoredCell] = []
    withheld = 0
    for (domain, dimension), scores in sorted(values.items()):
        n_orgs, n_agents = len(organizations[(domain, dimension)]), len(scores)
        if not publishable(n_orgs, n_agents):
            withheld += 1
            continue
        cells.append(
            StoredCell(domain, AXIS_OF[dimension], dimension, deciles(scores), n_orgs, n_agents, now)
        )
    return cells, withheld


def compute_benchmarks(store: Store, *, now: datetime) -> BenchmarkComputation:
    """Recompute and publish every cell at ``now`` (replacing the previous set); idempotent."""
    inputs = benchmark_inputs(store.engine, now)
    cells, withheld = build_cells(inputs, now)
    replace_cells(store.engine, cells)
    return BenchmarkComputation(
        computed_at=_iso(now),
        organizations=len({agent.organization_id for agent in inputs}),
        agents=len(inputs),
        published=len(cells),
        withheld=withheld,
    )


def _cell(cell: StoredCell) -> BenchmarkCell:
    return BenchmarkCell(
        domain=cell.domain,
        axis=cell.axis,
        dimension=cell.dimension,
        deciles=list(cell.deciles),
        n_orgs=cell.n_orgs,
        n_agents=cell.n_agents,
        computed_at=_iso(cell.computed_at),
    )


def benchmark_table(
    store: Store | OrgStore, *, domain: str | None = None, dimension: str | None = None
) -> BenchmarkTable:
    """The published cells (optionally of one domain and/or dimension)."""
    stored = read_cells(store.engine, domains=None if domain is None else [domain])
    if dimension is not None:
        stored = [cell for cell in stored if cell.dimension == dimension]
    # the floors are checked again on the way out: a cell below them is never shown
    stored = sorted((cell for cell in stored if publishable(cell.n_orgs, cell.n_agents)), key=_cell_order)
    computed = max((cell.computed_at for cell in stored), default=None)
    return BenchmarkTable(
        min_organizations=BENCHMARK_MIN_ORGANIZATIONS,
        min_agents=BENCHMARK_MIN_AGENTS,
        computed_at=None if computed is None else _iso(computed),
        cells=[_cell(cell) for cell in stored],
    )


def agent_standing(
    org: OrgStore, agent: str, *, now: datetime, config: AAAFConfig | None = None
) -> AgentStanding:
    """Where the organization's agent ``agent`` (its id or name; ``NOT_FOUND`` for an agent of
    another organization) stands: per published cell of ``all`` and of each domain it claims,
    its latest valid score's percentile.  Empty when it has no valid assessment.  ``config``:
    the organization's configuration when the caller has read it."""
    found = org.get_agent(agent)
    domains = [
        BENCHMARK_ALL_DOMAINS,
        *sorted({d for d in found.claimed_domains if d != BENCHMARK_ALL_DOMAINS}),
    ]
    with org.reading() as connection:  # the page's shared read, when it has one
        assessment_id, scores = agent_latest_scores(connection, org.organization_id, found.id, now)
        cells = read_cells(connection, domains=domains) if scores else []
    order = {domain: position for position, domain in enumerate(domains)}
    standings = [
        DimensionStanding(
            domain=cell.domain,
            axis=cell.axis,
            dimension=cell.dimension,
            score=scores[cell.dimension],
            percentile=round(percentile_against(cell.deciles, scores[cell.dimension]), 2),
            n_orgs=cell.n_orgs,
            n_agents=cell.n_agents,
        )
        for cell in sorted(cells, key=lambda c: (order[c.domain], *_cell_order(c)[2:]))
        if cell.dimension in scores and publishable(cell.n_orgs, cell.n_agents)
    ]
    computed = max((cell.computed_at for cell in cells), default=None)
    return AgentStanding(
        agent_id=str(found.id),
        agent_name=found.name,
        assessment_id=None if assessment_id is None else str(assessment_id),
        computed_at=None if computed is None else _iso(computed),
        organization_opted_in=bool((org.config() if config is None else config).benchmark_opt_in),
        standings=standings,
    )
