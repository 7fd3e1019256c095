"""Workflow scores (docs/scoring.md §6; docs/scoring.md §5): per-run S and capped agent weights."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel


class WorkflowRun(PublicModel):
    """One run's S and its four parts (success, cost, latency, reliability)."""

    agent: str
    task_id: str
    timestamp: str | None
    s: Number
    s_success: Number
    s_cost: Number
    s_latency: Number
    s_reliability: Number
    gated: bool
    unplanned_retries: int
    inputs: dict[str, object]
    in_window: bool


class WorkflowAgentMean(PublicModel):
    """An agent's window mean of S over its most recent ``runs`` of ``runs_total``."""

    agent: str
    window_mean: Number | None
    runs: int
    runs_total: int


class WorkflowScore(PublicModel):
    scheme: str
    window: int
    runs: list[WorkflowRun]
    agents: list[WorkflowAgentMean]
    digest: str


class WorkflowAgentWeight(WorkflowAgentMean):
    weight: Number
    capped: bool


class WorkflowWeights(PublicModel):
    """Each agent's window mean as a weight, normalised to 1 and capped."""

    scheme: str
    window: int
    cap: Number
    method: str
    rounds: int
    positive_agents: int
    positive_needed: int
    agents: list[WorkflowAgentWeight]
    digest: str
