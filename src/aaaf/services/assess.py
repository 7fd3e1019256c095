"""Assessment: load an agent's evidence, call the pure AAAF scheme, apply the calibration check
and validity (SCORING.md §2.4), and store the record.

The clock is the caller's (``now``); the engine never reads it.
"""

from __future__ import annotations

import logging
import uuid
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from aaaf.errors import AAAFError
from aaaf.memory import gc_paused
from aaaf.models import AssessOutcome as AssessOutcomeModel
from aaaf.models import dump
from aaaf.models.error import error_body
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.defaults import AXES
from aaaf.scoring.evidence_sources import evidence_for, require_stress_evidence, scheme_type
from aaaf.scoring.records import EventRecord
from aaaf.scoring.spec import SchemeSpec, aaaf_spec
from aaaf.services.assess_parallel import (
    Scored,
    ScoredAgent,
    fleet_scoring,
    one_blas_thread,
    score_agent,
)
from aaaf.services.assessment_completion import (
    baseline_of,
    finished_assessment,
    store_finished,
    write_assessment_events,
)
from aaaf.services.assessment_completion import (
    held_for_review as held_for_review,
)
from aaaf.services.assessment_completion import (
    self_report_unreliable as self_report_unreliable,
)
from aaaf.services.assessment_view import assessment_json as assessment_json
from aaaf.services.assessment_view import assessment_model as assessment_model
from aaaf.services.context import ServiceContext
from aaaf.services.provenance import AgentRuns, agent_runs, runs_by_agent

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.store.assessment_batch import FinishedAssessment
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment

log = logging.getLogger(__name__)

ASSESSMENT_TYPES = ("full", "passive_only", "stress_test_only", "single_dimension")


@dataclass
class AssessOutcome:
    """One agent's outcome in a batch: an assessment, or the error that stopped it."""

    agent: Agent
    assessment: Assessment | None = None
    error: AAAFError | None = None

    def to_model(self, context: ServiceContext | None = None) -> AssessOutcomeModel:
        """The public shape :class:`aaaf.models.AssessOutcome`."""
        fields: dict[str, Any] = {}
        if self.assessment is not None:
            fields["assessment"] = assessment_model(self.assessment, context=context)
        if self.error is not None:
            fields["error"] = error_body(
                self.error.code, self.error.message, self.error.details, empty_details=False
            ).error
        return AssessOutcomeModel(agent=self.agent.name, **fields)

    def to_dict(self) -> dict[str, Any]:
        return dump(self.to_model())


def _check_type(assessment_type: str, dimension: str | None) -> None:
    if assessment_type not in ASSESSMENT_TYPES:
        raise AAAFError(
            "INVALID_REQUEST",
            f"unknown assessment type {assessment_type!r}; expected one of {', '.join(ASSESSMENT_TYPES)}",
            {"field": "type"},
        )
    if assessment_type == "single_dimension":
        known = [d for dims in AXES.values() for d in dims]
        if dimension is None:
            raise AAAFError(
                "INVALID_REQUEST", "a single_dimension assessment needs --dimension", {"field": "dimension"}
            )
        if dimension not in known:
            raise AAAFError(
                "INVALID_REQUEST",
                f"unknown dimension {dimension!r}; expected one of {', '.join(known)}",
                {"field": "dimension"},
            )
    elif dimension is not None:
        raise AAAFError(
            "INVALID_REQUEST", "--dimension goes with --type single_dimension", {"field": "dimension"}
        )


def with_uncertainty_option(config: AAAFConfig, uncertainty: bool) -> AAAFConfig:
    """``config`` as is, or with no bootstrap resamples when ``uncertainty`` is False (SCORING.md
    §2.5: B = 0 leaves each axis's ``uncertainty`` out of the result)."""
    if uncertainty or config.uncertainty_resamples == 0:
        return config
    return config.with_overrides(uncertainty_resamples=0)


