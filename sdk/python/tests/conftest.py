"""Fixtures of the Python SDK's tests (issue 18 §4): the API tests' live ``aaaf serve`` (one per
dialect, SQLite and PostgreSQL), an organization with an all-scopes key, an agent, and a
misbehaving proxy in front of the server (sdk_proxy.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sdk_proxy import MisbehavingProxy
from tests.api.conftest import Org, live  # noqa: F401
from tests.conftest import _sqlite_template  # noqa: F401  (the template the SQLite `live` server copies)


@pytest.fixture
def org(live: Any) -> Org:  # noqa: F811
    return live.organization()


@pytest.fixture
def agent_id(org: Org) -> str:
    response = org.client.post("/api/v1/agents", json={"name": f"agent-{uuid.uuid4().hex[:8]}"})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


@pytest.fixture
def proxy_for(live: Any) -> Iterator[Any]:  # noqa: F811
    made: list[MisbehavingProxy] = []

    def make(script: list[Any]) -> MisbehavingProxy:
        made.append(MisbehavingProxy(live.base_url, script))
        return made[-1]

    yield make
    for proxy in made:
        proxy.close()
