"""Demo data for the anonymised cross-organization benchmark (issue 20 §2, "Done when").

    python -m aaaf.demo.benchmark_orgs [--db URL] [--orgs 6] [--agents-per-org 6] [--now T] [--seed 7]

Draws the demo fleet (:mod:`aaaf.demo.fleet`) for ``orgs × agents-per-org`` agents, deals
them out to ``orgs`` organizations (``bench-org-1`` …), each opted in to the benchmark
(``benchmark_opt_in``), enrolls and collects each one's agents through the services, assesses
them at ``now`` and computes the benchmark — real evidence and real scores all the way.  An
organization that exists already is left as it is (run it again: nothing doubles).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import datetime

from aaaf.demo.clock import demo_now
from aaaf.demo.fleet_month import generate_fleet, parse_now
from aaaf.demo.fleet_profiles import DEFAULT_SEED
from aaaf.errors import AAAFError
from aaaf.models import BenchmarkComputation, dump
from aaaf.services.assess import assess_all
from aaaf.services.benchmarks import compute_benchmarks
from aaaf.services.collect import collect
from aaaf.store import Store, open_store

ORG_PREFIX = "bench-org-"


def seed_benchmark_orgs(
    store: Store, *, now: datetime, orgs: int = 6, agents_per_org: int = 6, seed: int = DEFAULT_SEED
) -> BenchmarkComputation:
    """Create ``orgs`` opted-in organizations with their share of the fleet, assessed at ``now``,
    and publish the benchmark; what the computation did."""
    if orgs < 1 or agents_per_org < 1:
        raise AAAFError("INVALID_REQUEST", "--orgs and --agents-per-org must be at least 1", {})
    fleet = generate_fleet(now, agents=orgs * agents_per_org, seed=seed)
    existing = {organization.name for organization in store.organizations()}
    for index in range(orgs):
        name = f"{ORG_PREFIX}{index + 1}"
        if name in existing:
            continue
        share = fleet.enrollment[index * agents_per_org : (index + 1) * agents_per_org]
        names = {entry["name"] for entry in share}
        organization = store.create_organization(name, config={"benchmark_opt_in": True})
        org = store.scope(organization.id)
        for entry in share:
            org.enroll_agent(
                entry["name"],
                claimed_domains=list(entry.get("domains") or []),
                tools=list(entry.get("tools") or []),
                description=entry.get("description"),
            )
        events = [(None, event) for event in fleet.events if event.get("agent") in names]
        collect(org, events, now=now)
        assess_all(org, now=now, window_end=now, uncertainty=False)
    return compute_benchmarks(store, now=now)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--db", default=None, help="database URL (default: AAAF_DATABASE_URL or the embedded one)"
    )
    parser.add_argument("--orgs", type=int, default=6)
    parser.add_argument("--agents-per-org", type=int, default=6)
    parser.add_argument("--now", default=demo_now())
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    try:
        with open_store(args.db) as store:
            done = seed_benchmark_orgs(
                store,
                now=parse_now(args.now),
                orgs=args.orgs,
                agents_per_org=args.agents_per_org,
                seed=args.seed,
            )
    except AAAFError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    print(json.dumps(dump(done)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
