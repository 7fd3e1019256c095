"""Rate limits against live servers (issue 13 §4, §7; SCORING.md §7 "Rate limits": these tests
use the default, 100 requests per minute per key)."""

from __future__ import annotations

import os
import re
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import ADMIN_KEY, LiveServer, Server, assert_error, start_server

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
POLICY = re.compile(r'^"per-key";q=(\d+);w=60$')
STANDING = re.compile(r'^"per-key";r=(\d+);t=(\d+)$')


def _standing(response: httpx.Response) -> tuple[int, int, int]:
    """(limit, remaining, reset) as the headers say, checked against each other."""
    policy = POLICY.match(response.headers["ratelimit-policy"])
    standing = STANDING.match(response.headers["ratelimit"])
    assert policy and standing, dict(response.headers)
    limit, remaining, reset = int(policy.group(1)), int(standing.group(1)), int(standing.group(2))
    assert response.headers["x-ratelimit-limit"] == str(limit)
    assert response.headers["x-ratelimit-remaining"] == str(remaining)
    assert response.headers["x-ratelimit-reset"] == str(reset)
    assert 0 <= reset <= 60
    return limit, remaining, reset


def test_request_101_of_a_fresh_organization_is_refused(live: LiveServer) -> None:
    org = live.organization(rate_limit_per_minute=None)  # the default
    for index in range(100):
        response = org.client.get("/api/v1/agents")
        assert response.status_code == 200, (index, response.text)
        assert _standing(response)[:2] == (100, 99 - index)
    refused = org.client.get("/api/v1/agents")
    error = assert_error(refused, 429, "RATE_LIMITED")
    assert error["details"]["limit"] == 100 and error["details"]["window_seconds"] == 60
    limit, remaining, _reset = _standing(refused)
    assert (limit, remaining) == (100, 0)
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    # a batch is one request, refused like any other
    assert_error(org.client.post("/api/v1/events/batch", json={"events": []}), 429, "RATE_LIMITED")
    # another organization's key has its own budget
    other = live.organization(rate_limit_per_minute=None)
    assert _standing(other.client.get("/api/v1/agents"))[:2] == (100, 99)


def test_the_limit_is_an_organization_setting(live: LiveServer) -> None:
    org = live.organization(rate_limit_per_minute=None)
    changed = org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"rate_limit_per_minute": 3})
    assert changed.status_code == 200 and changed.json()["rate_limit_per_minute"] == 3
    answers = [org.client.get(f"/api/v1/organizations/{org.id}") for _ in range(4)]
    assert [response.status_code for response in answers] == [200, 200, 200, 429]
    assert [_standing(response)[1] for response in answers] == [2, 1, 0, 0]
    assert all(_standing(response)[0] == 3 for response in answers)
    invalid = live.organization().client
    assert_error(
        invalid.patch(f"/api/v1/organizations/{org.id}/config", json={"rate_limit_per_minute": 0}),
        404,
        "NOT_FOUND",
    )


def test_an_invalid_limit_is_refused(live: LiveServer) -> None:
    org = live.organization()
    for value in (0, -5, "many", 1.5):
        response = org.client.patch(
            f"/api/v1/organizations/{org.id}/config", json={"rate_limit_per_minute": value}
        )
        assert_error(response, 400, "INVALID_REQUEST")


def _redis_db() -> int:
    """A Redis database to share between two servers (skipped only outside CI when Redis is down)."""
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=2):
            pass
    except OSError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis at {REDIS_HOST}:{REDIS_PORT} unreachable ({error}); CI=true may not skip")
        pytest.skip(f"Redis at {REDIS_HOST}:{REDIS_PORT} unreachable: {error}")
    return 3


@pytest.fixture
def two_servers_sharing_redis(live: LiveServer, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two more ``aaaf serve`` processes on the live server's database, with one Redis budget."""
    env = {
        "AAAF_REDIS_URL": f"redis://{REDIS_HOST}:{REDIS_PORT}/{_redis_db()}",
        "AAAF_RATE_LIMIT_PREFIX": f"aaaf-test-{uuid.uuid4().hex}",
    }
    first = start_server(live.database_url, tmp_path, extra_env=env)
    try:
        second = start_server(live.database_url, tmp_path, extra_env=env)
        try:
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()


def test_two_server_processes_share_one_budget_in_redis(
    live: LiveServer, two_servers_sharing_redis: tuple[Server, Server]
) -> None:
    org = live.organization(rate_limit_per_minute=None)
    headers = {"Authorization": f"Bearer {org.key}"}
    first, second = two_servers_sharing_redis
    with (
        httpx.Client(base_url=first.base_url, headers=headers, timeout=30) as a,
        httpx.Client(base_url=second.base_url, headers=headers, timeout=30) as b,
    ):
        for index in range(100):
            response = (a, b)[index % 2].get("/api/v1/agents")
            assert response.status_code == 200, (index, response.text)
            assert _standing(response)[:2] == (100, 99 - index)  # one count across both processes
        assert_error(a.get("/api/v1/agents"), 429, "RATE_LIMITED")
        assert_error(b.get("/api/v1/agents"), 429, "RATE_LIMITED")


def test_public_routes_are_limited_per_client_address(tmp_path: Path, sqlite_at_head: Path) -> None:
    server = start_server(
        f"sqlite:///{sqlite_at_head}", tmp_path, extra_env={"AAAF_PUBLIC_RATE_LIMIT_PER_MINUTE": "5"}
    )
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            # start_server's /health check was the address's first request; creating an
            # organization (the admin key, no organization's key) is its second
            created = client.post(
                "/api/v1/organizations",
                json={"name": "ip-limited"},
                headers={"Authorization": f"Bearer {ADMIN_KEY}"},
            )
            assert created.status_code == 201, created.text
            assert created.headers["ratelimit-policy"] == '"per-ip";q=5;w=60'
            # requests a key is counted for do not use the address's budget
            key = {"Authorization": f"Bearer {created.json()['api_key']}"}
            for _ in range(8):
                answer = client.get("/api/v1/agents", headers=key)
                assert (
                    answer.status_code == 200 and answer.headers["ratelimit-policy"] == '"per-key";q=100;w=60'
                )
            statuses = []
            for _ in range(5):
                response = client.get("/.well-known/jwks.json")
                statuses.append(response.status_code)
                assert response.headers["ratelimit-policy"] == '"per-ip";q=5;w=60'
            assert statuses == [200, 200, 200, 429, 429]
            refused = client.get("/health")
            assert_error(refused, 429, "RATE_LIMITED")
            assert int(refused.headers["retry-after"]) >= 1
            assert (
                client.get("/api/v1/agents", headers=key).status_code == 200
            )  # the key still has its budget
    finally:
        server.stop()
