"""The four built-in schemes, registered under their names (:mod:`aaaf.scoring.schemes`).

Each adapter is the scheme's own entry point behind the one signature
``score(evidence, config, at)``:

* ``aaaf`` — document 004: an agent's events → :class:`~aaaf.scoring.results.AAAFResult`
  for the window ending at ``at`` (assessment type ``full``);
* ``trust`` — document 000: an agent's events → :class:`~aaaf.scoring.trust.TrustResult` at
  ``at`` (its config also holds the AAAF config of the operational fill-ins and the adaptive
  weight override);
* ``workflow`` — document 003: ``workflow_run`` events (or runs) up to ``at`` → the miners'
  window means and capped weights;
* ``layered`` — document 002: eval runs → each run's layer scores (``at`` is not used: an
  eval run is not dated evidence).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring import layered as layered_scheme
from aaaf.scoring import trust as trust_scheme
from aaaf.scoring import workflow as workflow_scheme
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.layered import LayeredConfig, LayeredRun, RunScores
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult
from aaaf.scoring.schemes import Scheme, register
from aaaf.scoring.trust import TrustConfig, TrustResult
from aaaf.scoring.workflow import WorkflowConfig, WorkflowRun, WorkflowWeights


def _score_aaaf(evidence: Sequence[Any], config: AAAFConfig, at: datetime) -> AAAFResult:
    return aaaf_scheme.assess(evidence, config, at)


@dataclass(frozen=True)
class TrustSchemeConfig:
    """The trust scheme's whole configuration (SCORING.md §3)."""

    trust: TrustConfig = field(default_factory=TrustConfig)
    #: the AAAF window and config the operational fill-ins use
    aaaf: AAAFConfig = field(default_factory=AAAFConfig)
    #: the adaptive override as stored (validated when applied, SCORING.md §0)
    weights_override: Mapping[str, Any] | None = None


def _score_trust(evidence: Sequence[Any], config: TrustSchemeConfig, at: datetime) -> TrustResult:
    return trust_scheme.score_trust_from_events(
        evidence,
        at=at,
        aaaf_config=config.aaaf,
        weights_override=config.weights_override,
        config=config.trust,
    )


def _score_workflow(evidence: Sequence[Any], config: WorkflowConfig, at: datetime) -> WorkflowWeights:
    runs = [
        item if isinstance(item, WorkflowRun) else WorkflowRun.from_event(item)
        for item in evidence
        if not isinstance(item, EventRecord) or item.type == "workflow_run"
    ]
    return workflow_scheme.workflow_weights(
        [run for run in runs if run.timestamp is None or run.timestamp <= at],
        window=config.window,
        cap=config.cap,
    )


def _score_layered(evidence: Sequence[Any], config: LayeredConfig, at: datetime) -> tuple[RunScores, ...]:
    del at, config  # per-run layer scores use no setting; the config drives comparisons
    runs: Sequence[LayeredRun] = evidence
    return tuple(layered_scheme.score_run(run) for run in runs)


AAAF = register(
    Scheme(
        aaaf_scheme.SCHEME,
        aaaf_scheme.VERSION,
        AAAFConfig,
        _score_aaaf,
        "document 004: 5 + 7 dimensions, tiers",
    )
)
TRUST = register(
    Scheme(
        trust_scheme.SCHEME,
        trust_scheme.VERSION,
        TrustSchemeConfig,
        _score_trust,
        "document 000: 0-1000 trust score",
    )
)
WORKFLOW = register(
    Scheme(
        workflow_scheme.SCHEME,
        workflow_scheme.VERSION,
        WorkflowConfig,
        _score_workflow,
        "document 003: workflow runs, capped agent weights",
    )
)
LAYERED = register(
    Scheme(
        layered_scheme.SCHEME,
        layered_scheme.VERSION,
        LayeredConfig,
        _score_layered,
        "document 002: fact / behavior / judge layers",
    )
)
