"""The periodic duties (issue 14 §4), each idempotent with its clock handed in.

* :func:`run_duties` — every minute: the duties that must not wait a day.  The webhook
  duties (``badge.expiring``/``badge.expired``, ``evidence.threshold_reached``, due
  re-assessments, SCORING.md §2.4) and the delivery of due webhooks
  (``aaaf.services.duties.run_periodic_duties`` and
  ``aaaf.services.webhook_delivery.deliver_due``).
* :func:`run_retention` — daily: retention (SCORING.md §6), the same as ``aaaf db prune``.
* :func:`run_benchmarks` — hourly: the anonymised cross-organization benchmark (issue 20 §2),
  the same as ``aaaf benchmarks compute``.

They are periodic tasks declared once, with their cron, in :mod:`aaaf.jobs.blueprint`: run by
procrastinate on PostgreSQL (:mod:`aaaf.jobs.queue`) and by the in-process runner's timer on
SQLite (:mod:`aaaf.jobs.inprocess`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from aaaf.services import benchmarks, retention
from aaaf.services.duties import run_periodic_duties
from aaaf.services.webhook_delivery import deliver_due

log = logging.getLogger(__name__)


def run_duties(store: Any, *, now: datetime) -> dict[str, Any]:
    """The every-minute duties; returns what each did (for logs and tests)."""
    done: dict[str, Any] = {}
    done["duties"] = run_periodic_duties(store, now=now)
    # what was delivered, not how long it took (a duty run twice reports the same)
    done["deliveries"] = replace(deliver_due(store, now=now), seconds=0.0)
    return done


def run_retention(store: Any, *, now: datetime) -> dict[str, Any]:
    """Prune every organization's evidence past its retention (SCORING.md §6)."""
    counts = retention.prune_all(store, now=now)
    for name, pruned in counts.items():
        if pruned.events or pruned.stress_results:
            log.info("retention pruned %s: %s", name, pruned.to_dict())
    return counts


def run_benchmarks(store: Any, *, now: datetime) -> dict[str, Any]:
    """Publish the benchmark cells of opted-in organizations at ``now`` (issue 20 §2)."""
    done = benchmarks.compute_benchmarks(store, now=now)
    log.info("benchmarks: %s", done.model_dump())
    return done.model_dump()
