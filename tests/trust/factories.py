"""Evidence builders for the trust service and CLI tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from aaaf.evidence.validation import validate_event
from aaaf.scoring.trust import TRUST_DIMENSIONS

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def eval_raw(
    dimension: str,
    score: float,
    *,
    at: datetime = NOW,
    days_ago: float = 1.0,
    key: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "type": "eval_result",
        "timestamp": (at - timedelta(days=days_ago)).isoformat(),
        "data": {"dimension": dimension, "score": score, **extra},
    }
    if key is not None:
        raw["id"] = key
    return raw


def every_dimension(
    score: float, *, at: datetime = NOW, days_ago: float = 1.0, prefix: str = "e"
) -> list[dict[str, Any]]:
    """One fresh eval_result per dimension, all at ``score``."""
    return [eval_raw(d, score, at=at, days_ago=days_ago, key=f"{prefix}-{d}") for d in TRUST_DIMENSIONS]


def add(org: Any, agent: Any, raws: list[dict[str, Any]], *, now: datetime = NOW) -> list[bool]:
    """Validate (as the evidence edge does) and store raw events for ``agent``."""
    return org.add_events(
        [(agent.id, validate_event(raw, now=now, default_agent=agent.name)) for raw in raws]
    )
