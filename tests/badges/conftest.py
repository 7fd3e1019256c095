"""Fixtures for the badge tests: sample badge data, an issuer key, a store with assessments.

The third-party verifier (openbadgeslib) reads the wall clock, so samples are dated
around the real present: completed a day ago, valid for 89 more days.  Nothing asserts
on the time itself.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.badges.data import AxisSummary, BadgeData
from aaaf.badges.keys import IssuerKey
from aaaf.scoring.defaults import CAPABILITY_DIMENSIONS, PERFORMANCE_DIMENSIONS
from aaaf.settings import get_settings

BASE_URL = "https://assess.example.com"
PERFORMANCE_SCORES: dict[str, float | None] = {
    "task_completion_rate": 0.91,
    "accuracy": 0.85,
    "speed": None,
    "consistency": 0.78,
    "review_compliance": 0.8,
}
CAPABILITY_SCORES: dict[str, float | None] = {
    "domain_breadth": 0.42,
    "complexity_ceiling": 0.8,
    "tool_proficiency": 0.3996,
    "autonomy_level": 0.67,
    "learning_rate": 0.55,
    "delegation_capability": 0.75,
    "orchestration_skills": None,
}


def clock() -> datetime:
    """The present, to the second (credentials carry whole seconds)."""
    return datetime.now(UTC).replace(microsecond=0)


def sample_badge(now: datetime | None = None, **changes: Any) -> BadgeData:
    at = now or clock()
    data = BadgeData(
        assessment_id="3f2b1c4e-8a1d-4c55-9a77-0b1e2f3a4b5c",
        assessment_type="full",
        agent_id="9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
        agent_name="security-auditor",
        organization_id="11111111-2222-4333-8444-555555555555",
        organization_name="Acme Agents",
        completed_at=at - timedelta(days=1),
        valid_until=at + timedelta(days=89),
        window_start=at - timedelta(days=31),
        window_end=at - timedelta(days=1),
        # 0.7912… is Expert (≥ 0.75); 0.3996 is Functional (≥ 0.30) and shows as 0.39
        performance=AxisSummary("performance", 0.7912345678901234, "Expert", dict(PERFORMANCE_SCORES)),
        capability=AxisSummary("capability", 0.3996, "Functional", dict(CAPABILITY_SCORES)),
        base_url=BASE_URL,
    )
    return replace(data, **changes) if changes else data


@pytest.fixture()
def issuer() -> IssuerKey:
    return IssuerKey.generate()


@pytest.fixture()
def badge_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Settings pointing the issuer key into this test's directory (never the repository)."""
    key_path = tmp_path / "keys" / "aaaf-issuer.key"
    monkeypatch.setenv("AAAF_ISSUER_KEY_PATH", str(key_path))
    monkeypatch.setenv("AAAF_PUBLIC_BASE_URL", BASE_URL)
    get_settings.cache_clear()
    yield key_path
    get_settings.cache_clear()


@dataclass
class StoreSession:
    """What the CLI's open_session yields: the store, the org's repositories, the org."""

    store: Any
    org: Any
    organization: Any


def session_of(store: Any) -> StoreSession:
    organization = store.default_organization()
    return StoreSession(store=store, org=store.scope(organization.id), organization=organization)


def completed_assessment(
    org: Any,
    *,
    agent_name: str = "security-auditor",
    completed_at: datetime | None = None,
    performance: Mapping[str, float | None] | None = None,
    capability: Mapping[str, float | None] | None = None,
    composites: tuple[float | None, str | None, float | None, str | None] = (0.8, "Expert", 0.5, "Versatile"),
    review_state: str = "not_required",
    validity_days: int = 90,
    audit: Mapping[str, Any] | None = None,
) -> Any:
    """Enroll (or reuse) an agent and store a completed assessment with the given scores
    (and, given one, the ``audit`` object of its result, SCORING.md §2.6)."""
    at = completed_at or clock()
    agent = org.find_agent(agent_name) or org.enroll_agent(agent_name)
    record = org.create_assessment(
        agent.id, type="full", window_start=at - timedelta(days=30), window_end=at, created_at=at
    )
    rows = []
    for axis, names, scores in (
        ("performance", PERFORMANCE_DIMENSIONS, performance or PERFORMANCE_SCORES),
        ("capability", CAPABILITY_DIMENSIONS, capability or CAPABILITY_SCORES),
    ):
        for name in names:
            score = scores.get(name)
            rows.append((axis, name, score, 20, 20, {}, None if score is not None else "no valid evidence"))
    perf, perf_tier, cap, cap_tier = composites
    return org.complete_assessment(
        record.id,
        result={"type": "full"} if audit is None else {"type": "full", "audit": dict(audit)},
        dimension_rows=rows,
        performance_composite=perf,
        performance_tier=perf_tier,
        capability_composite=cap,
        capability_tier=cap_tier,
        evidence_summary={},
        valid_until=at + timedelta(days=validity_days),
        completed_at=at,
        anomalous=review_state != "not_required",
        review_state=review_state,
    )


def fresh_uuid() -> str:
    return str(uuid.uuid4())
