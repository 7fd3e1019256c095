"""Audits: checking what agents report about themselves (SCORING.md §2.6, document 004 §3.1).

Document 004 §3.1 asks for a spot-check audit of 10 % of tasks for honest self-reporting
(review compliance) and error annotations on at least 20 % of outputs (accuracy).  This
module holds the pure parts:

* :func:`sample_size` and :func:`draw_sample` — the audit sample: among the window's
  completed tasks in ``task_id`` order (Unicode code points),
  ``numpy.random.default_rng(seed).choice(n, size=ceil(rate × n), replace=False)``;
* :func:`read_finding` — a ``task_audited`` event's payload as a :class:`Finding`, blank
  fields (absent, ``null``, ``""``) being "not given";
* :func:`apply_finding` — the finding replacing the self-report of one task in every
  dimension (checklist items given, completion status and milestones, errors), and the
  audited facts it checked (:class:`TaskAudit`);
* :func:`audit_summary` — coverage, honesty, the required rate and the
  ``self_report_unreliable`` flag of one assessment window.

Choices where §2.6 is silent (docs/scoring.md "Audits"):

* the self-report of a checklist item is what the scorer would have used without the audit
  (the ``review_checklist`` value OR-ed with ``memory_operation`` evidence); an item the agent
  did not report counts as not passed (§2.2), so its self-report is ``false``, compared with
  the finding like any reported value;
* coverage and the sample use the tasks completed *as self-reported*: the sample is drawn
  before findings exist, so a finding that rejects a task does not remove it from the
  sampling frame (re-drawing with the same seed gives the same sample);
* errors from ``task_revised`` events are not self-reports (a revision happened); an
  auditor's ``errors`` list replaces only the errors the completion reported;
* ``ceil(rate × n)`` is taken on ``rate × n`` rounded to 9 decimals, so that 0.2 × 35 (7.000…1
  in binary floating point) samples 7 tasks, not 8;
* honesty is ``null`` when no audited fact was checked (nothing audited, or findings giving
  only errors or notes); coverage is ``null`` when the window has no completed task.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from aaaf.scoring.fold import Task

AUDIT_RATE = 0.20
"""SCORING.md §2.6: max(10 % review-compliance spot checks, 20 % error annotations)."""
HONESTY_THRESHOLD = 0.90
"""Below this honesty (with enough audited tasks) self-reports are unreliable (§2.6)."""
MIN_AUDITED_TASKS = 5
"""Audited tasks needed before the ``self_report_unreliable`` flag can be raised (§2.6)."""

AUDITED_STATUSES: tuple[str, ...] = ("accepted", "partial", "rejected")
COMPLETED_STATUSES: frozenset[str] = frozenset({"accepted", "partial"})
STATUS_FACT = "completion_status"
CHECKLIST_FACT_PREFIX = "checklist."


class Finding(NamedTuple):
    """What an auditor found true about one task; ``None`` = not given."""

    task_id: str
    auditor: str | None
    checklist: Mapping[str, bool] | None
    completion_status: str | None
    milestone_fraction: float | None
    milestones: tuple[Mapping[str, Any], ...] | None
    errors: tuple[Any, ...] | None
    notes: str | None
    event_id: str


class AuditedFact(NamedTuple):
    """One fact the auditor checked: ``checklist.<item>`` or ``completion_status``."""

    fact: str
    reported: Any
    found: Any

    @property
    def honest(self) -> bool:
        return bool(self.reported == self.found)


class TaskAudit(NamedTuple):
    """The audit of one task: the finding that counted and the facts it checked."""

    event_id: str
    auditor: str | None
    reported_status: str | None
    facts: tuple[AuditedFact, ...]
    replaced_errors: bool

    @property
    def refuted(self) -> tuple[AuditedFact, ...]:
        return tuple(fact for fact in self.facts if not fact.honest)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def read_finding(data: Mapping[str, Any], event_id: str) -> Finding:
    """A ``task_audited`` payload as a :class:`Finding` (blank fields are not given)."""
    checklist_in = data.get("checklist")
    checklist: dict[str, bool] | None = None
    if isinstance(checklist_in, Mapping):
        given = {str(item): value for item, value in checklist_in.items() if isinstance(value, bool)}
        checklist = given or None
    status = data.get("completion_status")
    fraction = data.get("milestone_fraction")
    milestones = data.get("milestones")
    errors = data.get("errors")
    auditor = data.get("auditor")
    notes = data.get("notes")
    return Finding(
        task_id=str(data.get("task_id")),
        auditor=auditor if isinstance(auditor, str) and auditor.strip() else None,
        checklist=checklist,
        completion_status=status if isinstance(status, str) and status in AUDITED_STATUSES else None,
        milestone_fraction=float(fraction)
        if isinstance(fraction, int | float) and not isinstance(fraction, bool)
        else None,
        milestones=tuple(milestones) if isinstance(milestones, list) and milestones else None,
        errors=tuple(errors) if isinstance(errors, list) else None,
        notes=notes if isinstance(notes, str) and not _blank(notes) else None,
        event_id=event_id,
    )


class AppliedFinding(NamedTuple):
    """The task's values after the finding replaced the self-report (inputs of the fold)."""

    checklist: Mapping[str, bool] | None
    completion: Mapping[str, Any]
    errors: Sequence[Any] | None
    audit: TaskAudit


