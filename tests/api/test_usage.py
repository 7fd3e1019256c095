"""Usage metering against the live server (issue 13 §4): API calls, events accepted and
assessments run per organization and UTC day, at ``GET /api/v1/organizations/{id}/usage``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.conftest import LiveServer, agent_evidence, assert_error


def test_usage_counts_calls_events_and_assessments_of_the_day(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)  # + 1 call: its limit
    agent = org.client.post("/api/v1/agents", json={"name": "metered"}).json()  # 2
    events = agent_evidence(agent["id"], 3)
    sent = org.client.post(
        "/api/v1/events/batch", json={"events": [*events, {"type": "nonsense"}, events[0]]}
    ).json()  # 3
    assert (sent["accepted"], sent["rejected"], sent["duplicates"]) == (6, 1, 1)
    single = org.client.post("/api/v1/events", json={**events[0], "id": "one-more"})  # 4
    assert single.status_code == 201
    assert org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).status_code == 202  # 5
    refused = org.client.post("/api/v1/assessments", json={"agent_id": "no-such-agent"})  # 6, not run
    assert refused.status_code == 404
    today = datetime.now(UTC).date()
    usage = org.client.get(f"/api/v1/organizations/{org.id}/usage")  # 7
    assert usage.status_code == 200, usage.text
    body = usage.json()
    assert set(body) == {"items", "next_cursor"} and body["next_cursor"] is None
    assert len(body["items"]) == 30 and body["items"][-1]["date"] == today.isoformat()
    assert body["items"][-1] == {
        "date": today.isoformat(),
        "api_calls": 7,
        "events_accepted": 7,
        "assessments_run": 1,
    }
    assert all(item["api_calls"] == 0 for item in body["items"][:-1])
    # another organization's usage is its own
    other = live.organization()
    assert (
        other.client.get(f"/api/v1/organizations/{other.id}/usage").json()["items"][-1]["events_accepted"]
        == 0
    )
    assert_error(other.client.get(f"/api/v1/organizations/{org.id}/usage"), 404, "NOT_FOUND")


def test_usage_ranges_page_by_day(live: LiveServer) -> None:
    org = live.organization()
    today = datetime.now(UTC).date()
    first = today - timedelta(days=4)
    url = f"/api/v1/organizations/{org.id}/usage"
    params = {"from": first.isoformat(), "to": today.isoformat(), "limit": 2}
    days: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = org.client.get(url, params={**params, **({"cursor": cursor} if cursor else {})}).json()
        days += [item["date"] for item in page["items"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3
    assert days == [(first + timedelta(days=offset)).isoformat() for offset in range(5)]
    assert_error(
        org.client.get(url, params={"from": today.isoformat(), "to": first.isoformat()}),
        400,
        "INVALID_REQUEST",
    )
    assert_error(
        org.client.get(url, params={"from": (today - timedelta(days=400)).isoformat()}),
        400,
        "INVALID_REQUEST",
    )
    assert_error(org.client.get(url, params={"from": "yesterday"}), 400, "INVALID_REQUEST")
    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert reader.get(url).status_code == 200
