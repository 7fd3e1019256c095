"""Completing an assessment: the one place every path goes through (``aaaf assess NAME``,
``aaaf assess --all``, a triggered assessment's job, a stress-only assessment).

:func:`finished_assessment` decides, from a score (or the error that stopped it), what is
stored: the calibration check against the previous completed assessment (SCORING.md §2.4),
the review hold (an anomaly §2.4, unreliable self-reports §2.6, the organization's
``review_before_issue``), the configuration in force and its scheme spec (§2.4 appeals, §6),
the validity.  :func:`webhook_events` says which document 004 §6.3 events an assessment
raises, and :func:`write_assessment_events` writes them in the caller's transaction — the
one that stores the assessments — so an event is sent if and only if its assessment is
stored (docs/webhooks.md).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NotRequired, TypedDict

from aaaf.scoring.calibration import calibration_check, valid_until

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.scoring.spec import SchemeSpec
    from aaaf.services.assess_parallel import ScoredAgent
    from aaaf.store.assessment_batch import FinishedAssessment, PreviousComposites
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Assessment

log = logging.getLogger(__name__)


def self_report_unreliable(result: Mapping[str, object]) -> bool:
    """Whether an assessment result is flagged ``self_report_unreliable`` (SCORING.md §2.6):
    held for review exactly like an anomalous one (§2.4)."""
    audit = result.get("audit")
    return isinstance(audit, Mapping) and audit.get("self_report_unreliable") is True


def held_for_review(config: AAAFConfig, *, anomalous: bool, unreliable: bool) -> bool:
    """Whether a completed assessment's badge waits for a reviewer: an anomaly (SCORING.md
    §2.4), unreliable self-reports (§2.6), or the organization's review-before-issue policy
    (document 004 §5.2 step 5, the ``review_before_issue`` key)."""
    return anomalous or unreliable or bool(getattr(config, "review_before_issue", False))


def baseline_of(previous: Assessment | None) -> PreviousComposites | None:
    """A completed assessment record as the calibration baseline (SCORING.md §2.4)."""
    from aaaf.store.assessment_batch import PreviousComposites

    if previous is None:
        return None
    return PreviousComposites(
        previous.id,
        previous.performance_composite,
        previous.capability_composite,
        previous.completed_at,
        previous.valid_until,
    )


class _Common(TypedDict):
    """What a completed and a failed :class:`FinishedAssessment` share."""

    agent_id: uuid.UUID
    agent_name: str
    type: str
    dimension: str | None
    window_start: datetime
    window_end: datetime
    completed_at: datetime
    spec: SchemeSpec
    id: NotRequired[uuid.UUID]


def finished_assessment(
    *,
    agent_id: uuid.UUID,
    agent_name: str,
    assessment_type: str,
    dimension: str | None,
    window_start: datetime,
    window_end: datetime,
    scored: ScoredAgent | None,
    error: Mapping[str, object] | None,
    config: AAAFConfig,
    snapshot: Mapping[str, object],
    spec: SchemeSpec,
    previous: PreviousComposites | None,
    now: datetime,
    assessment_id: uuid.UUID | None = None,
) -> FinishedAssessment:
    """The assessment as it is to be stored (module docstring): failed with ``error`` when
    ``scored`` is None, else completed with its calibration, hold, configuration snapshot
    (``snapshot``, :func:`aaaf.store.org_config.config_snapshot` of ``config``) and validity.
    ``assessment_id``: the record being finished (a new id when None)."""
    from aaaf.store.assessment_batch import FinishedAssessment

    common: _Common = {
        "agent_id": agent_id,
        "agent_name": agent_name,
        "type": assessment_type,
        "dimension": dimension,
        "window_start": window_start,
        "window_end": window_end,
        "completed_at": now,
        "spec": spec,
    }
    if assessment_id is not None:
        common["id"] = assessment_id
    if scored is None:
        assert error is not None
        return FinishedAssessment(status="failed", error=dict(error), **common)
    values = scored.composites
    # The calibration check compares full assessments only: a single dimension has no composite.
    calibration = calibration_check(
        None
        if previous is None or assessment_type == "single_dimension"
        else {"performance": previous.performance, "capability": previous.capability},
        {"performance": values["performance_composite"], "capability": values["capability_composite"]},
        config.calibration_threshold,
    )
    result = dict(scored.result)
    result["calibration"] = {
        "anomalous": calibration.anomalous,
        "deltas": calibration.deltas,
        "previous_assessment_id": str(previous.assessment_id) if previous else None,
    }
    result["config"] = snapshot  # the configuration in force
    unreliable = self_report_unreliable(result)
    if unreliable:
        log.warning("assessment of %s: self-reports unreliable (audit): badge held for review", agent_name)
    if calibration.anomalous:
        log.warning(
            "assessment of %s is anomalous (%s): badge held for review", agent_name, calibration.deltas
        )
    return FinishedAssessment(
        status="completed",
        result=result,
        dimension_rows=scored.dimension_rows,
        evidence_summary=scored.evidence_summary,
        valid_until=valid_until(now, config),
        anomalous=calibration.anomalous,
        review_state="pending_review"
        if held_for_review(config, anomalous=calibration.anomalous, unreliable=unreliable)
        else "not_required",
        trace=scored.trace,
        **values,
        **common,
    )


def webhook_events(
    assessments: Sequence[Assessment], *, started: bool
) -> list[tuple[str, dict[str, object]]]:
    """The document 004 §6.3 events of finished assessments, in order: for each,
    ``assessment.started`` when it is recorded here for the first time (``started``: the
    batch of ``assess --all``, whose records are made finished; a triggered one raised it at
    its trigger), then ``assessment.completed`` or ``assessment.failed``."""
    from aaaf.services.webhooks import assessment_data

    events: list[tuple[str, dict[str, object]]] = []
    for assessment in assessments:
        data = assessment_data(assessment)
        if started:
            events.append(
                ("assessment.started", {key: data[key] for key in ("assessment_id", "agent_id", "type")})
            )
            events[-1][1]["status"] = "in_progress"
        events.append(
            ("assessment.completed" if assessment.status == "completed" else "assessment.failed", data)
        )
    return events


def write_assessment_events(
    connection: Connection,
    organization_id: uuid.UUID,
    assessments: Sequence[Assessment],
    *,
    now: datetime,
    started: bool,
) -> None:
    """Write :func:`webhook_events` of ``assessments`` in ``connection``'s transaction."""
    from aaaf.services.webhooks import payload_json
    from aaaf.store.repositories.webhook_deliveries import write_webhook_events

    events = webhook_events(assessments, started=started)
    write_webhook_events(
        connection,
        organization_id,
        [(event_type, payload_json(event_type, data, now=now)) for event_type, data in events],
        at=now,
    )


def store_finished(
    org: OrgStore,
    items: Sequence[FinishedAssessment],
    *,
    now: datetime,
    also: Callable[[Connection, list[Assessment]], None] | None = None,
) -> list[Assessment]:
    """Store claimed assessments finished (``items``, :func:`finished_assessment` of records
    ``pending`` or ``in_progress``) and their webhook events in one transaction, with
    ``also(connection, records)`` beside them (a queue's bookkeeping); those finished
    meanwhile by another run of their job are left as they are.  Returns the records written."""
    from aaaf.store.claimed_assessments import finish_claimed_assessments

    def beside(connection: Connection, records: list[Assessment]) -> None:
        write_assessment_events(connection, org.organization_id, records, now=now, started=False)
        if also is not None:
            also(connection, records)

    return finish_claimed_assessments(org.engine, org.organization_id, items, also=beside)
