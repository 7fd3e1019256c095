"""A badge per agent (README "Badges"): `/badges/{organization}/{agent}.svg` is one stable URL
that always serves the agent's current public badge — the newest after a re-assessment — and
a 404 for a private or revoked one, a foreign agent or an unknown name."""

from __future__ import annotations

from urllib.parse import quote

from tests.api.conftest import LiveServer, agent_evidence, assert_error, poll_until, wait_for_status


def _assessed(org: object, agent_id: str) -> str:
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id}).json()  # type: ignore[attr-defined]
    assert wait_for_status(org.client, started["id"])["status"] == "completed"  # type: ignore[attr-defined]
    badge_url = f"/api/v1/badges/{started['id']}"
    assert poll_until(lambda: org.client.get(badge_url).status_code, lambda s: s == 200) == 200  # type: ignore[attr-defined]
    return str(started["id"])


def test_one_url_serves_the_agents_current_badge(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    agent = org.client.post("/api/v1/agents", json={"name": "readme-bot"}).json()
    url = f"/badges/{quote(org.name)}/readme-bot.svg"
    assert_error(live.anonymous.get(url), 404, "NOT_FOUND")  # no badge yet
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
    first = _assessed(org, agent["id"])
    shown = live.anonymous.get(url)
    assert shown.status_code == 200 and shown.headers["content-type"] == "image/svg+xml"
    assert shown.headers["cache-control"].startswith("no-cache")
    assert shown.text == live.anonymous.get(f"/api/v1/badges/{first}.svg").text
    # a re-assessment: the same URL now serves the new badge
    second = _assessed(org, agent["id"])
    assert second != first
    assert live.anonymous.get(url).text == live.anonymous.get(f"/api/v1/badges/{second}.svg").text
    # by ids too (names with a slash cannot be a path segment)
    assert live.anonymous.get(f"/badges/{org.id}/{agent['id']}.svg").text == live.anonymous.get(url).text
    # private: 404 for everyone, even with the organization's key; public again: served
    assert org.client.patch(f"/api/v1/badges/{second}", json={"visibility": "private"}).status_code == 200
    assert_error(live.anonymous.get(url), 404, "NOT_FOUND")
    assert_error(org.client.get(url), 404, "NOT_FOUND")
    assert org.client.patch(f"/api/v1/badges/{second}", json={"visibility": "public"}).status_code == 200
    assert live.anonymous.get(url).status_code == 200
    # revoked: not served, and the older badge is not shown in its place
    org.client.post(f"/api/v1/badges/{second}/revoke", json={"reason": "test"})
    assert_error(live.anonymous.get(url), 404, "NOT_FOUND")


def test_unknown_and_foreign_names_are_404(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    other = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "mine"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
    _assessed(org, agent["id"])
    assert live.anonymous.get(f"/badges/{org.name}/mine.svg").status_code == 200
    assert_error(live.anonymous.get(f"/badges/{other.name}/mine.svg"), 404, "NOT_FOUND")
    assert_error(live.anonymous.get(f"/badges/{org.name}/nobody.svg"), 404, "NOT_FOUND")
    assert_error(live.anonymous.get("/badges/no-such-org/mine.svg"), 404, "NOT_FOUND")
