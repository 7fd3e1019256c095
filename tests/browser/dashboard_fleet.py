"""A small fleet created over HTTP for the dashboard's browser tests (issue 17 §4), and the
browser's sign-in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.api.conftest import LiveServer, Org, agent_evidence, poll_until, wait_for_status

SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}
PHONE = {"width": 390, "height": 844}


@dataclass
class Fleet:
    org: Org
    read_key: str
    agents: dict[str, dict[str, Any]]
    assessments: dict[str, list[str]]  # agent name → assessment ids, oldest first
    stranger: dict[str, Any]  # another organization's agent
    stranger_assessment: str


def build_fleet(live: LiveServer) -> Fleet:
    """alpha (assessed twice, trust recorded), beta (once), gamma (too few tasks), and an
    agent of another organization."""
    org = live.organization(**SMALL_MINIMUMS)
    agents, assessments = {}, {}
    for name, tasks, runs in (("alpha", 10, 2), ("beta", 8, 1), ("gamma", 3, 0)):
        agent = org.client.post("/api/v1/agents", json={"name": name}).json()
        sent = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], tasks)})
        assert sent.status_code == 201, sent.text
        agents[name] = agent
        assessments[name] = [_assess(org, agent["id"]) for _ in range(runs)]
        if runs:
            recorded = org.client.post(f"/api/v1/agents/{agent['id']}/trust")
            assert recorded.status_code == 200, recorded.text
    read = org.client.post("/api/v1/keys", json={"scopes": ["read"], "name": "viewer"})
    assert read.status_code == 201, read.text
    other = live.organization(**SMALL_MINIMUMS)
    stranger = other.client.post("/api/v1/agents", json={"name": "stranger"}).json()
    other.client.post("/api/v1/events/batch", json={"events": agent_evidence(stranger["id"], 7)})
    return Fleet(org, read.json()["api_key"], agents, assessments, stranger, _assess(other, stranger["id"]))


def _assess(org: Org, agent_id: str) -> str:
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "full"})
    assert started.status_code == 202, started.text
    done = wait_for_status(org.client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    poll_until(
        lambda: org.client.get(f"/api/v1/badges/{done['id']}").status_code,
        lambda status: status == 200,
        timeout=60,
    )
    return str(done["id"])


def sign_in(page: Any, base_url: str, key: str, target: str = "/") -> None:
    """Sign in through the form (the way a person does) and land on ``target``."""
    page.goto(f"{base_url}{target}")
    assert "/sign-in" in page.url
    page.fill("#api_key", key)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}{target}")
