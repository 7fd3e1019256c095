"""``aaaf explain``: which tasks moved an assessment's scores, and what would raise its tiers
(SCORING.md §0 'Traceability', §6 retention; issue 10 §5).

The shell around :func:`aaaf.scoring.explain.explain_dimensions`: it reads the assessment,
its recorded spec and event ids (``assessment_evidence``), loads exactly those events, and
recomputes each dimension without each task under the recorded config — never the
organization's current one.  A dimension an accepted appeal re-scored is recomputed without
that appeal's counter-evidenced tasks, as it was (SCORING.md §2.4).  "What would raise the
tier" is the report's own computation (:func:`aaaf.reports.markdown.tier_raise`).

When some of the recorded events are no longer in the store (pruned by retention) the
contributions cannot be recomputed: the explanation says so and still gives the stored
scores, the recorded spec and the number of events each dimension used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from aaaf.errors import AAAFError
from aaaf.models import Explanation as ExplanationModel
from aaaf.reports.markdown import TierRaise, tier_raise
from aaaf.scoring.defaults import AXES
from aaaf.scoring.explain import DimensionExplanation, explain_dimensions
from aaaf.scoring.results import iso
from aaaf.scoring.spec import SchemeSpec, aaaf_config_of

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Assessment

DEFAULT_TOP = 5

EXPLAINED = "explained"
PRUNED = "evidence_pruned"
NOT_RECORDED = "not_recorded"


@dataclass(frozen=True)
class Explanation:
    """One assessment explained.  ``status``: ``explained``, ``evidence_pruned`` (some
    recorded events are gone) or ``not_recorded`` (stored before ids were recorded)."""

    assessment_id: str
    agent: str
    status: str
    message: str | None
    spec: Mapping[str, object] | None
    window_end: str
    stored: Mapping[str, StoredDimension]
    dimensions: Mapping[str, DimensionExplanation] = field(default_factory=dict)
    raises: Mapping[str, TierRaise | None] = field(default_factory=dict)
    missing_events: int = 0
    result: Mapping[str, Any] = field(default_factory=dict)
    evidence_pruned_at: str | None = None  # when retention deleted its events (SCORING.md §6)

    def to_model(self, top: int | None = DEFAULT_TOP) -> ExplanationModel:
        """The public shape :class:`aaaf.models.Explanation`."""
        return ExplanationModel.model_validate(self.to_dict(top))

    def to_dict(self, top: int | None = DEFAULT_TOP) -> dict[str, object]:
        dims: dict[str, object] = {}
        for name, stored in self.stored.items():
            entry: dict[str, object] = {"axis": stored["axis"], "score": stored["score"]}
            entry["evidence_count"] = stored["evidence_count"]
            explained = self.dimensions.get(name)
            if explained is not None:
                body = explained.to_dict(top)
                body.pop("axis")
                body.pop("score")
                entry.update(body)
                entry["recomputed_score"] = explained.score
                entry["recomputed_matches"] = explained.score == stored["score"]
            dims[name] = entry
        return {
            "assessment_id": self.assessment_id,
            "agent": self.agent,
            "status": self.status,
            "message": self.message,
            "spec": None if self.spec is None else dict(self.spec),
            "window_end": self.window_end,
            "missing_events": self.missing_events,
            "evidence_pruned_at": self.evidence_pruned_at,
            "dimensions": dims,
            # SCORING.md §2.5, as stored with the assessment (null: made without it)
            "uncertainty": {axis: (self.result.get(axis) or {}).get("uncertainty") for axis in self.raises},
            "what_would_raise_the_tier": {
                axis: None if raise_ is None else _raise_dict(raise_) for axis, raise_ in self.raises.items()
            },
        }


def _raise_dict(raise_: TierRaise) -> dict[str, object]:
    return {
        "composite": raise_.composite,
        "tier": raise_.tier,
        "next_tier": raise_.next_tier,
        "next_bound": raise_.next_bound,
        "gap": raise_.gap,
        "needs": [
            {
                "dimension": need.dimension,
                "covered": need.covered,
                "current": need.current,
                "weight": need.weight,
                "required": need.required,
                "reachable": need.reachable,
            }
            for need in raise_.needs
        ],
        "uncovered": list(raise_.uncovered),
    }


class StoredDimension(TypedDict):
    """A dimension as its assessment stored it: its axis, score and evidence count."""

    axis: str
    score: float | None
    evidence_count: int | None


class _Common(TypedDict):
    """What every :class:`Explanation` of an assessment holds, whatever its status."""

    assessment_id: str
    agent: str
    window_end: str
    stored: Mapping[str, StoredDimension]
    result: Mapping[str, Any]


def _stored_dimensions(result: Mapping[str, Any]) -> dict[str, StoredDimension]:
    out: dict[str, StoredDimension] = {}
    for axis in AXES:
        data = result.get(axis) or {}
        for name, dim in (data.get("dimensions") or {}).items():
            out[name] = {"axis": axis, "score": dim.get("score"), "evidence_count": dim.get("evidence_count")}
    return out


def _appeal_exclusions(assessment: Assessment) -> dict[str, frozenset[str]]:
    """Per dimension, the tasks the last accepted appeal challenging it left out (§2.4)."""
    out: dict[str, frozenset[str]] = {}
    for appeal in assessment.appeals:  # oldest first
        if appeal.status != "accepted":
            continue
        tasks = frozenset(str(item["task_id"]) for item in appeal.counter_evidence)
        for name in appeal.dimensions_challenged:
            out[name] = tasks
    return out


def explain_assessment(org: OrgStore, assessment_id: str, *, dimension: str | None = None) -> Explanation:
    """Explain a completed assessment (all its dimensions, or ``dimension`` alone)."""
    assessment = org.get_assessment(assessment_id)
    if assessment.status != "completed" or not assessment.result:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Assessment {assessment.id} is {assessment.status}; only a completed assessment has scores to explain.",
            {"assessment_id": str(assessment.id), "status": assessment.status},
        )
    result: Mapping[str, Any] = assessment.result
    stored = _stored_dimensions(result)
    if dimension is not None:
        if dimension not in stored:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Dimension {dimension!r} was not assessed in {assessment.id}; "
                f"assessed: {', '.join(stored)}.",
                {"field": "dimension", "value": dimension, "assessed": list(stored)},
            )
        stored = {dimension: stored[dimension]}
    axes = [axis for axis in AXES if result.get(axis) and any(s["axis"] == axis for s in stored.values())]
    common: _Common = {
        "assessment_id": str(assessment.id),
        "agent": assessment.agent_name,
        "window_end": iso(assessment.window_end),
        "stored": stored,
        "result": result,
    }
    evidence = org.assessment_evidence(assessment.id)
    if evidence is None:
        raises = {axis: tier_raise(axis, result[axis], org.config().weights(axis)) for axis in axes}
        return Explanation(
            status=NOT_RECORDED,
            message=(
                "This assessment was stored before event ids and scheme specs were recorded: "
                "its contributions cannot be recomputed."
            ),
            spec=None,
            raises=raises,
            **common,
        )
    spec = SchemeSpec(evidence.scheme, evidence.scheme_version, evidence.config)
    config = aaaf_config_of(spec)
    raises = {axis: tier_raise(axis, result[axis], config.weights(axis)) for axis in axes}
    wanted = set(evidence.event_ids)
    events = [event for event in org.events(assessment.agent_id) if event.id in wanted]
    missing = len(wanted) - len(events)
    if missing:
        pruned_at = assessment.evidence_pruned_at
        when = "" if pruned_at is None else f" (evidence pruned on {pruned_at:%Y-%m-%d})"
        return Explanation(
            status=PRUNED,
            message=(
                f"The evidence is no longer available{when}: {missing} of the {len(wanted)} events this "
                "assessment used are no longer in the store (deleted by the retention policy, "
                "docs/scoring.md §7). Its scores, scheme spec and event ids are kept; the contributions "
                "cannot be recomputed."
            ),
            evidence_pruned_at=None if pruned_at is None else iso(pruned_at),
            spec=spec.to_dict(),
            raises=raises,
            missing_events=missing,
            **common,
        )
    explained = explain_dimensions(
        events, config, assessment.window_end, list(stored), _appeal_exclusions(assessment)
    )
    return Explanation(
        status=EXPLAINED,
        message=None,
        spec=spec.to_dict(),
        dimensions=explained,
        raises=raises,
        **common,
    )
