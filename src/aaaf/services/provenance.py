"""Which stored stress runs vouch for stress-test evidence (docs/stress-tests.md "Provenance").

The pure core decides provenance from a set of run ids it is handed
(:mod:`aaaf.scoring.evidence_sources`); this module reads that set from the store.  A run
vouches for its events when this installation's harness executed it: any stored run of the
agent except an imported inspect log (adapter :data:`IMPORTED_LOG_ADAPTER`), which the
organization ran itself — whatever the run's status, since a run that failed after its
evidence was recorded still recorded it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.repositories.stress_runs import StressRun

IMPORTED_LOG_ADAPTER = "inspect_log"
"""The adapter of a stress run made from an organization's own inspect_ai log (``aaaf
import-inspect``): stored, but not executed by this installation."""


@dataclass(frozen=True)
class AgentRuns:
    """One agent's stored stress runs by who executed them (ids as text, as events name them)."""

    harness: frozenset[str] = frozenset()
    imported: frozenset[str] = frozenset()


def is_harness_run(run: StressRun) -> bool:
    return str(run.adapter) != IMPORTED_LOG_ADAPTER


def _grouped(runs: Iterable[StressRun]) -> dict[uuid.UUID, AgentRuns]:
    harness: dict[uuid.UUID, set[str]] = {}
    imported: dict[uuid.UUID, set[str]] = {}
    for run in runs:
        (harness if is_harness_run(run) else imported).setdefault(run.agent_id, set()).add(str(run.id))
    return {
        agent: AgentRuns(frozenset(harness.get(agent, ())), frozenset(imported.get(agent, ())))
        for agent in harness.keys() | imported.keys()
    }


def agent_runs(org: OrgStore, agent_id: uuid.UUID) -> AgentRuns:
    """The agent's stored runs (none: an empty :class:`AgentRuns`)."""
    return _grouped(org.stress_runs(agent_id)).get(agent_id, AgentRuns())


def runs_by_agent(org: OrgStore) -> dict[uuid.UUID, AgentRuns]:
    """Every agent's stored runs, in one query (``assess --all``); an agent without runs is absent."""
    return _grouped(org.stress_runs())
