"""The live server's public routes, authentication and §6.4 errors (issue 13 §2, §3, §6)."""

from __future__ import annotations

import re
import uuid

from tests.api.conftest import ADMIN_KEY, LiveServer, assert_error


def test_health_openapi_and_docs_are_public_and_local(live: LiveServer) -> None:
    health = live.anonymous.get("/health")
    assert health.status_code == 200
    assert health.json()["status"] == "ok"
    assert health.json()["database"] == live.dialect
    spec = live.anonymous.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    assert "/api/v1/events/batch" in spec["paths"]
    docs = live.anonymous.get("/docs")
    assert docs.status_code == 200
    # every script and stylesheet of the page comes from this server, never a CDN
    sources = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert sources and all(source.startswith("/") for source in sources), sources
    assert '"validatorUrl": null' in docs.text
    for source in sources:
        assert live.anonymous.get(source).status_code == 200, source


def test_a_key_is_needed_and_either_header_carries_it(live: LiveServer) -> None:
    org = live.organization()
    assert_error(live.anonymous.get("/api/v1/agents"), 401, "UNAUTHORIZED")
    assert_error(live.client("ak_not-a-real-key").get("/api/v1/agents"), 401, "UNAUTHORIZED")
    assert_error(live.client("not-even-a-key").get("/api/v1/agents"), 401, "UNAUTHORIZED")
    assert live.client(org.key, header="x-api-key").get("/api/v1/agents").status_code == 200
    assert live.client(org.key).get("/api/v1/agents").status_code == 200


def test_unknown_route_and_method_answer_the_error_shape(live: LiveServer) -> None:
    org = live.organization()
    error = assert_error(org.client.get("/api/v1/nothing-here"), 404, "NOT_FOUND")
    assert "/api/v1/nothing-here" in error["message"]
    response = org.client.put("/api/v1/agents")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "INVALID_REQUEST"
    assert f"allowed: {response.headers['allow']}" in response.json()["error"]["message"]


def test_invalid_bodies_are_400_naming_every_field(live: LiveServer) -> None:
    org = live.organization()
    error = assert_error(
        org.client.post("/api/v1/agents", json={"nam": "x", "tools": "grep"}), 400, "INVALID_REQUEST"
    )
    fields = {problem["field"] for problem in error["details"]["fields"]}
    assert fields == {"body.name", "body.nam", "body.tools"}
    for field in fields:
        assert field in error["message"]
    error = assert_error(
        org.client.post("/api/v1/agents", content=b'{"name": ', headers={"Content-Type": "application/json"}),
        400,
        "INVALID_REQUEST",
    )
    assert "JSON" in error["message"]
    error = assert_error(org.client.get("/api/v1/agents", params={"limit": 1001}), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "query.limit"
    assert_error(org.client.get("/api/v1/agents", params={"cursor": "!!"}), 400, "INVALID_REQUEST")


def test_bodies_over_one_mebibyte_are_413_naming_the_limit(live: LiveServer) -> None:
    org = live.organization()
    big = b'{"events": ["' + b"x" * (1_048_576) + b'"]}'
    error = assert_error(
        org.client.post("/api/v1/events/batch", content=big, headers={"Content-Type": "application/json"}),
        413,
        "PAYLOAD_TOO_LARGE",
    )
    assert error["details"]["limit_bytes"] == 1_048_576

    def chunked():  # no Content-Length: the limit is counted as the body arrives
        for _ in range(20):
            yield b"x" * 65_536

    response = org.client.post(
        "/api/v1/events/batch", content=chunked(), headers={"Content-Type": "application/json"}
    )
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")
    error = assert_error(
        org.client.post("/api/v1/events/batch", json={"events": [{}] * 1001}), 413, "PAYLOAD_TOO_LARGE"
    )
    assert error["details"] == {"limit_events": 1000, "events": 1001}


def test_organizations_are_created_with_the_admin_key_only(live: LiveServer) -> None:
    name = f"org-{uuid.uuid4().hex[:8]}"
    assert_error(live.anonymous.post("/api/v1/organizations", json={"name": name}), 401, "UNAUTHORIZED")
    org = live.organization()
    # an organization's own key is not the admin key
    assert_error(org.client.post("/api/v1/organizations", json={"name": name}), 401, "UNAUTHORIZED")
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    created = live.anonymous.post("/api/v1/organizations", json={"name": name}, headers=admin)
    assert created.status_code == 201
    body = created.json()
    assert set(body) == {"id", "name", "api_key", "created_at"}
    assert body["name"] == name and body["api_key"].startswith("ak_")
    assert_error(
        live.anonymous.post("/api/v1/organizations", json={"name": name}, headers=admin), 409, "CONFLICT"
    )
    error = assert_error(
        live.anonymous.post(
            "/api/v1/organizations",
            json={
                "name": name + "-w",
                "performance_weights": {
                    "task_completion_rate": 0.5,
                    "accuracy": 0.5,
                    "speed": 0.5,
                    "consistency": 0.0,
                    "review_compliance": 0.0,
                },
            },
            headers=admin,
        ),
        422,
        "WEIGHT_SUM_INVALID",
    )
    assert "1.5" in error["message"]
    # nothing was created by the refused request
    assert (
        live.anonymous.post("/api/v1/organizations", json={"name": name + "-w"}, headers=admin).status_code
        == 201
    )
    mine = live.client(body["api_key"]).get(f"/api/v1/organizations/{body['id']}")
    assert mine.status_code == 200 and mine.json()["name"] == name
    assert_error(org.client.get(f"/api/v1/organizations/{body['id']}"), 404, "NOT_FOUND")


def test_without_admin_key_creating_organizations_is_forbidden(tmp_path) -> None:
    """In process (a third live server would cost its start-up for one answer)."""
    from fastapi.testclient import TestClient

    from aaaf.api import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'no-admin.db'}", admin_key="")) as client:
        response = client.post(
            "/api/v1/organizations", json={"name": "anyone"}, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        )
    error = assert_error(response, 403, "FORBIDDEN")
    assert "AAAF_ADMIN_KEY" in error["message"]


def test_an_organization_renames_itself_and_publishes_its_status_list(live: LiveServer) -> None:
    org, other = live.organization(), live.organization()
    renamed = org.client.patch(f"/api/v1/organizations/{org.id}", json={"name": org.name + "-renamed"})
    assert renamed.status_code == 200 and renamed.json()["name"] == org.name + "-renamed"
    assert_error(
        org.client.patch(f"/api/v1/organizations/{org.id}", json={"name": other.name}), 409, "CONFLICT"
    )
    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert_error(reader.patch(f"/api/v1/organizations/{org.id}", json={"name": "x"}), 403, "FORBIDDEN")
    # the revocation list every badge names: public, a signed VC-JWT
    token = live.anonymous.get(f"/api/v1/organizations/{org.id}/status-list")
    assert token.status_code == 200 and token.headers["content-type"] == "application/jwt"
    assert token.text.count(".") == 2
    missing = "00000000-0000-0000-0000-000000000000"
    assert_error(live.anonymous.get(f"/api/v1/organizations/{missing}/status-list"), 404, "NOT_FOUND")
