"""Result objects of the AAAF scheme: plain, frozen, serialisable (SCORING.md §0, document 004 §6.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.scoring.core import CompositeResult, DimensionResult


def iso(ts: datetime) -> str:
    """RFC 3339 in UTC with a 'Z' (the format of every timestamp we emit)."""
    text = ts.astimezone().isoformat() if ts.tzinfo is None else ts.isoformat()
    if text.endswith("+00:00"):
        text = text[:-6] + "Z"
    return text


@dataclass(frozen=True)
class AxisResult:
    """One axis (performance or capability): its dimensions and composite."""

    axis: str
    dimensions: Mapping[str, DimensionResult]
    composite: CompositeResult

    def to_dict(self) -> dict[str, Any]:
        out = self.composite.to_dict()
        out["dimensions"] = {name: dim.to_dict() for name, dim in self.dimensions.items()}
        return out


@dataclass(frozen=True)
class AAAFResult:
    """What the pure AAAF scheme returns for one agent and one window.

    ``performance`` / ``capability`` is None for an axis a ``single_dimension``
    assessment did not look at.  ``event_ids`` are the ids of every event the result
    used (traceability, SCORING.md §0).
    """

    assessment_type: str
    window_start: datetime
    window_end: datetime
    performance: AxisResult | None
    capability: AxisResult | None
    evidence_summary: Mapping[str, Any] = field(default_factory=dict)
    event_ids: tuple[str, ...] = ()

    def axis(self, name: str) -> AxisResult | None:
        return self.performance if name == "performance" else self.capability

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.assessment_type,
            "window_start": iso(self.window_start),
            "window_end": iso(self.window_end),
            "performance": self.performance.to_dict() if self.performance else None,
            "capability": self.capability.to_dict() if self.capability else None,
            "evidence_summary": dict(self.evidence_summary),
        }
