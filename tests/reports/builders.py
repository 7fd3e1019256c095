"""Hand-built stored assessments (``Assessment.to_dict()`` shape) for the report renderers."""

from __future__ import annotations

from typing import Any

from aaaf.scoring.core import composite


def dim(
    score: float | None,
    sample_size: int = 30,
    evidence_count: int = 40,
    details: dict[str, Any] | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """One dimension as DimensionResult.to_dict() writes it (details flattened and nested)."""
    details = details or {}
    out: dict[str, Any] = {"score": score, "sample_size": sample_size, "evidence_count": evidence_count}
    out.update(details)
    out["details"] = dict(details)
    if score is None:
        out["reason"] = reason or "no valid evidence"
    return out


def axis(
    dimensions: dict[str, dict[str, Any]], weights: dict[str, float], tiers: Any = None
) -> dict[str, Any]:
    """An axis with its composite computed by the real aggregation primitive."""
    result = composite({name: d["score"] for name, d in dimensions.items()}, weights, tiers)
    out = result.to_dict()
    out["dimensions"] = dimensions
    return out


def stored_assessment(
    performance: dict[str, Any] | None,
    capability: dict[str, Any] | None,
    *,
    name: str = "security-auditor",
    assessment_type: str = "full",
    appeals: list[dict[str, Any]] | None = None,
    anomalous: bool = False,
    review_state: str = "not_required",
    dimension: str | None = None,
) -> dict[str, Any]:
    return {
        "id": "6f1c2a4e-0000-4000-8000-000000000001",
        "agent_id": "6f1c2a4e-0000-4000-8000-0000000000aa",
        "agent_name": name,
        "organization_id": "6f1c2a4e-0000-4000-8000-0000000000bb",
        "type": assessment_type,
        "status": "completed",
        "dimension": dimension,
        "window_start": "2026-10-21T12:00:00Z",
        "window_end": "2026-11-20T12:00:00Z",
        "performance_composite": None if performance is None else performance["composite_score"],
        "performance_tier": None if performance is None else performance["tier"],
        "capability_composite": None if capability is None else capability["composite_score"],
        "capability_tier": None if capability is None else capability["tier"],
        "evidence_summary": {"window_tasks": 47, "completed_tasks": 44},
        "result": {
            "type": assessment_type,
            "window_start": "2026-10-21T12:00:00Z",
            "window_end": "2026-11-20T12:00:00Z",
            "performance": performance,
            "capability": capability,
            "evidence_summary": {
                "window_tasks": 47,
                "completed_tasks": 44,
                "events_used": 212,
                "events_used_by_type": {"task_assigned": 47, "task_completed": 47, "tool_invoked": 118},
            },
            "calibration": {"anomalous": anomalous, "deltas": {"performance": 0.2, "capability": 0.01}}
            if anomalous
            else {"anomalous": False, "deltas": {}, "previous_assessment_id": None},
        },
        "error": None,
        "anomalous": anomalous,
        "review_state": review_state,
        "valid_until": "2027-02-18T12:00:00Z",
        "created_at": "2026-11-20T12:00:00Z",
        "completed_at": "2026-11-20T12:00:05Z",
        "dimensions": [],
        "appeals": appeals or [],
    }
