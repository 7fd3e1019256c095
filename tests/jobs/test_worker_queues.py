"""What each queue of ``aaaf worker`` waits behind, with real processes on PostgreSQL
(docs/jobs.md): the periodic duties run while the assessments' queue is busy."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from aaaf.jobs.queue import ProcrastinateQueue, build_app
from aaaf.services.assessment_jobs import trigger_assessment
from aaaf.store import open_store
from tests.api.conftest import start_worker
from tests.jobs.helpers import assessable_agent
from tests.jobs.test_crash_safety import wait_for


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_periodic_duties_do_not_wait_behind_a_running_assessment(store_url: str, tmp_path: Path) -> None:
    now = datetime.now(UTC)
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        agent = assessable_agent(org, "coder", now=now)
        # queued before the worker starts: its job comes first on the assessments' queue, and
        # the worker holds it (the test-only delay) far longer than the test waits
        record = trigger_assessment(
            org, agent, ProcrastinateQueue(build_app(store_url, lambda: store)), now=now
        )
        worker = start_worker(store_url, tmp_path, env={"AAAF_TEST_JOB_DELAY_S": "600"})
        try:
            wait_for(lambda: org.get_assessment(record.id).status == "in_progress", what="the claim")

            def duties_done() -> bool:
                with store.engine.connect() as connection:
                    return bool(
                        connection.execute(
                            text(
                                "SELECT count(*) FROM procrastinate_jobs"
                                " WHERE task_name = 'aaaf.duties' AND status = 'succeeded'"
                            )
                        ).scalar_one()
                    )

            wait_for(duties_done, timeout=60, what=f"the minute's duties:\n{worker.log()}")
            assert org.get_assessment(record.id).status == "in_progress"  # still held
        finally:
            worker.process.kill()  # its job would hold a graceful stop for the delay
            worker.process.wait(timeout=30)