def _previous_composites(previous: Assessment | None) -> dict[str, float | None] | None:
    if previous is None:
        return None
    return {"performance": previous.performance_composite, "capability": previous.capability_composite}


def assess_with_events(
    org: OrgStore,
    agent: Agent,
    events: Sequence[EventRecord],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
    config: AAAFConfig | None = None,
    uncertainty: bool = True,
) -> Assessment:
    """Score one agent from already-loaded events and store the assessment (completed or failed).

    Too little evidence is refused before anything is stored (``INSUFFICIENT_EVIDENCE``, like
    the API's trigger): a refusal leaves no ``failed`` assessment in the history (docs/cli.md
    "Minimum evidence").  ``uncertainty=False`` leaves out the SCORING.md §2.5 bootstrap."""
    _check_type(assessment_type, dimension)
    runs = agent_runs(org, agent.id)
    require_stress_evidence(events, assessment_type, agent.name, harness_runs=runs.harness)
    config = with_uncertainty_option(config or org.config(), uncertainty)
    end = window_end or now
    aaaf_scheme.check_minimums(
        evidence_for(events, assessment_type, harness_runs=runs.harness),
        config,
        end,
        assessment_type=scheme_type(assessment_type),
        dimension=dimension,
    )
    start = end - timedelta(days=config.window_days)
    previous = org.latest_completed_assessment(agent.id)
    with org.unit_of_work() as uow:
        record = uow.create_assessment(
            agent.id, type=assessment_type, window_start=start, window_end=end, dimension=dimension
        )
        _emit(uow, "assessment.started", [record], now)
    return score_assessment(org, agent, record, events, now=now, config=config, previous=previous, runs=runs)


def start_assessment(
    org: OrgStore,
    agent: Agent,
    events: Sequence[EventRecord],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
    status: str = "in_progress",
) -> Assessment:
    """Check an assessment can run and record it ``in_progress`` (or ``pending``, for a worker
    to take up), scoring nothing (the API's trigger, SCORING.md §7 "Assessments"):
    :func:`start_assessments` of one agent.  :func:`score_assessment` finishes it."""
    (record,) = start_assessments(
        org,
        [(agent, events)],
        now=now,
        assessment_type=assessment_type,
        dimension=dimension,
        window_end=window_end,
        status=status,
    )
    return record


def start_assessments(
    org: OrgStore,
    fleet: Sequence[tuple[Agent, Sequence[EventRecord]]],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
    status: str = "in_progress",
    checked: frozenset[uuid.UUID] = frozenset(),
) -> list[Assessment]:
    """Check each ``(agent, events)`` of ``fleet`` can be assessed, then record every one
    ``in_progress`` (or ``pending``) in one unit of work — all of them or none (SCORING.md §7
    "Assessments"): ``INVALID_REQUEST`` for a bad type or dimension, ``INSUFFICIENT_EVIDENCE``
    below the minimums, ``ASSESSMENT_IN_PROGRESS`` when an agent has one pending or running;
    the first refusal is raised and no record is made.  The agents of ``checked`` are known
    to meet the evidence rules already (a trigger's count: their events are not read)."""
    _check_type(assessment_type, dimension)
    if len(fleet) == 1:
        agent = fleet[0][0]
        runs = {agent.id: agent_runs(org, agent.id)}
    else:  # every agent's runs in one query, as assess --all reads them
        runs = runs_by_agent(org)
    config = org.config()
    end = window_end or now
    for agent, events in fleet:
        if agent.id in checked:
            continue
        harness = (runs.get(agent.id) or AgentRuns()).harness
        require_stress_evidence(events, assessment_type, agent.name, harness_runs=harness)
        aaaf_scheme.check_minimums(
            evidence_for(events, assessment_type, harness_runs=harness),
            config,
            end,
            assessment_type=scheme_type(assessment_type),
            dimension=dimension,
        )
    with org.unit_of_work() as uow:  # every record with its assessment.started, in one write each
        records = uow.create_assessments(
            [agent.id for agent, _ in fleet],
            type=assessment_type,
            window_start=end - timedelta(days=config.window_days),
            window_end=end,
            dimension=dimension,
            status=status,
        )
        _emit(uow, "assessment.started", records, now)
    return records


