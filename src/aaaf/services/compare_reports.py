"""Dashboard compare reports (issue 32): small ones rendered at once, long ones run as jobs.

The report is the HTML :mod:`aaaf.reports.compare_html` writes, of the comparison
:func:`aaaf.services.eval_runs.compare_stored_result` computes — the service
``POST /api/v1/eval-runs/compare`` uses — so the dashboard's verdicts are the API's.

* :func:`runs_as_job` — a comparison costing more than :data:`DIRECT_LIMIT` resamples
  (resamples × treatments) runs as a job; smaller ones render in the request (about a second).
* :func:`queue_report` — records the report ``queued`` (:mod:`aaaf.store.compare_reports`) and
  hands its job to the queue (:class:`~aaaf.services.job_port.JobQueue`).
* :func:`run_report_job` — the job, idempotent: it claims the report (at most once), computes
  and renders it, and closes it ``done`` with its HTML or ``failed`` with the reason.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.services.eval_runs import MAX_TREATMENTS, check_compare_cost, compare_stored_result
from aaaf.services.job_port import JobQueue
from aaaf.store.compare_reports import CompareReport, claim_report, close_report, get_report, record_report

if TYPE_CHECKING:
    from aaaf.store import OrgStore, Store

log = logging.getLogger(__name__)

DIRECT_LIMIT = 2_000
"""Resamples × treatments up to which the report renders in the request (about a second at the
demo's run sizes); above it, the report runs as a job and its page shows its progress."""
MAX_RESAMPLES = 100_000


def check_request(control: str, treatments: Sequence[str], resamples: str) -> int:
    """The resamples asked for, once the request is one the comparison can run: a control,
    one to :data:`~aaaf.services.eval_runs.MAX_TREATMENTS` treatments, a whole number of
    resamples within the installation's limits; ``INVALID_REQUEST`` otherwise."""
    if not resamples.isdigit() or not 1 <= int(resamples) <= MAX_RESAMPLES:
        raise AAAFError(
            "INVALID_REQUEST",
            f"resamples: {resamples!r} is not a whole number from 1 to {MAX_RESAMPLES}.",
            {},
        )
    if not control:
        raise AAAFError("INVALID_REQUEST", "Choose a control run.", {"field": "control"})
    if not treatments:
        raise AAAFError("INVALID_REQUEST", "Choose at least one treatment run.", {"field": "treatments"})
    if len(treatments) > MAX_TREATMENTS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"treatments: at most {MAX_TREATMENTS} treatments, got {len(treatments)}.",
            {"field": "treatments", "limit": MAX_TREATMENTS},
        )
    check_compare_cost(int(resamples), len(treatments))  # docs/security.md "Limits"
    return int(resamples)


def runs_as_job(resamples: int, treatments: int) -> bool:
    """Whether a comparison of this size runs as a job rather than in the request."""
    return resamples * treatments > DIRECT_LIMIT


def render_report(org: OrgStore, control: str, treatments: Sequence[str], resamples: int) -> str:
    """The HTML report of ``control`` against ``treatments`` with ``resamples`` resamples."""
    from aaaf.reports.compare_html import render_comparison_html, render_several_html
    from aaaf.scoring.layered import LayeredConfig
    from aaaf.scoring.verdict import Comparison

    result, _, _ = compare_stored_result(
        org, control, list(treatments), config=LayeredConfig(resamples=resamples)
    )
    if isinstance(result, Comparison):  # one treatment
        return render_comparison_html(result)
    return render_several_html(result)


def queue_report(
    store: Store,
    queue: JobQueue,
    organization_id: uuid.UUID,
    control: str,
    treatments: Sequence[str],
    resamples: int,
    *,
    now: datetime,
) -> uuid.UUID:
    """Record a ``queued`` report of the organization's runs and queue its job; its id."""
    org = store.scope(organization_id)
    for ref in (control, *treatments):
        org.get_eval_run(ref)  # NOT_FOUND now, not in the job
    return record_report(
        store.engine,
        organization_id,
        control=control,
        treatments=list(treatments),
        resamples=resamples,
        at=now,
        also=lambda connection, report_id: queue.defer_compare_report(connection, organization_id, report_id),
    )


def report_of(store: Store, organization_id: uuid.UUID, report_id: str) -> CompareReport:
    """The organization's report ``report_id``; ``NOT_FOUND`` when it has none of that id."""
    try:
        found = get_report(store.engine, organization_id, uuid.UUID(report_id))
    except ValueError:
        found = None
    if found is None:
        raise AAAFError("NOT_FOUND", f"Compare report {report_id} not found.", {"id": report_id})
    return found


def run_report_job(
    store: Store, organization_id: uuid.UUID, report_id: uuid.UUID, *, clock: Callable[[], datetime]
) -> str:
    """Compute and store a queued report; its status when the job ends (``done``, ``failed``,
    or ``skipped`` when it was not queued — a second run of the job changes nothing)."""
    if not claim_report(store.engine, organization_id, report_id, at=clock()):
        return "skipped"
    report = get_report(store.engine, organization_id, report_id)
    assert report is not None  # claimed just now
    try:
        html = render_report(
            store.scope(organization_id), report.control, report.treatments, report.resamples
        )
    except AAAFError as error:
        close_report(store.engine, organization_id, report_id, at=clock(), error=error.message)
        return "failed"
    except Exception as error:
        log.exception("compare report %s failed", report_id)
        close_report(
            store.engine, organization_id, report_id, at=clock(), error=f"The comparison failed: {error}"
        )
        return "failed"
    close_report(store.engine, organization_id, report_id, at=clock(), html=html)
    return "done"
