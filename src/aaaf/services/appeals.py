"""Appeals (document 004 §5.4, SCORING.md §2.4).

Filed only within 14 days of the assessment's completion, naming at least one assessed
dimension, with a justification and at least one counter-evidence item naming a task of the
assessment, and only while no other appeal of the assessment is open (``filed`` or
``under_review``): a second is ``APPEAL_NOT_ALLOWED`` (SCORING.md §7 "appeal already open"),
enforced by the store under a row lock so that two concurrent filings cannot both pass.  Resolving ``accepted`` re-scores only the challenged dimensions without the
counter-evidenced tasks' evidence, recomputes composites and tiers, and keeps every other
dimension byte-identical, and supersedes the badge already issued for the old scores (its
status bit set, "superseded: appeal <id> accepted"); the appeal and its outcome stay on the record.

An assessment is judged by the configuration in force when it ran (issue 21): its appeal window
and the re-scoring use the configuration recorded in its result (``result["config"]``), or for
an assessment stored before results recorded it, the organization's configuration at the
assessment's creation (:meth:`OrgStore.config_at`) — never one changed since.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from aaaf.badges.data import utc
from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.evidence_sources import evidence_for, recorded_sources
from aaaf.scoring.results import AAAFResult
from aaaf.scoring.spec import SchemeSpec, aaaf_config_of
from aaaf.scoring.trace import of_result as trace_of
from aaaf.scoring.trace import with_event_ids
from aaaf.services.assessment_rows import composites, dimension_rows
from aaaf.services.provenance import agent_runs
from aaaf.services.webhooks import appeal_data, emit

if TYPE_CHECKING:
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Appeal, Assessment, AssessmentEvidence


def load_counter_evidence(path: str | Path) -> list[dict[str, object]]:
    """A JSON list of ``{"task_id", "claim"}`` items (or one such object, or JSON Lines)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise AAAFError("INVALID_REQUEST", f"{path}: counter evidence is not JSON: {error}") from error
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise AAAFError(
            "INVALID_REQUEST", f"{path}: counter evidence must be a list of objects with task_id and claim"
        )
    return data


def config_of(org: OrgStore, assessment: Assessment) -> AAAFConfig:
    """The configuration ``assessment`` ran with (see the module docstring)."""
    recorded = (assessment.result or {}).get("config")
    if isinstance(recorded, dict):
        from aaaf.store.org_config import config_from_snapshot

        return config_from_snapshot(recorded)
    return org.config_at(assessment.created_at)


def recorded_config(
    org: OrgStore, assessment: Assessment
) -> tuple[AAAFConfig, SchemeSpec | None, AssessmentEvidence | None]:
    """The config the assessment was computed with (its recorded spec), that spec and the
    stored evidence row; for an assessment stored before specs were recorded, the config its
    result recorded or the one in force at its creation (:func:`config_of`), None and None
    (SCORING.md §2.4: an appeal re-scores with the recorded spec)."""
    evidence = org.assessment_evidence(assessment.id)
    if evidence is None:
        return config_of(org, assessment), None, None
    spec = SchemeSpec(evidence.scheme, evidence.scheme_version, evidence.config)
    return aaaf_config_of(spec), spec, evidence


def assessment_task_ids(org: OrgStore, assessment: Assessment) -> set[str]:
    """The window tasks of an assessment (what counter evidence may name)."""
    summary = assessment.evidence_summary or {}
    if "task_ids" in summary:
        return set(summary["task_ids"])
    config, _, _ = recorded_config(org, assessment)
    result = aaaf_scheme.assess(
        org.events(assessment.agent_id), config, assessment.window_end, enforce_minimums=False
    )
    return set(result.evidence_summary.get("task_ids", []))


def assessed_dimensions(assessment: Assessment) -> set[str]:
    result = assessment.result or {}
    names: set[str] = set()
    for axis in ("performance", "capability"):
        if result.get(axis):
            names.update(result[axis]["dimensions"].keys())
    return names


