"""An in-process dashboard (FastAPI's TestClient) on a SQLite file, with one organization
holding agents scored through the services (issue 17)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import agent_evidence


@dataclass
class Dashboard:
    client: TestClient
    store: Any
    org_id: Any
    key: str
    read_key: str
    agents: dict[str, Any]
    other_agent: Any


def _seed(store: Any, name: str, agents: dict[str, int], *, now: datetime) -> tuple[Any, str, dict[str, Any]]:
    import aaaf
    from aaaf.services import assess as assess_service
    from aaaf.services.keys import create_organization

    organization, issued = create_organization(store, name, now=now)
    org = store.scope(organization.id)
    out = {}
    for agent_name, tasks in agents.items():
        agent = org.enroll_agent(agent_name)
        events = agent_evidence(str(agent.id), tasks)
        aaaf.collect(org, list(enumerate(events, 1)), now=now)
        if tasks >= 30:
            assess_service.assess_agent(org, agent_name, now=now - timedelta(days=1), uncertainty=False)
            assess_service.assess_agent(org, agent_name, now=now, uncertainty=False)
        out[agent_name] = org.get_agent(agent_name)
    return organization, issued.secret, out


@pytest.fixture
def dashboard(sqlite_at_head: Path) -> Iterator[Dashboard]:
    from aaaf.api.app import create_app
    from aaaf.services.keys import create_key

    url = f"sqlite:///{sqlite_at_head}"
    app = create_app(url)
    now = datetime.now(UTC)
    with TestClient(app) as client:
        store = app.state.store
        organization, key, agents = _seed(store, "acme", {"alpha": 40, "beta": 35, "gamma": 4}, now=now)
        read = create_key(store, organization.id, scopes=["read"], now=now)
        _, _, others = _seed(store, "other", {"stranger": 2}, now=now)
        yield Dashboard(client, store, organization.id, key, read.secret, agents, others["stranger"])