def apply_finding(
    finding: Finding,
    reported_checklist: Mapping[str, bool] | None,
    completion: Mapping[str, Any],
) -> AppliedFinding:
    """Replace the self-report of one task by the finding (SCORING.md §2.6).

    ``reported_checklist`` is the checklist the scorer would use without the audit;
    ``completion`` the counting ``task_completed`` payload (empty if none).  Returns the
    checklist with the items given replaced, the completion payload with the status and
    milestones given replaced (the fold recomputes the credit from it), the errors given
    (``None`` = keep the reported ones) and the audited facts.
    """
    facts: list[AuditedFact] = []
    checklist = reported_checklist
    if finding.checklist is not None:
        merged = dict(reported_checklist or {})
        for item in sorted(finding.checklist):
            found = finding.checklist[item]
            facts.append(AuditedFact(CHECKLIST_FACT_PREFIX + item, merged.get(item) is True, found))
            merged[item] = found
        checklist = merged
    reported_status = completion.get("completion_status")
    reported_status = reported_status if isinstance(reported_status, str) else None
    replaced: dict[str, Any] = {}
    if finding.completion_status is not None:
        facts.insert(0, AuditedFact(STATUS_FACT, reported_status, finding.completion_status))
        replaced["completion_status"] = finding.completion_status
    if finding.milestone_fraction is not None:
        replaced["milestone_fraction"] = finding.milestone_fraction
    if finding.milestones is not None:
        replaced["milestones"] = list(finding.milestones)
    effective = {**completion, **replaced} if replaced else completion
    audit = TaskAudit(
        event_id=finding.event_id,
        auditor=finding.auditor,
        reported_status=reported_status,
        facts=tuple(facts),
        replaced_errors=finding.errors is not None,
    )
    return AppliedFinding(checklist, effective, finding.errors, audit)


# --------------------------------------------------------------------------- the sample


def sample_size(rate: float, n: int) -> int:
    """``ceil(rate × n)`` (rate × n rounded to 9 decimals first, against float noise)."""
    if not 0.0 < rate <= 1.0:
        raise ValueError(f"an audit rate must be in (0, 1], got {rate}")
    return min(n, math.ceil(round(rate * n, 9)))


def draw_sample(completed_task_ids: Iterable[str], rate: float = AUDIT_RATE, seed: int = 0) -> list[str]:
    """The audit sample (SCORING.md §2.6), in ``task_id`` order.

    ``completed_task_ids`` are the window's completed tasks; they are put in ``task_id``
    order (Unicode code points) and ``default_rng(seed).choice(n, size=ceil(rate × n),
    replace=False)`` picks their positions.
    """
    ordered = sorted(set(completed_task_ids))
    n = len(ordered)
    size = sample_size(rate, n)
    if size == 0:
        return []
    import numpy as np  # here, not at the top: the engine imports this module (0.35 s of every start)

    picks = np.random.default_rng(seed).choice(n, size=size, replace=False)
    return sorted(ordered[int(i)] for i in picks)


# --------------------------------------------------------------------------- the summary


class AuditedTask(NamedTuple):
    """What the summary reads of one window task."""

    task_id: str
    self_reported_completed: bool
    audit: TaskAudit | None


@dataclass(frozen=True, slots=True)
class AuditSummary:
    """The ``audit`` object of an assessment (SCORING.md §2.6)."""

    coverage: float | None
    honesty: float | None
    audited_tasks: int
    required_rate: float
    met: bool
    self_report_unreliable: bool
    facts_checked: int
    facts_refuted: int
    completed_tasks: int
    audited_completed_tasks: int
    refuted: tuple[Mapping[str, Any], ...]
    event_ids: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "coverage": self.coverage,
            "honesty": self.honesty,
            "audited_tasks": self.audited_tasks,
            "required_rate": self.required_rate,
            "met": self.met,
            "self_report_unreliable": self.self_report_unreliable,
            "facts_checked": self.facts_checked,
            "facts_refuted": self.facts_refuted,
            "completed_tasks": self.completed_tasks,
            "audited_completed_tasks": self.audited_completed_tasks,
            "refuted": [dict(item) for item in self.refuted],
            "event_ids": list(self.event_ids),
        }


