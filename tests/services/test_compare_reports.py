"""Dashboard compare reports run as jobs (issue 32), on SQLite and PostgreSQL: the job is
queued in the transaction that records the report, runs at most once, and a report whose
comparison fails is closed ``failed`` with the reason; another organization never sees it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.services import compare_reports
from aaaf.store.compare_reports import record_report
from tests.jobs.helpers import RecordingQueue

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def test_the_size_decides_whether_a_report_runs_as_a_job() -> None:
    assert not compare_reports.runs_as_job(compare_reports.DIRECT_LIMIT, 1)
    assert compare_reports.runs_as_job(compare_reports.DIRECT_LIMIT + 1, 1)
    assert compare_reports.runs_as_job(1_001, 2)
    with pytest.raises(AAAFError) as refused:
        compare_reports.check_request("a", [], "100")
    assert refused.value.details == {"field": "treatments"}
    with pytest.raises(AAAFError):
        compare_reports.check_request("a", ["b"], "ten")


def test_a_report_job_runs_once_and_records_why_it_failed(store: Any) -> None:
    org = store.create_organization("acme")
    queue = RecordingQueue()
    with pytest.raises(AAAFError) as missing:  # the runs are looked up before anything is queued
        compare_reports.queue_report(store, queue, org.id, "no-such-run", ["other"], 10_000, now=NOW)
    assert missing.value.code == "NOT_FOUND" and queue.compare_reports == []
    # a report whose runs went away after it was queued: the job closes it failed, with why
    report_id = record_report(
        store.engine,
        org.id,
        control="gone",
        treatments=["gone-too"],
        resamples=10_000,
        at=NOW,
        also=lambda connection, queued: queue.defer_compare_report(connection, org.id, queued),
    )
    assert queue.compare_reports == [report_id]
    queued = compare_reports.report_of(store, org.id, str(report_id))
    assert (queued.status, queued.started_at, queued.html) == ("queued", None, None)
    assert compare_reports.run_report_job(store, org.id, report_id, clock=lambda: NOW) == "failed"
    failed = compare_reports.report_of(store, org.id, str(report_id))
    assert failed.status == "failed" and failed.error is not None and "gone" in failed.error
    assert failed.started_at == NOW and failed.finished_at == NOW
    # the job run again changes nothing
    assert compare_reports.run_report_job(store, org.id, report_id, clock=lambda: NOW) == "skipped"
    assert compare_reports.report_of(store, org.id, str(report_id)) == failed
    # another organization does not find it; nor does a malformed id
    other = store.create_organization("elsewhere")
    for organization, wanted in (
        (other.id, str(report_id)),
        (org.id, "not-a-uuid"),
        (org.id, str(uuid.uuid4())),
    ):
        with pytest.raises(AAAFError) as hidden:
            compare_reports.report_of(store, organization, wanted)
        assert hidden.value.code == "NOT_FOUND"
