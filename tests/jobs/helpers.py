"""An organization with agents that have enough evidence to be assessed (issue 14 tests)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from aaaf.evidence.validation import validate_event
from tests.cli.events_factory import task_events


def assessable_agent(org: Any, name: str, *, now: datetime, tasks: int = 4, days_ago: float = 0.0) -> Any:
    """An agent with ``tasks`` accepted tasks completed ``days_ago`` days before ``now`` (an hour
    apart); the organization's minimums are lowered to 4 tasks."""
    org.update_config(min_tasks_performance=4, min_tasks_capability=4)
    agent = org.enroll_agent(name)
    end = now - timedelta(days=days_ago)
    events = [
        e
        for i in range(tasks)
        for e in task_events(None, f"{name}-t{i}", completed_at=end - timedelta(hours=i + 1))
    ]
    org.add_events([(agent.id, validate_event(e, now=now, default_agent=name)) for e in events])
    return agent


class RecordingQueue:
    """A :class:`~aaaf.services.job_port.JobQueue` that only records what it was given."""

    def __init__(self) -> None:
        self.assessments: list[Any] = []
        self.badges: list[Any] = []
        self.stress_runs: list[Any] = []
        self.compare_reports: list[Any] = []

    def defer_assessments(self, connection: Any, organization_id: Any, assessment_ids: Any) -> None:
        self.assessments.extend(assessment_ids)

    def defer_badge(self, organization_id: Any, assessment_id: Any) -> None:
        self.badges.append(assessment_id)

    def defer_badges(self, connection: Any, badges: list[Any]) -> None:
        self.badges.extend(assessment_id for _, assessment_id in badges)

    def defer_stress_run(self, connection: Any, organization_id: Any, run_id: Any) -> None:
        self.stress_runs.append(run_id)

    def defer_compare_report(self, connection: Any, organization_id: Any, report_id: Any) -> None:
        self.compare_reports.append(report_id)


def fetch_job(store: Any) -> int:
    """The next job fetched as a new worker fetches it (``doing`` under that worker)."""
    from sqlalchemy import text

    with store.engine.begin() as connection:
        worker = connection.execute(
            text("SELECT worker_id FROM procrastinate_register_worker_v1()")
        ).scalar_one()
        return int(
            connection.execute(
                text("SELECT id FROM procrastinate_fetch_job_v2(ARRAY['aaaf'], :worker)"), {"worker": worker}
            ).scalar_one()
        )
