"""Badge visibility (issue 13 §1): a private badge's public verification says only whether it
is valid; its pictures, JSON and JWT are 404 without a key of its organization."""

from __future__ import annotations

from tests.api.conftest import LiveServer, agent_evidence, assert_error, poll_until, wait_for_status

FORMATS = ("svg", "png", "json", "jwt")


def test_a_private_badge_shows_only_whether_it_is_valid(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    agent = org.client.post("/api/v1/agents", json={"name": "discreet"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    assert wait_for_status(org.client, started["id"])["status"] == "completed"
    badge_url = f"/api/v1/badges/{started['id']}"
    assert poll_until(lambda: org.client.get(badge_url).status_code, lambda status: status == 200) == 200
    public = live.anonymous.get(f"{badge_url}/verify").json()
    assert public["valid"] is True and public["agent_name"] == "discreet"
    record = org.client.get(badge_url)
    assert record.json()["visibility"] == "public", record.text
    for fmt in FORMATS:
        assert live.anonymous.get(f"{badge_url}.{fmt}").status_code == 200

    made_private = org.client.patch(badge_url, json={"visibility": "private"})
    assert made_private.status_code == 200, made_private.text
    assert made_private.json()["visibility"] == "private"
    assert org.client.get(badge_url).json()["visibility"] == "private"
    verified = live.anonymous.get(f"{badge_url}/verify").json()
    assert verified == {"valid": True, "assessment_id": started["id"], "visibility": "private"}
    other = live.organization()
    for fmt in FORMATS:
        assert_error(live.anonymous.get(f"{badge_url}.{fmt}"), 404, "NOT_FOUND")
        assert_error(other.client.get(f"{badge_url}.{fmt}"), 404, "NOT_FOUND")  # another organization's key
        assert_error(live.client("ak_not-a-key").get(f"{badge_url}.{fmt}"), 404, "NOT_FOUND")
        assert org.client.get(f"{badge_url}.{fmt}").status_code == 200  # its own organization's key
    # revoked while private: still only whether it is valid
    org.client.post(f"{badge_url}/revoke", json={"reason": "test"})
    assert live.anonymous.get(f"{badge_url}/verify").json() == {
        "valid": False,
        "assessment_id": started["id"],
        "visibility": "private",
    }
    # and public again
    assert org.client.patch(badge_url, json={"visibility": "public"}).json()["visibility"] == "public"
    assert live.anonymous.get(f"{badge_url}/verify").json()["agent_name"] == "discreet"
    assert live.anonymous.get(f"{badge_url}.svg").status_code == 200


def test_visibility_needs_admin_and_a_valid_value(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    agent = org.client.post("/api/v1/agents", json={"name": "a"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 2)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    badge_url = f"/api/v1/badges/{started['id']}"
    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert_error(reader.patch(badge_url, json={"visibility": "private"}), 403, "FORBIDDEN")
    assert_error(org.client.patch(badge_url, json={"visibility": "secret"}), 400, "INVALID_REQUEST")
    assert_error(
        org.client.patch("/api/v1/badges/not-an-id", json={"visibility": "private"}), 404, "NOT_FOUND"
    )
    # set before the badge exists: it is issued private
    assert org.client.patch(badge_url, json={"visibility": "private"}).status_code == 200
    assert wait_for_status(org.client, started["id"])["status"] == "completed"
    assert poll_until(lambda: org.client.get(badge_url).status_code, lambda status: status == 200) == 200
    assert set(live.anonymous.get(f"{badge_url}/verify").json()) == {"valid", "assessment_id", "visibility"}
    assert_error(live.anonymous.get(f"{badge_url}.png"), 404, "NOT_FOUND")
