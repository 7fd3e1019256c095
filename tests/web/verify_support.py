"""Badges on a live server for the verification page's tests (issue 17): issued through the
API as a user would, or — for an expired one and a borderline tier, which the API cannot make
on demand — written into the server's own database with the same services the server runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from aaaf.scoring.defaults import CAPABILITY_DIMENSIONS, PERFORMANCE_DIMENSIONS
from aaaf.services import badges as badge_service
from aaaf.settings import get_settings
from aaaf.store import open_store
from tests.api.conftest import LiveServer, Org, agent_evidence, poll_until, wait_for_status


@dataclass(frozen=True)
class LiveBadge:
    org: Org
    assessment_id: str
    agent_name: str

    @property
    def page(self) -> str:
        return f"/verify/{self.assessment_id}"


def api_badge(live: LiveServer, name: str, *, org: Org | None = None) -> LiveBadge:
    """A badge issued the way a user gets one: enroll, send evidence, assess (it is issued
    after scoring), wait until the badge is on record."""
    org = org or live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    agent = org.client.post("/api/v1/agents", json={"name": name, "claimed_domains": ["code", "testing"]})
    assert agent.status_code == 201, agent.text
    agent_id = agent.json()["id"]
    sent = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent_id, 4)})
    assert sent.status_code in (200, 201, 202), sent.text
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id})
    assert started.status_code in (201, 202), started.text
    assessment_id = started.json()["id"]
    assert wait_for_status(org.client, assessment_id)["status"] == "completed"
    url = f"/api/v1/badges/{assessment_id}"
    assert poll_until(lambda: org.client.get(url).status_code, lambda status: status == 200) == 200
    return LiveBadge(org, assessment_id, name)


@contextmanager
def server_settings(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process signs with the server's database and names the server's public URL."""
    monkeypatch.setenv("AAAF_PUBLIC_BASE_URL", live.base_url)
    monkeypatch.setenv("AAAF_DATABASE_URL", live.database_url)
    get_settings.cache_clear()
    try:
        yield
    finally:
        get_settings.cache_clear()


@dataclass
class _Session:
    store: Any
    org: Any
    organization: Any


def stored_badge(
    live: LiveServer,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    *,
    completed_at: datetime,
    issued_at: datetime,
    uncertainty: Mapping[str, Mapping[str, Any]] | None = None,
    config: Mapping[str, Any] | None = None,
) -> LiveBadge:
    """A completed assessment (composites 0.80 Expert / 0.50 Versatile) written into the live
    server's database, its badge issued as of ``issued_at`` by the badge service with the
    server's issuer key; ``uncertainty`` per axis and the run's ``config`` go in its result."""
    org_http = live.organization()
    with server_settings(live, monkeypatch), open_store(live.database_url) as store:
        org = store.scope(org_http.id)
        agent = org.enroll_agent(name, claimed_domains=["security"])
        record = org.create_assessment(
            agent.id,
            type="full",
            window_start=completed_at - timedelta(days=30),
            window_end=completed_at,
            created_at=completed_at,
        )
        rows = [
            (axis, dim, 0.8 if axis == "performance" else 0.5, 20, 20, {}, None)
            for axis, names in (
                ("performance", PERFORMANCE_DIMENSIONS),
                ("capability", CAPABILITY_DIMENSIONS),
            )
            for dim in names
        ]
        result: dict[str, Any] = {"type": "full"}
        for axis, sure in (uncertainty or {}).items():
            result[axis] = {"uncertainty": dict(sure)}
        if config is not None:
            result["config"] = dict(config)
        org.complete_assessment(
            record.id,
            result=result,
            dimension_rows=rows,
            performance_composite=0.8,
            performance_tier="Expert",
            capability_composite=0.5,
            capability_tier="Versatile",
            evidence_summary={},
            valid_until=completed_at + timedelta(days=90),
            completed_at=completed_at,
        )
        badge_service.issue(_Session(store, org, org.organization()), record.id, now=issued_at)
    return LiveBadge(org_http, str(record.id), name)


def expired_badge(live: LiveServer, monkeypatch: pytest.MonkeyPatch, name: str) -> LiveBadge:
    """A badge whose 90 days ended yesterday (issued the day after its assessment)."""
    now = datetime.now(UTC).replace(microsecond=0)
    completed = now - timedelta(days=91)
    return stored_badge(
        live, monkeypatch, name, completed_at=completed, issued_at=completed + timedelta(days=1)
    )


def borderline_badge(live: LiveServer, monkeypatch: pytest.MonkeyPatch, name: str) -> LiveBadge:
    """A valid badge whose performance tier has probability 0.62 (borderline, SCORING.md §2.5)
    and whose capability tier has 0.97, under the run's threshold 0.8."""
    now = datetime.now(UTC).replace(microsecond=0)
    return stored_badge(
        live,
        monkeypatch,
        name,
        completed_at=now - timedelta(hours=1),
        issued_at=now - timedelta(minutes=30),
        uncertainty={
            "performance": {
                "ci": [0.71, 0.86],
                "tier_probabilities": {"Expert": 0.62, "Proficient": 0.38},
                "resamples": 1000,
                "insufficient": 0,
            },
            "capability": {
                "ci": [0.45, 0.55],
                "tier_probabilities": {"Versatile": 0.97, "Functional": 0.03},
                "resamples": 1000,
                "insufficient": 0,
            },
        },
        config={"borderline_probability": 0.8},
    )
