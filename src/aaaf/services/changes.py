"""What changed since the agent's previous assessment, per dimension, and why.

For each dimension: the score before and after, and its causes — new evidence (samples before
→ after), coverage gained or lost (a dimension scored now and not before, or the reverse), the
weights renormalised over the dimensions that have evidence (docs/scoring.md §1: a composite
spreads the weight of an unscored dimension over the scored ones, so a dimension can move a
composite without its own score moving), and a configuration change recorded between the two
assessments (which setting, when, before → after, by whom, from the configuration history).
Besides: audit findings recorded between the two assessments with the honesty result the later
one drew from them (SCORING.md §2.6), and appeals of the agent's assessments decided between
them (each also a cause of the dimensions it challenged).  One service for the API
(``GET /api/v1/assessments/{id}/changes``) and the dashboard.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from aaaf.models.changes import (
    AppealCause,
    AssessmentChanges,
    AuditCause,
    AxisChange,
    ConfigurationChange,
    DimensionChange,
)
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES
from aaaf.services.keys import Principal
from aaaf.store import OrgStore
from aaaf.store.records import Assessment

COMPOSITE_TYPES = ("full", "passive_only", "stress_test_only")
WEIGHT_SETTINGS = {"performance": "performance_weights", "capability": "capability_weights"}


def author_of(principal: Principal) -> str:
    """Who a configuration change is recorded as made by: the caller's OAuth client or API key."""
    if principal.client_id is not None:
        return f"OAuth client {principal.client_id}"
    if principal.key_id is not None:
        return f"API key {principal.key_id}"
    return "the installation's administrator"


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def _completed_at(assessment: Assessment) -> datetime:
    """When a completed assessment completed (only completed assessments are compared)."""
    if assessment.completed_at is None:
        raise ValueError(f"assessment {assessment.id} has not completed")
    return assessment.completed_at


def _between(when: datetime | None, start: datetime, end: datetime) -> bool:
    return when is not None and start < when <= end


def _audits(org: OrgStore, previous: Assessment, assessment: Assessment) -> list[AuditCause]:
    """The audit findings recorded between the two assessments, with the later assessment's
    honesty result (none when nothing was audited in between)."""
    start, end = _completed_at(previous), _completed_at(assessment)
    found = [
        event
        for event in org.events(assessment.agent_id, types=["task_audited"], since=start)
        if _between(event.timestamp, start, end)
    ]
    if not found:
        return []
    audit = (assessment.result or {}).get("audit") or {}
    return [
        AuditCause(
            audited_tasks=len({event.data.get("task_id") for event in found}),
            first_at=_iso(found[0].timestamp),
            last_at=_iso(found[-1].timestamp),
            auditors=sorted({str(event.data.get("auditor")) for event in found if event.data.get("auditor")}),
            honesty=audit.get("honesty"),
            facts_checked=int(audit.get("facts_checked") or 0),
            facts_refuted=int(audit.get("facts_refuted") or 0),
            self_report_unreliable=bool(audit.get("self_report_unreliable")),
        )
    ]


def _appeals(org: OrgStore, previous: Assessment, assessment: Assessment) -> list[AppealCause]:
    """Appeals of the agent's assessments up to ``assessment`` decided between the two."""
    decided = [
        AppealCause(
            appeal_id=str(appeal.id),
            assessment_id=str(appeal.assessment_id),
            status=appeal.status,
            resolved_at=_iso(resolved),
            dimensions_challenged=list(appeal.dimensions_challenged),
            reviewer_notes=appeal.reviewer_notes,
        )
        for appeal in org.appeals_decided_between(
            assessment.agent_id, _completed_at(previous), _completed_at(assessment)
        )
        if (resolved := appeal.resolved_at) is not None  # a decided appeal has its date
    ]
    return sorted(decided, key=lambda cause: cause.resolved_at)


def _previous(org: OrgStore, assessment: Assessment) -> Assessment | None:
    """The agent's completed whole-axis assessment completed before ``assessment``."""
    if assessment.completed_at is None:
        return None
    found = org.previous_composite_id(assessment.agent_id, assessment.id, assessment.completed_at)
    return None if found is None else org.get_assessment(found)