def _emit(uow: OrgStore, event_type: str, assessments: Sequence[Assessment], now: datetime) -> None:
    """Raise a document 004 §6.3 webhook event of each of ``assessments`` in ``uow`` (it commits
    with the work), in one write.  Imported here, not at the top: a SQLite scoring helper
    process imports this module and must not pay for SQLAlchemy (tests/perf/test_assess_parallel.py)."""
    from aaaf.services.webhooks import assessment_data, payload_json
    from aaaf.store.repositories.webhook_deliveries import write_webhook_events

    events = [(event_type, payload_json(event_type, assessment_data(a), now=now)) for a in assessments]
    uow.in_transaction(
        lambda connection: write_webhook_events(connection, uow.organization_id, events, at=now)
    )


def fail_and_emit(
    org: OrgStore,
    assessment_id: uuid.UUID,
    *,
    error: dict[str, Any],
    now: datetime,
    spec: SchemeSpec | None = None,
) -> Assessment:
    """Record an assessment ``failed`` and raise ``assessment.failed`` (SCORING.md §7
    "Assessments"), in one unit of work."""
    with org.unit_of_work() as uow:
        uow.fail_assessment(assessment_id, error=error, completed_at=now, spec=spec)
        failed = uow.get_assessment(assessment_id)
        _emit(uow, "assessment.failed", [failed], now)
    return failed


def score_assessment(
    org: OrgStore,
    agent: Agent,
    record: Assessment,
    events: Sequence[EventRecord],
    *,
    now: datetime,
    config: AAAFConfig | None = None,
    previous: Assessment | None = None,
    runs: AgentRuns | None = None,
) -> Assessment:
    """Score an ``in_progress`` assessment record and store it completed (or failed, with the
    error that stopped it, which is raised); ``previous`` is the completed assessment the
    calibration check (SCORING.md §2.4) compares against; ``runs`` the agent's stored stress
    runs (read when not given), which decide what is stress-tested
    (:mod:`aaaf.scoring.evidence_sources`).  Completing is
    :func:`aaaf.services.assessment_completion.finished_assessment`, as on every path."""
    from aaaf.store.org_config import config_snapshot

    config = config or org.config()
    runs = runs if runs is not None else agent_runs(org, agent.id)

    def finish(scored: ScoredAgent | None, error: dict[str, Any] | None) -> None:
        store_finished(
            org,
            [
                finished_assessment(
                    assessment_id=record.id,
                    agent_id=agent.id,
                    agent_name=agent.name,
                    assessment_type=record.type,
                    dimension=record.dimension,
                    window_start=record.window_start,
                    window_end=record.window_end,
                    scored=scored,
                    error=error,
                    config=config,
                    snapshot=config_snapshot(config),
                    spec=aaaf_spec(config),  # recorded with the assessment (SCORING.md §2.4 appeals, §6)
                    previous=baseline_of(previous),
                    now=now,
                )
            ],
            now=now,
        )

    try:
        with one_blas_thread(config.uncertainty_resamples > 0):
            scored = score_agent(
                events,
                config,
                record.window_end,
                record.type,
                record.dimension,
                runs,
                agent.name,
                window_start=record.window_start,
            )
    except AAAFError as error:
        finish(None, error.to_dict()["error"])
        raise
    except Exception as error:
        finish(None, {"code": "INTERNAL_ERROR", "message": str(error)})
        raise
    finish(scored, None)
    merge_runs(org, scored.result, record.id)
    return org.get_assessment(record.id)


def merge_runs(org: OrgStore, result: Mapping[str, Any], assessment_id: uuid.UUID) -> None:
    """Record the stress runs an assessment used as merged into it (issue 15 §4): the harness's
    and the imported logs' (whose evidence it used as reported)."""
    sources = result.get("evidence_sources") or {}
    runs = [*(sources.get("stress_runs") or []), *(sources.get("reported_stress_runs") or [])]
    if runs:
        org.merge_stress_runs([uuid.UUID(run) for run in runs], assessment_id)


