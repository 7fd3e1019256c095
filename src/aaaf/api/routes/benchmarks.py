"""The anonymised cross-organization benchmark over HTTP (issue 20 §2).

* ``GET /api/v1/benchmarks[?domain=&dimension=]`` (``read``) — the published cells: per
  (domain, dimension) the deciles of opted-in organizations' latest valid scores, with how
  many organizations and agents each aggregates; only cells of at least 5 organizations and
  20 agents exist (:mod:`aaaf.services.benchmarks`).  No organization or agent is named.
* ``GET /api/v1/agents/{agent_id}/benchmark`` (``read``) — where one of the caller's own
  agents stands: its percentile per dimension against those cells (another organization's
  agent is 404, as if it did not exist).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from aaaf.api.deps import NowDep, Reader
from aaaf.models import AgentStanding, BenchmarkTable
from aaaf.services import benchmarks as benchmark_service

router = APIRouter(tags=["benchmarks"])


@router.get("/api/v1/benchmarks", response_model=BenchmarkTable, operation_id="list_benchmarks")
def list_benchmarks(
    org: Reader,
    domain: Annotated[str | None, Query(description="Only this domain's cells (`all`: every agent).")] = None,
    dimension: Annotated[str | None, Query(description="Only this dimension's cells.")] = None,
) -> BenchmarkTable:
    """The published benchmark cells (deciles; k-anonymous: >= 5 organizations, >= 20 agents)."""
    return benchmark_service.benchmark_table(org, domain=domain, dimension=dimension)


@router.get(
    "/api/v1/agents/{agent_id}/benchmark", response_model=AgentStanding, operation_id="get_agent_benchmark"
)
def get_agent_benchmark(agent_id: str, org: Reader, now: NowDep) -> AgentStanding:
    """Where the caller's agent stands against the field: its percentile per published cell."""
    return benchmark_service.agent_standing(org, agent_id, now=now)