def file_appeal(
    org: OrgStore,
    assessment_id: str,
    *,
    dimensions: Sequence[str],
    justification: str,
    counter_evidence: Sequence[dict[str, object]],
    now: datetime,
) -> Appeal:
    assessment = org.get_assessment(assessment_id)
    config, _, _ = recorded_config(org, assessment)

    def refuse(message: str, **details: object) -> AAAFError:
        return AAAFError("APPEAL_NOT_ALLOWED", message, {"assessment_id": str(assessment.id), **details})

    if assessment.status != "completed" or assessment.completed_at is None:
        raise refuse(
            f"assessment {assessment.id} is {assessment.status}; only a completed assessment can be appealed"
        )
    deadline = assessment.completed_at + timedelta(days=config.appeal_window_days)
    if now > deadline:
        raise refuse(
            f"the appeal window closed on {deadline.isoformat()} ({config.appeal_window_days} days after completion)",
            deadline=deadline.isoformat(),
        )
    if not dimensions:
        raise refuse("an appeal must name at least one challenged dimension")
    assessed = assessed_dimensions(assessment)
    not_assessed = [d for d in dimensions if d not in assessed]
    if not_assessed:
        raise refuse(
            f"dimension(s) not assessed in {assessment.id}: {', '.join(not_assessed)}",
            assessed=sorted(assessed),
        )
    if not justification or not justification.strip():
        raise refuse("an appeal must carry a justification")
    if not counter_evidence:
        raise refuse(
            "an appeal must carry at least one counter-evidence item naming a task of the assessment"
        )
    tasks = assessment_task_ids(org, assessment)
    for index, item in enumerate(counter_evidence):
        task_id = item.get("task_id")
        if not isinstance(task_id, str) or not task_id:
            raise refuse(f"counter_evidence[{index}] does not name a task_id")
        if task_id not in tasks:
            raise refuse(
                f"counter_evidence[{index}] names task {task_id!r}, which is not a task of this assessment"
            )
    with org.unit_of_work() as uow:  # appeal.filed (document 004 §6.3) commits with the appeal
        appeal = uow.file_appeal(
            assessment.id,
            dimensions=list(dict.fromkeys(dimensions)),
            justification=justification.strip(),
            counter_evidence=list(counter_evidence),
            filed_at=now,
        )
        emit(uow, "appeal.filed", appeal_data(appeal, assessment), now=now)
    return appeal


