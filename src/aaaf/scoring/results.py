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
    uncertainty: Mapping[str, Any] | None = None
    """SCORING.md §2.5: ``{ci, tier_probabilities, resamples, insufficient}``; None when not computed."""

    @classmethod
    def from_dict(cls, axis: str, data: Mapping[str, Any]) -> AxisResult:
        """Rebuild an axis from its stored ``to_dict`` form (used by appeals)."""
        dims = {name: DimensionResult.from_dict(name, d) for name, d in data["dimensions"].items()}
        comp = CompositeResult(
            score=data.get("composite_score"),
            tier=data.get("tier"),
            covered=int(data.get("covered", 0)),
            total=int(data.get("total", len(dims))),
            weights_used=dict(data.get("weights_used", {})),
        )
        stored = data.get("uncertainty")
        uncertainty = dict(stored) if isinstance(stored, Mapping) else None
        return cls(axis=axis, dimensions=dims, composite=comp, uncertainty=uncertainty)

    def to_dict(self) -> dict[str, Any]:
        out = self.composite.to_dict()
        if self.uncertainty is not None:
            out["uncertainty"] = dict(self.uncertainty)
        out["dimensions"] = {name: dim.to_dict() for name, dim in self.dimensions.items()}
        return out


@dataclass(frozen=True)
class AAAFResult:
    """What the pure AAAF scheme returns for one agent and one window.

    ``performance`` / ``capability`` is None for an axis a ``single_dimension``
    assessment did not look at.  ``event_ids`` are the ids of every event the result
    used (traceability, SCORING.md §0).  ``audit`` is the audit object of SCORING.md §2.6
    (coverage, honesty, ...; :class:`aaaf.scoring.audit.AuditSummary`'s ``to_dict``).
    """

    assessment_type: str
    window_start: datetime
    window_end: datetime
    performance: AxisResult | None
    capability: AxisResult | None
    evidence_summary: Mapping[str, Any] = field(default_factory=dict)
    event_ids: tuple[str, ...] = ()
    audit: Mapping[str, Any] | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AAAFResult:
        """Rebuild a result from ``to_dict`` output (the assessment's stored ``result``)."""

        def parse(ts: str) -> datetime:
            return datetime.fromisoformat(ts.replace("Z", "+00:00"))

        perf = data.get("performance")
        cap = data.get("capability")
        return cls(
            assessment_type=data.get("type", "passive_only"),
            window_start=parse(data["window_start"]),
            window_end=parse(data["window_end"]),
            performance=AxisResult.from_dict("performance", perf) if perf else None,
            capability=AxisResult.from_dict("capability", cap) if cap else None,
            evidence_summary=dict(data.get("evidence_summary", {})),
            audit=dict(data["audit"]) if isinstance(data.get("audit"), Mapping) else None,
        )

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
            **({"audit": dict(self.audit)} if self.audit is not None else {}),
        }
