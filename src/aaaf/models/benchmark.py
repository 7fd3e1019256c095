"""Public shapes of the anonymised cross-organization benchmark and of published stress-task
libraries.

A :class:`BenchmarkCell` carries aggregates only — never an organization's or an agent's id
or name; an :class:`AgentStanding` is about the caller's own agent, against such cells.
"""

from __future__ import annotations

from pydantic import Field

from aaaf.models._base import PublicModel


class BenchmarkCell(PublicModel):
    """One published (domain, dimension) distribution: the deciles of the latest valid scores
    of opted-in organizations' agents.  ``domain`` is ``all`` for every agent, else a claimed
    domain; ``dimension`` is a docs/scoring.md dimension or ``performance_composite`` /
    ``capability_composite``."""

    domain: str
    axis: str
    dimension: str
    deciles: list[float] = Field(description="the 10th, 20th, … 90th percentiles (linear interpolation)")
    n_orgs: int
    n_agents: int
    computed_at: str


class BenchmarkTable(PublicModel):
    """Every published cell and the k-anonymity floors they all meet."""

    min_organizations: int
    min_agents: int
    computed_at: str | None
    cells: list[BenchmarkCell]


class DimensionStanding(PublicModel):
    """The agent's score on one dimension and its percentile against one published cell."""

    domain: str
    axis: str
    dimension: str
    score: float
    percentile: float = Field(description="0-100, read off the cell's deciles")
    n_orgs: int
    n_agents: int


class AgentStanding(PublicModel):
    """Where one of the caller's agents stands against the field.

    ``assessment_id`` is the agent's latest valid assessment (None: it has none, and
    ``standings`` is empty); ``standings`` has one entry per published cell of the ``all``
    domain and of each domain the agent claims, for each dimension it has a score on.
    """

    agent_id: str
    agent_name: str
    assessment_id: str | None
    computed_at: str | None
    organization_opted_in: bool
    standings: list[DimensionStanding]


class BenchmarkComputation(PublicModel):
    """What one run of the benchmark job did: how many cells it published, how many it
    withheld below the floors, and how many organizations and agents it read."""

    computed_at: str
    organizations: int
    agents: int
    published: int
    withheld: int


class StressLibrary(PublicModel):
    """A published stress-task library.  ``owned`` tells whether the caller's
    organization published it; a shared library of another organization names no publisher."""

    name: str
    version: str
    visibility: str
    description: str | None = None
    digest: str
    task_count: int
    task_ids: list[str]
    graders: list[str] = Field(description="the check kinds its tasks use")
    owned: bool
    installed: bool
    created_at: str