def _delta(after: float | None, before: float | None) -> float | None:
    if after is None or before is None:
        return None
    return float(after) - float(before)


def _dimension(
    name: str,
    now: Mapping[str, Any],
    then: Mapping[str, Any],
    weights: tuple[Mapping[str, float], Mapping[str, float]],
    reconfigured: list[ConfigurationChange],
    appeals: list[AppealCause],
) -> DimensionChange:
    data, old = (now.get("dimensions") or {}).get(name) or {}, (then.get("dimensions") or {}).get(name) or {}
    after, before = data.get("score"), old.get("score")
    samples_after, samples_before = int(data.get("sample_size") or 0), int(old.get("sample_size") or 0)
    weight_before, weight_after = weights[0].get(name), weights[1].get(name)
    causes = []
    if before is None and after is not None:
        causes.append("coverage gained: scored now, not before")
    elif before is not None and after is None:
        causes.append(f"coverage lost: {data.get('reason') or 'no valid evidence'}")
    if samples_after != samples_before:
        causes.append(f"evidence: {samples_before} → {samples_after} samples")
    if (
        weight_before is not None
        and weight_after is not None
        and round(float(weight_before), 4) != round(float(weight_after), 4)
    ):
        authors = sorted({change.changed_by for change in reconfigured if change.changed_by})
        why = (
            "the weights were reconfigured" + (f" by {', '.join(authors)}" if authors else "")
            if reconfigured
            else "renormalised over the dimensions with evidence"
        )
        causes.append(f"weight {display(float(weight_before))} → {display(float(weight_after))} ({why})")
    for appeal in appeals:
        if name in appeal.dimensions_challenged:
            causes.append(f"appeal {appeal.status} on {appeal.resolved_at[:10]}")
    return DimensionChange(
        dimension=name,
        before=before,
        after=after,
        change=_delta(after, before),
        samples_before=samples_before,
        samples_after=samples_after,
        weight_before=weight_before,
        weight_after=weight_after,
        causes=causes,
    )


def assessment_changes(org: OrgStore, assessment_id: str) -> AssessmentChanges:
    """The changes of ``assessment_id`` against the agent's previous assessment (module docstring)."""
    return changes_of(org, org.get_assessment(assessment_id))


def changes_of(org: OrgStore, assessment: Assessment) -> AssessmentChanges:
    """:func:`assessment_changes` of an assessment already read whole (the agent page's latest)."""
    previous = _previous(org, assessment) if assessment.status == "completed" and assessment.result else None
    if previous is None:
        return AssessmentChanges(
            assessment_id=str(assessment.id),
            previous_id=None,
            axes=[],
            configuration_changes=[],
            audits=[],
            appeals=[],
        )
    result, before = assessment.result or {}, previous.result or {}
    configured = []
    start, end = _completed_at(previous), _completed_at(assessment)
    for change in org.config_history():
        if _between(change.changed_at, start, end):
            for setting, values in change.changes.items():
                configured.append(
                    ConfigurationChange(
                        changed_at=_iso(change.changed_at),
                        setting=setting,
                        before=values.get("before"),
                        after=values.get("after"),
                        changed_by=change.changed_by,
                    )
                )
    appeals = _appeals(org, previous, assessment)
    axes = []
    for axis, names in AXES.items():
        now, then = result.get(axis) or {}, before.get(axis) or {}
        if not now and not then:
            continue
        weights = (then.get("weights_used") or {}, now.get("weights_used") or {})
        axes.append(
            AxisChange(
                axis=axis,
                composite_before=then.get("composite_score"),
                composite_after=now.get("composite_score"),
                change=_delta(now.get("composite_score"), then.get("composite_score")),
                tier_before=then.get("tier"),
                tier_after=now.get("tier"),
                dimensions=[
                    _dimension(
                        name,
                        now,
                        then,
                        weights,
                        [change for change in configured if change.setting == WEIGHT_SETTINGS[axis]],
                        appeals,
                    )
                    for name in names
                ],
            )
        )
    return AssessmentChanges(
        assessment_id=str(assessment.id),
        previous_id=str(previous.id),
        axes=axes,
        configuration_changes=configured,
        audits=_audits(org, previous, assessment),
        appeals=appeals,
    )
