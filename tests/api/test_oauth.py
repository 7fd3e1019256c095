"""OAuth 2.0 client credentials against the live server (issue 13 §3; RFC 6749 §4.4, §5.2)."""

from __future__ import annotations

import base64

from tests.api.conftest import LiveServer, assert_error


def _client(live: LiveServer, org, scopes: list[str]) -> dict:  # type: ignore[no-untyped-def]
    response = org.client.post(f"/api/v1/organizations/{org.id}/oauth-clients", json={"scopes": scopes})
    assert response.status_code == 201, response.text
    return response.json()


def _token(live: LiveServer, data: dict, *, basic: tuple[str, str] | None = None):  # type: ignore[no-untyped-def]
    headers = {}
    if basic is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
    return live.anonymous.post("/oauth/token", data=data, headers=headers)


def test_a_client_trades_its_secret_for_a_token_that_works_like_a_key(live: LiveServer) -> None:
    org = live.organization()
    created = _client(live, org, ["read", "events:write"])
    assert created["client_id"].startswith("oc_") and created["client_secret"].startswith("ocs_")
    assert created["scopes"] == ["read", "events:write"]
    listed = org.client.get(f"/api/v1/organizations/{org.id}/oauth-clients").json()
    assert [item["client_id"] for item in listed["items"]] == [created["client_id"]]
    assert "client_secret" not in listed["items"][0] and listed["next_cursor"] is None

    # HTTP Basic (RFC 6749 §2.3.1)
    answer = _token(
        live, {"grant_type": "client_credentials"}, basic=(created["client_id"], created["client_secret"])
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 900
    assert body["scope"] == "read events:write"
    token_client = live.client(body["access_token"])
    assert token_client.get(f"/api/v1/organizations/{org.id}").status_code == 200
    assert token_client.get("/api/v1/agents").json()["items"] == []
    # its scopes, not more
    assert_error(token_client.post("/api/v1/agents", json={"name": "nope"}), 403, "FORBIDDEN")

    # the form body, with a narrower scope
    narrow = _token(
        live,
        {
            "grant_type": "client_credentials",
            "client_id": created["client_id"],
            "client_secret": created["client_secret"],
            "scope": "read",
        },
    ).json()
    assert narrow["scope"] == "read"
    agent_id = org.client.post("/api/v1/agents", json={"name": "a"}).json()["id"]
    narrow_client = live.client(narrow["access_token"])
    assert narrow_client.get(f"/api/v1/agents/{agent_id}").status_code == 200
    assert_error(narrow_client.post("/api/v1/events/batch", json={"events": []}), 403, "FORBIDDEN")

    # a tampered token, a token of nothing, and a revoked client's token are 401
    tampered = body["access_token"][:-4] + ("AAAA" if not body["access_token"].endswith("AAAA") else "BBBB")
    assert_error(live.client(tampered).get("/api/v1/agents"), 401, "UNAUTHORIZED")
    assert_error(live.client("a.b.c").get("/api/v1/agents"), 401, "UNAUTHORIZED")
    revoked = org.client.delete(f"/api/v1/organizations/{org.id}/oauth-clients/{created['id']}")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    assert_error(token_client.get("/api/v1/agents"), 401, "UNAUTHORIZED")
    refused = _token(
        live, {"grant_type": "client_credentials"}, basic=(created["client_id"], created["client_secret"])
    )
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_client"


def test_token_endpoint_errors_are_rfc_6749_section_5_2(live: LiveServer) -> None:
    org = live.organization()
    created = _client(live, org, ["read"])
    good = {"client_id": created["client_id"], "client_secret": created["client_secret"]}

    def error_of(response, status: int) -> str:  # type: ignore[no-untyped-def]
        assert response.status_code == status, response.text
        body = response.json()
        assert set(body) == {"error", "error_description"}, body
        return str(body["error"])

    wrong = _token(live, {"grant_type": "client_credentials", **good, "client_secret": "ocs_wrong"})
    assert error_of(wrong, 401) == "invalid_client"
    assert "www-authenticate" in wrong.headers
    basic_wrong = _token(live, {"grant_type": "client_credentials"}, basic=(created["client_id"], "nope"))
    assert error_of(basic_wrong, 401) == "invalid_client"
    assert basic_wrong.headers["www-authenticate"].startswith("Basic")
    assert error_of(_token(live, {"grant_type": "client_credentials"}), 401) == "invalid_client"
    assert error_of(_token(live, {"grant_type": "password", **good}), 400) == "unsupported_grant_type"
    assert error_of(_token(live, {**good}), 400) == "invalid_request"
    assert (
        error_of(_token(live, {"grant_type": "client_credentials", **good, "scope": "admin"}), 400)
        == "invalid_scope"
    )
    as_json = live.anonymous.post("/oauth/token", json={"grant_type": "client_credentials", **good})
    assert error_of(as_json, 400) == "invalid_request"
    # an API key is not a client secret, and a client secret is not an API key
    assert_error(live.client(created["client_secret"]).get("/api/v1/agents"), 401, "UNAUTHORIZED")


def test_clients_are_managed_with_admin_scope_and_validated(live: LiveServer) -> None:
    org = live.organization()
    reader_key = org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"]
    reader = live.client(reader_key)
    assert_error(reader.get(f"/api/v1/organizations/{org.id}/oauth-clients"), 403, "FORBIDDEN")
    assert_error(
        reader.post(f"/api/v1/organizations/{org.id}/oauth-clients", json={"scopes": ["read"]}),
        403,
        "FORBIDDEN",
    )
    bad = org.client.post(f"/api/v1/organizations/{org.id}/oauth-clients", json={"scopes": ["root"]})
    assert_error(bad, 400, "INVALID_REQUEST")
    assert_error(
        org.client.delete(f"/api/v1/organizations/{org.id}/oauth-clients/not-a-client"), 404, "NOT_FOUND"
    )
    # paging: more clients than the limit
    made = [_client(live, org, ["read"])["id"] for _ in range(3)]
    first = org.client.get(f"/api/v1/organizations/{org.id}/oauth-clients", params={"limit": 2}).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    second = org.client.get(
        f"/api/v1/organizations/{org.id}/oauth-clients", params={"limit": 2, "cursor": first["next_cursor"]}
    ).json()
    assert [item["id"] for item in first["items"] + second["items"]] == made
    assert second["next_cursor"] is None
