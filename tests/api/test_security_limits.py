"""Installation limits an organization cannot raise (docs/security.md "Limits"): its rate
limit, its active API keys, and what one comparison may cost — through the API's POST and
the dashboard's GET alike."""

from __future__ import annotations

import re

import httpx

from tests.api.conftest import TEST_RATE_LIMIT_PER_MINUTE, LiveServer, assert_error

MAX_KEYS = 100  # AAAF_MAX_KEYS_PER_ORGANIZATION's default
MAX_RESAMPLES = 20_000  # AAAF_MAX_COMPARE_RESAMPLES's default


def test_an_organization_cannot_raise_its_rate_limit_past_the_installation(live: LiveServer) -> None:
    org = live.organization()
    over = org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"rate_limit_per_minute": 10**9})
    error = assert_error(over, 400, "INVALID_REQUEST")
    assert error["details"]["limit"] == TEST_RATE_LIMIT_PER_MINUTE
    assert "AAAF_MAX_RATE_LIMIT_PER_MINUTE" in error["message"]


def test_an_organization_holds_at_most_the_installation_s_keys(live: LiveServer) -> None:
    org = live.organization()  # its first key is one
    for index in range(MAX_KEYS - 1):
        made = org.client.post("/api/v1/keys", json={"name": f"k{index}", "scopes": ["read"]})
        assert made.status_code == 201, made.text
    refused = org.client.post("/api/v1/keys", json={"name": "one-too-many", "scopes": ["read"]})
    assert_error(refused, 409, "CONFLICT")
    # revoking one makes room again
    keys = org.client.get("/api/v1/keys", params={"limit": 5}).json()["items"]
    spare = next(key for key in keys if (key.get("name") or "").startswith("k"))
    assert org.client.delete(f"/api/v1/keys/{spare['id']}").status_code in (200, 204)
    assert org.client.post("/api/v1/keys", json={"name": "room", "scopes": ["read"]}).status_code == 201


def test_a_compare_costs_at_most_the_installation_s_resamples(live: LiveServer) -> None:
    org = live.organization()
    body = {"control": "a", "treatments": ["b"], "resamples": 100_000}
    error = assert_error(org.client.post("/api/v1/eval-runs/compare", json=body), 400, "INVALID_REQUEST")
    assert error["details"] == {"field": "resamples", "value": 100_000, "limit": MAX_RESAMPLES}

    browser = httpx.Client(base_url=live.base_url, timeout=30.0)
    form = browser.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token
    signed = browser.post(
        "/sign-in",
        data={"csrf_token": token.group(1), "api_key": org.key, "next": "/"},
        follow_redirects=False,
    )
    assert signed.status_code == 303, signed.text
    report = browser.get("/compare/report", params={"control": "a", "treatment": "b", "resamples": "100000"})
    assert report.status_code == 400
    assert f"at most {MAX_RESAMPLES}" in report.text
    browser.close()