def resolve_appeal(
    org: OrgStore, appeal_id: str, *, decision: str, notes: str | None, now: datetime
) -> Appeal:
    if decision not in ("accepted", "rejected"):
        raise AAAFError("INVALID_REQUEST", f"decision must be accepted or rejected, got {decision!r}")
    appeal = org.get_appeal(appeal_id)
    if appeal.status in ("accepted", "rejected"):
        raise AAAFError(
            "CONFLICT", f"appeal {appeal.id} is already {appeal.status}", {"appeal_id": str(appeal.id)}
        )
    assessment = org.get_assessment(appeal.assessment_id)
    if decision == "rejected":
        with org.unit_of_work() as uow:  # appeal.resolved commits with the decision
            rejected = uow.resolve_appeal(
                appeal.id,
                status="rejected",
                reviewer_notes=notes,
                resolution={"rescored": False},
                resolved_at=now,
            )
            emit(uow, "appeal.resolved", appeal_data(rejected, assessment), now=now)
        return rejected
    # the recorded spec, not the organization's current configuration (SCORING.md §2.4)
    config, spec, evidence = recorded_config(org, assessment)
    recorded = assessment.result
    assert recorded is not None  # an appeal is only filed against a completed assessment
    previous = AAAFResult.from_dict(recorded)
    if evidence is not None:  # the carried-over dimensions keep their recorded event ids
        previous = with_event_ids(
            previous, {name: evidence.ids_of(name) for name in evidence.dimension_events}
        )
    excluded = frozenset(item["task_id"] for item in appeal.counter_evidence)
    events = org.events(assessment.agent_id)
    rescored = aaaf_scheme.rescore_after_appeal(
        previous,
        events,
        config,
        assessment.window_end,
        list(appeal.dimensions_challenged),
        excluded,
    )
    changes: dict[str, object] = {}
    for axis in ("performance", "capability"):
        before, after = previous.axis(axis), rescored.axis(axis)
        if before is None or after is None:
            continue
        for name in appeal.dimensions_challenged:
            if name in after.dimensions:
                changes[name] = {
                    "before": before.dimensions[name].score,
                    "after": after.dimensions[name].score,
                }
        changes[f"{axis}_composite"] = {"before": before.composite.score, "after": after.composite.score}
        changes[f"{axis}_tier"] = {"before": before.composite.tier, "after": after.composite.tier}
    # One unit of work (issue 10 §2): the badge already issued carries the old scores, so it is
    # superseded (its bit set, "superseded: appeal <id> accepted"), the new scores are stored
    # and the appeal is resolved — all of it, or (on any failure, a crash included) none of it.
    # The status list file, the database's signed export, is rewritten once that has committed;
    # `aaaf badge` then issues a credential with the corrected scores and a fresh bit.
    from aaaf.services import badge_revocation as revocation

    result_dict = rescored.to_dict()
    for key in ("calibration", "config"):
        if key in recorded:
            result_dict[key] = recorded[key]
    result_dict["appeals"] = [*recorded.get("appeals", []), str(appeal.id)]
    if "evidence_sources" in recorded:  # the re-scored evidence's provenance, as assessments record it
        runs = agent_runs(org, assessment.agent_id)
        kept = [e for e in events if e.task_id not in excluded]  # the appeal's exclusions left out
        result_dict["evidence_sources"] = recorded_sources(
            evidence_for(kept, assessment.type, harness_runs=runs.harness),
            assessment.window_start,
            assessment.window_end,
            result=rescored,
            harness_runs=runs.harness,
            imported_runs=runs.imported,
        )
    resolution: dict[str, object] = {
        "rescored": True,
        "excluded_tasks": sorted(excluded),
        "changes": changes,
        "config": "recorded" if spec is not None else "in force when it ran (no spec was recorded)",
    }
    with org.unit_of_work() as uow:
        superseded = uow.supersede_badge(
            assessment.id, reason=revocation.appeal_reason(appeal.id), at=utc(now)
        )
        uow.replace_dimension_scores(
            assessment.id,
            rows=dimension_rows(rescored),
            result=result_dict,
            spec=spec,
            trace=trace_of(rescored) if spec is not None else None,
            **composites(rescored),
        )
        if superseded is not None:
            resolution["superseded_badge"] = {
                "credential_id": superseded.credential_id,
                "status_index": superseded.status_index,
            }
        resolved = uow.resolve_appeal(
            appeal.id, status="accepted", reviewer_notes=notes, resolution=resolution, resolved_at=now
        )
        emit(uow, "appeal.resolved", appeal_data(resolved, assessment), now=now)
    if superseded is not None:
        revocation.rewrite_status_list(org, now)
    return resolved


def appeal_of(org: OrgStore, assessment_id: str, appeal_id: str) -> Appeal:
    """The appeal, which must be one of this assessment's (``NOT_FOUND`` otherwise, like any other id)."""
    assessment = org.get_assessment(assessment_id)
    appeal = org.get_appeal(appeal_id)
    if appeal.assessment_id != assessment.id:
        raise AAAFError(
            "NOT_FOUND", f"Appeal {appeal_id} not found.", {"resource": "appeal", "id": appeal_id}
        )
    return appeal


def appeals_after(
    org: OrgStore, assessment_id: str, *, after: tuple[datetime, uuid.UUID] | None, limit: int
) -> list[Appeal]:
    """Up to ``limit`` of the assessment's appeals, oldest first, after ``(filed_at, id)``."""
    return org.appeals_page(org.get_assessment(assessment_id).id, after=after, limit=limit)
