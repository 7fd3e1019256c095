"""The 0-1000 trust score of an agent over HTTP (document 000; SCORING.md §3; issue 13).

The same service as ``aaaf trust`` (:mod:`aaaf.services.trust`), so each answer is what
the CLI's ``--json`` prints:

* ``GET /api/v1/agents/{agent_id}/trust[?at=]`` (``read``) — the score at ``at`` (default
  now), read-only: nothing is recorded (``history.not_recorded_reason: "read-only query"``),
  as ``aaaf trust NAME --at T --json``;
* ``POST /api/v1/agents/{agent_id}/trust`` (``assessments:write``) — recompute at the
  present time and append it to the score history with the anomaly rule (a move of more
  than 200 points is held for review), as ``aaaf trust NAME --json``;
* ``GET /api/v1/agents/{agent_id}/trust/history`` (``read``) — every recorded score,
  oldest first, as ``aaaf trust history NAME --json`` (a §7 page).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import AwareDatetime

from aaaf.api.deps import AssessmentWriter, NowDep, Reader
from aaaf.api.models import Page
from aaaf.api.pagination import CursorQuery, LimitQuery, paginate, time_key
from aaaf.models.trust import ScoreHistoryEntry, TrustScore
from aaaf.services import trust as trust_service

router = APIRouter(prefix="/api/v1/agents/{agent_id}/trust", tags=["trust"])


@router.get("", response_model=TrustScore, response_model_exclude_unset=True, operation_id="get_trust_score")
def get_trust_score(
    agent_id: str,
    org: Reader,
    now: NowDep,
    at: Annotated[
        AwareDatetime | None, Query(description="RFC 3339 instant to score at (default now).")
    ] = None,
) -> TrustScore:
    """The agent's trust score: each dimension, the composite, the tier and why (read-only)."""
    report = trust_service.trust_report(org, agent_id, at=at or now, record=False)
    return report.to_model()


@router.post(
    "", response_model=TrustScore, response_model_exclude_unset=True, operation_id="recompute_trust_score"
)
def recompute_trust_score(agent_id: str, org: AssessmentWriter, now: NowDep) -> TrustScore:
    """Recompute the agent's trust score now and record it in the history (docs/scoring.md §4)."""
    report = trust_service.trust_report(org, agent_id, at=now, record=True, computed_at=now)
    return report.to_model()


@router.get("/history", response_model=Page[ScoreHistoryEntry], operation_id="list_trust_history")
def list_trust_history(
    agent_id: str, org: Reader, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[ScoreHistoryEntry]:
    """Every trust score recorded for the agent, oldest first, with anomaly and review state."""
    entries = trust_service.history(org, agent_id)
    return paginate(
        entries,
        key=lambda entry: [time_key(entry.computed_at), str(entry.id)],
        cursor=cursor,
        limit=limit,
        render=lambda entry: entry.to_dict(),
        page=Page[ScoreHistoryEntry],
    )
