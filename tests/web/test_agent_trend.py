"""The agent page reads its list and charts from the parts of each result the database picks
out (:meth:`aaaf.store.agent_summaries.AgentSummaryRepository.agent_trend`), and "what changed"
finds the previous assessment by one query: both give what reading every assessment whole
gives, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from aaaf.api.web import views
from aaaf.services import assess as assess_service
from aaaf.services.changes import assessment_changes
from aaaf.services.collect import collect
from aaaf.services.dashboard_pages import agent_page_reads
from aaaf.store.agent_trend import COMPOSITE_TYPES
from tests.api.conftest import agent_evidence

SMALL = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


def _at(result: Any, path: tuple[str, ...]) -> Any:
    node = result
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _drawn(charts: list[Any]) -> list[Any]:
    """The charts without their element ids (numbered per chart drawn)."""
    return [(re.sub(r"\bc\d+([td])\b", r"c\1", str(c.svg)), c.title, c.columns, c.rows) for c in charts]


def _slow_previous(org: Any, assessment: Any) -> Any:
    """The previous whole-axis assessment as found by reading all of them."""
    earlier = [
        a
        for a in org.assessments(assessment.agent_id, status="completed")
        if a.id != assessment.id
        and a.type in COMPOSITE_TYPES
        and a.result
        and a.completed_at <= assessment.completed_at
    ]
    return max(earlier, key=lambda a: (a.completed_at, a.created_at)).id if earlier else None


def test_the_agent_page_reads_what_the_whole_results_give(store: Any) -> None:
    from aaaf.scoring.defaults import AXES
    from aaaf.services.keys import create_organization

    now = datetime.now(UTC).replace(microsecond=0)
    organization, _ = create_organization(store, "trend", now=now, config=SMALL)
    org = store.scope(organization.id)
    agent = org.enroll_agent("alpha")
    collect(org, list(enumerate(agent_evidence(str(agent.id), 12), 1)), now=now)
    assert org.agent_trend(agent.id) == []
    assert views.agent_page(agent_page_reads(org, "alpha", now=now))["trends"] == []

    first = assess_service.assess_agent(org, "alpha", now=now - timedelta(days=2), uncertainty=False)
    assert assessment_changes(org, str(first.id)).previous_id is None
    assess_service.assess_agent(
        org,
        "alpha",
        now=now - timedelta(days=1),
        assessment_type="single_dimension",
        dimension=AXES["performance"][0],
        uncertainty=False,
    )
    assess_service.assess_agent(org, "alpha", now=now - timedelta(hours=12), uncertainty=True)
    latest = assess_service.assess_agent(org, "alpha", now=now, uncertainty=False)

    whole = org.assessments(agent.id)
    light = org.agent_trend(agent.id)
    assert [a.id for a in light] == [a.id for a in whole]
    assert any(_at(a.result, ("performance", "uncertainty", "ci")) for a in light)  # an interval came through
    for read, full in zip(light, whole, strict=True):
        for name in (
            "type",
            "status",
            "review_state",
            "window_start",
            "window_end",
            "created_at",
            "completed_at",
        ):
            assert getattr(read, name) == getattr(full, name), name
        assert (read.result is None) == (full.result is None)
        for axis, names in AXES.items():
            paths = [(axis, "composite_score"), (axis, "uncertainty", "ci")]
            for path in paths + [(axis, "dimensions", name, "score") for name in names]:
                assert _at(read.result, path) == _at(full.result, path), path

    page = views.agent_page(agent_page_reads(org, "alpha", now=now))
    history = [
        a for a in reversed(whole) if a.status == "completed" and a.type in COMPOSITE_TYPES and a.result
    ]
    assert _drawn(page["trends"]) == _drawn(views.trends(history))
    assert page["latest"].id == latest.id and page["latest_result"] == latest.result
    for assessment in whole:
        if assessment.status == "completed" and assessment.result:
            assert assessment_changes(org, str(assessment.id)).previous_id == (
                None if (found := _slow_previous(org, assessment)) is None else str(found)
            )
