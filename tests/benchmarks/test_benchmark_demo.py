"""The multi-organization demo data of the benchmark (issue 20 §2, "Done when"), run small on
both databases: real fleet evidence, real assessments, published cells; and the periodic job."""

from __future__ import annotations

from datetime import UTC, datetime

from aaaf.demo.benchmark_orgs import seed_benchmark_orgs
from aaaf.jobs.periodic import run_benchmarks
from aaaf.services.benchmarks import agent_standing, benchmark_table
from aaaf.store import Store

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def test_the_demo_seeds_opted_in_organizations_and_publishes_cells(store: Store) -> None:
    done = seed_benchmark_orgs(store, now=NOW, orgs=5, agents_per_org=4)
    assert (done.organizations, done.agents) == (5, 20)
    table = benchmark_table(store)
    published = {(cell.domain, cell.dimension) for cell in table.cells}
    assert {
        ("all", "performance_composite"),
        ("all", "capability_composite"),
        ("all", "accuracy"),
    } <= published
    assert all(cell.n_orgs == 5 and cell.n_agents >= 20 for cell in table.cells)
    assert all(cell.deciles == sorted(cell.deciles) for cell in table.cells)
    # an agent of the demo stands somewhere in the field
    org = store.scope(next(o for o in store.organizations() if o.name == "bench-org-1").id)
    standing = agent_standing(org, org.agents()[0].name, now=NOW)
    assert standing.standings and all(0 <= row.percentile <= 100 for row in standing.standings)
    # run again: the organizations exist, nothing doubles; the periodic job gives the same cells
    assert seed_benchmark_orgs(store, now=NOW, orgs=5, agents_per_org=4) == done
    assert run_benchmarks(store, now=NOW)["published"] == done.published
    assert benchmark_table(store).cells == table.cells
