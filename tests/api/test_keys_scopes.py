"""API keys and scopes over HTTP (SCORING.md §7 "Admin and keys"; issue 13 §3)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.conftest import LiveServer, assert_error, task_events


def test_keys_are_created_listed_and_revoked_by_admins(live: LiveServer) -> None:
    org = live.organization()
    created = org.client.post("/api/v1/keys", json={"scopes": ["read"], "name": "dashboard"})
    assert created.status_code == 201, created.text
    key = created.json()
    assert key["api_key"].startswith("ak_") and key["scopes"] == ["read"]
    assert key["prefix"] == key["api_key"][:11]
    listed = org.client.get("/api/v1/keys").json()["items"]
    assert [item["name"] for item in listed] == ["created with the organization", "dashboard"]
    assert all("api_key" not in item for item in listed)
    reader = live.client(key["api_key"])
    assert reader.get("/api/v1/agents").status_code == 200
    revoked = org.client.delete(f"/api/v1/keys/{key['id']}")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    assert_error(reader.get("/api/v1/agents"), 401, "UNAUTHORIZED")
    error = assert_error(org.client.post("/api/v1/keys", json={"scopes": ["root"]}), 400, "INVALID_REQUEST")
    assert "root" in error["message"]
    assert_error(org.client.post("/api/v1/keys", json={"scopes": []}), 400, "INVALID_REQUEST")
    assert_error(org.client.delete("/api/v1/keys/not-a-key"), 404, "NOT_FOUND")


def test_each_route_takes_its_scope(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    event = task_events(agent["id"], "t-1", datetime.now(UTC) - timedelta(hours=1))[0]

    def key_with(*scopes: str):
        return live.client(org.client.post("/api/v1/keys", json={"scopes": list(scopes)}).json()["api_key"])

    reader = key_with("read")
    assert reader.get("/api/v1/agents").status_code == 200
    assert reader.get("/api/v1/events", params={"agent_id": agent["id"]}).status_code == 200
    error = assert_error(reader.post("/api/v1/events", json=event), 403, "FORBIDDEN")
    assert error["details"]["required_scope"] == "events:write"
    assert_error(reader.post("/api/v1/events/batch", json={"events": [event]}), 403, "FORBIDDEN")
    assert_error(reader.post("/api/v1/agents", json={"name": "x"}), 403, "FORBIDDEN")
    assert_error(reader.post("/api/v1/assessments", json={"agent_id": agent["id"]}), 403, "FORBIDDEN")
    assert_error(reader.get("/api/v1/keys"), 403, "FORBIDDEN")
    assert_error(reader.post("/api/v1/keys", json={"scopes": ["admin"]}), 403, "FORBIDDEN")
    writer = key_with("events:write")
    assert writer.post("/api/v1/events", json=event).status_code == 201
    assert_error(writer.get("/api/v1/agents"), 403, "FORBIDDEN")
    assessor = key_with("assessments:write")
    assert assessor.post("/api/v1/agents", json={"name": "second"}).status_code == 201
    assert_error(assessor.post("/api/v1/events", json=event), 403, "FORBIDDEN")