class AssessOptions(TypedDict, total=False):
    """What every entry point of ``aaaf assess`` passes on to the scoring (its flags)."""

    dimension: str | None
    window_end: datetime | None
    uncertainty: bool


def assess_agent(
    org: OrgStore,
    agent_ref: str,
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    **options: Unpack[AssessOptions],
) -> Assessment:
    agent = org.get_agent(agent_ref)
    return assess_with_events(
        org, agent, org.events(agent.id), now=now, assessment_type=assessment_type, **options
    )


def assess_many(
    org: OrgStore,
    agents: Iterable[Agent],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
    workers: int | None = None,
    uncertainty: bool = True,
) -> list[AssessOutcome]:
    """Assess each agent; one agent's insufficient evidence does not stop the rest.

    Every assessment (completed or failed) is stored, except a refusal for too little evidence,
    which is only reported (no ``failed`` record); the calibration check (SCORING.md §2.4)
    compares each with the agent's previous completed assessment.  ``uncertainty=False``
    leaves out the SCORING.md §2.5 bootstrap (``--no-uncertainty``, bulk re-scoring).
    """
    _check_type(assessment_type, dimension)
    agents = list(agents)
    if not agents:
        return []
    with gc_paused():
        return _assess_many(org, agents, now, assessment_type, dimension, window_end, workers, uncertainty)


def _assess_many(
    org: OrgStore,
    agents: list[Agent],
    now: datetime,
    assessment_type: str,
    dimension: str | None,
    window_end: datetime | None,
    workers: int | None,
    uncertainty: bool = True,
) -> list[AssessOutcome]:
    from aaaf.store.assessment_batch import (
        AssessmentWriter,
        latest_completed_composites,
        prepare_finished_assessments,
    )
    from aaaf.store.org_config import config_snapshot

    # the run is planned and its helper processes start first: they get ready while this
    # process reads the configuration and the previous assessments and opens the write
    with fleet_scoring(org, agents, workers) as scoring:
        config = with_uncertainty_option(org.config(), uncertainty)
        snapshot = config_snapshot(config)  # recorded in every result: the configuration in force
        spec = aaaf_spec(config)
        end = window_end or now
        start = end - timedelta(days=config.window_days)
        # first: it checks every agent against the organization (NOT_FOUND), which workers rely on
        previous = latest_completed_composites(org.engine, org.organization_id, [a.id for a in agents])
        names = {agent.id: agent.name for agent in agents}
        sqlite = org.engine.dialect.name == "sqlite"
        errors: dict[uuid.UUID, AAAFError] = {}

        def _refused(agent_id: uuid.UUID, error: dict[str, Any] | None) -> bool:
            if error is None or error.get("code") != "INSUFFICIENT_EVIDENCE":
                return False
            errors[agent_id] = AAAFError(error["code"], error["message"], error.get("details"))
            return True

        def finished(
            agent_id: uuid.UUID, item: ScoredAgent | None, error: dict[str, Any] | None
        ) -> FinishedAssessment:
            if item is None:
                assert error is not None
                errors[agent_id] = AAAFError(error["code"], error["message"], error.get("details"))
            return finished_assessment(
                agent_id=agent_id,
                agent_name=names[agent_id],
                assessment_type=assessment_type,
                dimension=dimension,
                window_start=start,
                window_end=end,
                scored=item,
                error=error,
                config=config,
                snapshot=snapshot,
                spec=spec,
                previous=previous.get(agent_id),
                now=now,
            )

        def events(connection: Connection, records: list[Any]) -> None:
            # each batch's webhook events commit with it, as on the single path (docs/webhooks.md)
            write_assessment_events(connection, org.organization_id, records, now=now, started=True)

        # every assessment of the run is written in one transaction; it opens when this process
        # has nothing left to score, and the helpers' last chunks are written as they come
        with AssessmentWriter(
            org.engine, org.organization_id, [agent.id for agent in agents], also=events
        ) as writer:

            def keep(scored: list[Scored]) -> None:
                # rows and records are prepared here, chunk by chunk, while helpers are still scoring;
                # a refusal for too little evidence is reported, not stored (no `failed` record)
                items = [
                    finished(agent_id, item, error)
                    for agent_id, item, error in scored
                    if not _refused(agent_id, error)
                ]
                writer.add(prepare_finished_assessments(org.organization_id, items, sqlite=sqlite))

            scoring.score(config, end, assessment_type, dimension, keep, writer.begin)
    records = writer.records
    for record in records:  # the stress runs each assessment used, as assess NAME records them
        if record.status == "completed":
            merge_runs(org, record.result or {}, record.id)
    # the outcomes in the order of ``agents`` (chunks finish in any order)
    by_agent: dict[Any, deque[Any]] = {}
    for record in records:
        by_agent.setdefault(record.agent_id, deque()).append(record)
    outcomes = []
    for agent in agents:
        queue = by_agent.get(agent.id)
        stored = queue.popleft() if queue else None
        outcomes.append(
            AssessOutcome(
                agent=agent,
                assessment=stored if stored is not None and stored.status == "completed" else None,
                error=errors.get(agent.id),
            )
        )
    return outcomes


