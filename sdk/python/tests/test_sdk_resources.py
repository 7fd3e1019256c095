"""The generated resources through ``AAAFClient`` and ``AsyncAAAFClient`` against a live server,
SQLite and PostgreSQL (issue 18 §1): agents, events, assessments, badges, trust, workflow and
eval runs, and the typed §6.4 errors."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from aaaf_client import AAAFClient, AsyncAAAFClient, NotFoundError, UnprocessableError, models
from aaaf_client._generated.types import UNSET
from sdk_proxy import refuse
from tests.api.conftest import agent_evidence

SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


def _wait_completed(client: AAAFClient, assessment_id: str) -> models.Assessment:
    deadline = time.monotonic() + 60
    while True:
        assessment = client.assessments.get_assessment(assessment_id)
        if assessment.status not in ("pending", "in_progress") or time.monotonic() > deadline:
            return assessment
        time.sleep(0.1)


def test_sync_resources_from_agent_to_badge(live: Any) -> None:
    org = live.organization(**SMALL_MINIMUMS)
    with AAAFClient(base_url=live.base_url, api_key=org.key) as client:
        assert client.health.health().status == "ok"
        agent = client.agents.create_agent(
            body=models.AgentCreate(name="sdk-agent", claimed_domains=["code"])
        )
        assert client.agents.get_agent(agent.id).name == "sdk-agent"
        assert [a.id for a in client.agents.list_agents().items] == [agent.id]
        with pytest.raises(NotFoundError) as missing:
            client.agents.get_agent("00000000-0000-0000-0000-000000000000")
        assert missing.value.status_code == 404 and missing.value.code == "NOT_FOUND"
        assert missing.value.message and isinstance(missing.value.details, dict)
        # too little evidence: the typed 422 with the §6.4 code and details
        with pytest.raises(UnprocessableError) as refused:
            client.assessments.create_assessment(body=models.AssessmentCreate(agent_id=agent.id))
        assert refused.value.code == "INSUFFICIENT_EVIDENCE"
        assert refused.value.details["required_count"] == 6
        for event in agent_evidence(agent.id, 6):
            client.ingest(event)
        assert client.flush().accepted == 12
        page = client.events.list_events(agent_id=agent.id, limit=5)
        assert len(page.items) == 5 and page.next_cursor
        started = client.assessments.create_assessment(body=models.AssessmentCreate(agent_id=agent.id))
        done = _wait_completed(client, started.id)
        assert done.status == "completed"
        deadline = time.monotonic() + 30
        while True:  # the badge is issued a moment after the assessment completes
            try:
                verified = client.badges.verify_badge(started.id)
                break
            except NotFoundError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert verified.to_dict()["valid"] is True
        assert client.badges.get_badge_svg(started.id).startswith(
            b"<svg"
        ) or b"<svg" in client.badges.get_badge_svg(started.id)
        assert "keys" in client.badges.get_jwks().to_dict()
        assert client.trust.get_trust_score(agent.id).to_dict()["scheme"] == "trust"
        assert isinstance(client.workflow.get_workflow_weights().to_dict(), dict)
        assert client.evals.list_eval_runs().to_dict()["items"] == []
        archived = client.agents.archive_agent(agent.id)
        assert archived.status == "archived"
        assert client.agents.list_agents(status=UNSET).items is not None


def test_async_client_has_the_same_surface(live: Any) -> None:
    org = live.organization(**SMALL_MINIMUMS)

    async def scenario() -> None:
        async with AsyncAAAFClient(base_url=live.base_url, api_key=org.key) as client:
            agent = await client.agents.create_agent(body=models.AgentCreate(name="async-agent"))
            assert (await client.agents.get_agent(agent.id)).name == "async-agent"
            with pytest.raises(NotFoundError) as missing:
                await client.assessments.get_assessment("00000000-0000-0000-0000-000000000000")
            assert missing.value.code == "NOT_FOUND"
            events = agent_evidence(agent.id, 6)
            for event in events:
                assert await client.ingest(event)
            await client.ingest({**events[0], "id": "broken", "type": "nope"})
            summary = await client.flush()
            assert (summary.accepted, summary.duplicates) == (12, 0)
            assert [(f.code, f.event["id"]) for f in summary.rejected] == [("INVALID_EVENT_TYPE", "broken")]
            for event in events[:4]:
                await client.ingest(event)
            closing = await client.close()
            assert (closing.accepted, closing.duplicates, closing.rejected) == (0, 4, [])

    asyncio.run(scenario())
    listed = org.client.get("/api/v1/events", params={"agent_id": _only_agent(org), "limit": 100}).json()
    assert len(listed["items"]) == 12


def test_async_bounded_queue_drops_with_a_count(proxy_for: Any, org: Any, agent_id: str) -> None:
    from sdk_helpers import make_events

    proxy = proxy_for([refuse(503, "2")])  # the first chunk waits 2 s: the queue fills meanwhile

    async def scenario() -> None:
        client = AsyncAAAFClient(base_url=proxy.base_url, api_key=org.key, max_queue_size=5, overflow="drop")
        results = [await client.ingest(event) for event in make_events(agent_id, 30, prefix="ad")]
        kept = results.count(True)
        assert 5 <= kept <= 10 and results[:5] == [True] * 5
        summary = await client.close()
        assert (summary.accepted, summary.dropped, summary.rejected) == (kept, 30 - kept, [])

    asyncio.run(scenario())


def _only_agent(org: Any) -> str:
    items = org.client.get("/api/v1/agents").json()["items"]
    assert len(items) == 1
    return str(items[0]["id"])
