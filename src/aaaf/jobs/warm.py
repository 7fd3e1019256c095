"""A worker warmed before it takes jobs (docs/jobs.md "Workers").

``aaaf worker`` imports only what it needs to start; the scoring engine's resampling (NumPy,
the BLAS limits), the claim and write of a batch and the badge renderers were imported by the
first job that used them, and that job paid for it: the bench fleet (40 agents) triggered on
a fresh ``aaaf worker`` took 0.70/0.71/0.79 s of the worker's CPU from its first assessment
run to its last, 0.54/0.55/0.57 s after :func:`warm_up` (three alternating pairs).  :func:`warm_up` scores one synthetic agent through the engine a job uses
and imports the rest, before the worker registers, so a fleet triggered just after a worker
started does not wait for its start-up.  It reads no database and no clock.
"""

from __future__ import annotations

import importlib
import logging
import uuid
from datetime import UTC, datetime

log = logging.getLogger(__name__)

JOB_MODULES = (
    "aaaf.scoring.spec",
    "aaaf.scoring.builtin_schemes",
    "aaaf.services.provenance",
    "aaaf.store.org_config",
    "aaaf.store.assessment_batch",
    "aaaf.store.claimed_assessments",
    "aaaf.services.badges",
    "aaaf.services.badge_revocation",
)
"""What a job imports when it runs, beside the engine (imported by the scoring below)."""

WARM_UP_EVENTS = 200
WARM_UP_END = datetime(2026, 1, 1, tzinfo=UTC)
"""The synthetic agent's window end: any instant does (the engine is relative to it)."""


def warm_up() -> bool:
    """Import what a job uses and score one synthetic agent of :data:`WARM_UP_EVENTS` events
    with the default configuration (resampling included), as a job scores (module docstring).
    True when it scored; a failure is logged, never raised — the first job then pays instead."""
    from aaaf.demo.fleet_benchmark import iter_benchmark_events
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.scoring.records import EventRecord
    from aaaf.services.assess_parallel import one_blas_thread, score_agent
    from aaaf.services.provenance import AgentRuns

    try:
        for module in JOB_MODULES:
            importlib.import_module(module)
        config = AAAFConfig()
        events = [
            EventRecord(
                str(uuid.UUID(int=number + 1)),
                event["agent"],
                event["type"],
                datetime.fromisoformat(event["timestamp"]),
                event["data"],
                event["data"].get("task_id"),
            )
            for number, event in enumerate(iter_benchmark_events(0, WARM_UP_EVENTS, WARM_UP_END, seed=0))
        ]
        with one_blas_thread(config.uncertainty_resamples > 0):
            score_agent(events, config, WARM_UP_END, "passive_only", None, AgentRuns(), "warm-up")
        _badge_renderers()
    except Exception:
        log.warning("warming the worker failed; its first job starts it instead", exc_info=True)
        return False
    return True


def _badge_renderers() -> None:
    """The badge fonts' files and metrics (read once, then cached) and the image plugins the
    PNG digest opens with."""
    from PIL import Image

    from aaaf.badges.fonts import font_files, metrics

    font_files()
    metrics(bold=False)
    metrics(bold=True)
    Image.init()