def assess_all(
    org: OrgStore,
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    workers: int | None = None,
    **options: Unpack[AssessOptions],
) -> list[AssessOutcome]:
    return assess_many(
        org, org.agents(), now=now, assessment_type=assessment_type, workers=workers, **options
    )


def assess_by_evidence(
    org: OrgStore,
    agents: Sequence[Agent],
    *,
    now: datetime,
    workers: int | None = None,
    **options: Unpack[AssessOptions],
) -> list[AssessOutcome]:
    """Assess each agent with the type its evidence supports (``aaaf assess`` without ``--type``).

    Passive evidence first (``passive_only``, the default type).  An agent refused for too little
    of it that has stress-test evidence is assessed again on that: ``stress_test_only`` when it
    has no passive task at all (the reference agents), ``full`` otherwise.  An agent with no task
    but workflow runs is told that ``aaaf workflow`` scores those (docs/cli.md "aaaf assess")."""
    outcomes = assess_many(org, agents, now=now, assessment_type="passive_only", workers=workers, **options)
    retry: dict[str, list[Agent]] = {"stress_test_only": [], "full": []}
    for outcome in outcomes:
        error = outcome.error
        if error is None or error.code != "INSUFFICIENT_EVIDENCE":
            continue
        if org.stress_runs(outcome.agent.id):
            retry["stress_test_only" if not error.details.get("current_count") else "full"].append(
                outcome.agent
            )
        elif not error.details.get("current_count") and org.count_events(
            outcome.agent.id, types=["workflow_run"]
        ):
            outcome.error = AAAFError(
                error.code,
                f"Agent {outcome.agent.name} has no tasks, only workflow runs: those are scored by "
                "`aaaf workflow weights` (the workflow scheme), not by an AAAF assessment.",
                {**error.details, "evidence": "workflow_run"},
            )
    again: dict[uuid.UUID, AssessOutcome] = {}
    for assessment_type, chosen in retry.items():
        if chosen:
            for outcome in assess_many(
                org, chosen, now=now, assessment_type=assessment_type, workers=workers, **options
            ):
                again[outcome.agent.id] = outcome
    return [again.get(outcome.agent.id, outcome) for outcome in outcomes]


def assess_due(
    org: OrgStore,
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    workers: int | None = None,
    **options: Unpack[AssessOptions],
) -> list[AssessOutcome]:
    from aaaf.services.reassessment import due_agents

    due = due_agents(org, now=now)
    return assess_many(
        org, [agent for agent, _ in due], now=now, assessment_type=assessment_type, workers=workers, **options
    )