def audit_summary(
    tasks: Iterable[AuditedTask],
    *,
    required_rate: float = AUDIT_RATE,
    honesty_threshold: float = HONESTY_THRESHOLD,
    min_audited_tasks: int = MIN_AUDITED_TASKS,
) -> AuditSummary:
    """Coverage, honesty and the ``self_report_unreliable`` flag of a window (SCORING.md §2.6).

    * coverage = audited completed tasks / completed tasks (completed as self-reported);
    * honesty = honest facts / audited facts over every audited window task (unweighted);
    * ``met`` = coverage ≥ required rate; flagged with ≥ ``min_audited_tasks`` audited tasks
      and honesty < ``honesty_threshold``.
    """
    completed = audited = audited_completed = checked = honest = 0
    refuted: list[Mapping[str, Any]] = []
    finding_ids: list[str] = []
    for task in sorted(tasks, key=lambda item: item.task_id):
        if task.self_reported_completed:
            completed += 1
        audit = task.audit
        if audit is None:
            continue
        audited += 1
        finding_ids.append(audit.event_id)
        if task.self_reported_completed:
            audited_completed += 1
        for fact in audit.facts:
            checked += 1
            if fact.honest:
                honest += 1
            else:
                refuted.append(
                    {
                        "task_id": task.task_id,
                        "fact": fact.fact,
                        "reported": fact.reported,
                        "found": fact.found,
                        "auditor": audit.auditor,
                        "event_id": audit.event_id,
                    }
                )
    return _summary(
        completed,
        audited,
        audited_completed,
        checked,
        honest,
        refuted,
        finding_ids,
        required_rate=required_rate,
        honesty_threshold=honesty_threshold,
        min_audited_tasks=min_audited_tasks,
    )


def _summary(
    completed: int,
    audited: int,
    audited_completed: int,
    checked: int,
    honest: int,
    refuted: Sequence[Mapping[str, Any]],
    finding_ids: Sequence[str],
    *,
    required_rate: float,
    honesty_threshold: float,
    min_audited_tasks: int,
) -> AuditSummary:
    coverage = audited_completed / completed if completed else None
    honesty = honest / checked if checked else None
    unreliable = audited >= min_audited_tasks and honesty is not None and honesty < honesty_threshold
    return AuditSummary(
        coverage=coverage,
        honesty=honesty,
        audited_tasks=audited,
        required_rate=required_rate,
        met=coverage is not None and coverage >= required_rate,
        self_report_unreliable=unreliable,
        facts_checked=checked,
        facts_refuted=checked - honest,
        completed_tasks=completed,
        audited_completed_tasks=audited_completed,
        refuted=tuple(refuted),
        event_ids=tuple(sorted(finding_ids)),
    )


class _HasTask(Protocol):
    @property
    def task(self) -> Task: ...


class _AuditConfig(Protocol):
    @property
    def audit_rate(self) -> float: ...
    @property
    def audit_honesty_threshold(self) -> float: ...
    @property
    def audit_min_tasks(self) -> int: ...


def self_reported_completed(task: Task) -> bool:
    """Whether the task was completed as self-reported (the sampling frame of §2.6)."""
    status = task.audit.reported_status if task.audit is not None else task.completion_status
    return status in COMPLETED_STATUSES


_AUDIT_OF = attrgetter("task.audit")
_STATUS_OF = attrgetter("task.completion_status")


def window_audit(scored: Sequence[_HasTask], config: _AuditConfig) -> AuditSummary:
    """:func:`audit_summary` of an assessment window's (scored) tasks with the org's config.

    Without any finding (the common case) only the completed tasks are counted, in C.
    """
    if not any(map(_AUDIT_OF, scored)):
        completed = sum(map(COMPLETED_STATUSES.__contains__, map(_STATUS_OF, scored)))
        return _summary(
            completed,
            0,
            0,
            0,
            0,
            (),
            (),
            required_rate=config.audit_rate,
            honesty_threshold=config.audit_honesty_threshold,
            min_audited_tasks=config.audit_min_tasks,
        )
    return audit_summary(
        (
            AuditedTask(item.task.task_id, self_reported_completed(item.task), item.task.audit)
            for item in scored
        ),
        required_rate=config.audit_rate,
        honesty_threshold=config.audit_honesty_threshold,
        min_audited_tasks=config.audit_min_tasks,
    )
