"""OpenTelemetry traces as evidence: ingestion (issue 19; docs/opentelemetry.md).

:func:`ingest_spans` joins a request's spans with the spans of the same traces kept from
earlier requests (:mod:`aaaf.store.repositories.otlp_spans`), maps those that now belong to
a task (:func:`aaaf.evidence.otlp.join`) and stores their events through
:func:`aaaf.services.collect.collect` — the same validation, idempotent store and agent
enrolment as ``POST /api/v1/events/batch`` and ``aaaf collect --enroll``.  The kept spans
and the stored tasks the waiting spans need are read, and the events and the spans' new
states stored, in one transaction (one pool checkout, one commit): both are stored or
neither.  The transaction first locks its traces
(:meth:`~aaaf.store.repositories.otlp_spans.OtlpSpanRepository.lock_otlp_traces`), so exports
of one trace run one after the other and each reads what the one before it stored: children
and their agent span exported at once join either way.  Only the spans a later span may need
and no stored event stands for are kept (pending ones above all): a request whose tasks are complete in it writes no
kept span, and a late descendant of a stored task finds it through the task's events.  Kept
spans older than :data:`OTLP_SPAN_TTL` are forgotten: no longer read, deleted by the next
request that keeps a span (and by the periodic duties).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import orjson

from aaaf.evidence.otlp import (
    INVOKE_AGENT,
    KeptSpan,
    Plan,
    Span,
    SpanOutcome,
    StoredEvent,
    awaited_task_ids,
    join,
    operation_of,
    recovering_task_ids,
    spans_of_stored,
)
from aaaf.services.collect import CollectReport, collect
from aaaf.services.context import ServiceContext

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore

OTLP_SPAN_TTL = timedelta(days=1)
MAX_REASONS = 5
# the scope a key needs to enrol an agent through a span (the one POST /api/v1/agents needs)
ENROL_SCOPE = "assessments:write"


@dataclass
class OtlpReport:
    """What one export did: the collect report of its events, the spans of the request
    that could not be used (``rejected_spans``) and why, and warnings about what was used."""

    spans: int = 0
    rejected_spans: int = 0
    pending_spans: int = 0
    collect: CollectReport = field(default_factory=CollectReport)
    reasons: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def message(self) -> str:
        """OTLP's ``partial_success.error_message``: the reasons, then the warnings ("" when
        everything was used without remark)."""
        parts = [*self.reasons[:MAX_REASONS]]
        if len(self.reasons) > MAX_REASONS:
            parts.append(f"and {len(self.reasons) - MAX_REASONS} more")
        parts += self.warnings
        if self.pending_spans:
            parts.append(
                f"{self.pending_spans} spans wait for their invoke_agent ancestor (kept for "
                f"{int(OTLP_SPAN_TTL.total_seconds() // 3600)} h)"
            )
        return "; ".join(parts)


def ingest_spans(
    org: OrgStore,
    spans: Sequence[Span],
    *,
    now: datetime,
    context: ServiceContext | None = None,
    enroll: bool = True,
) -> OtlpReport:
    """Map and store ``spans`` for ``org`` (see the module docstring); an agent a span names
    that does not exist is enrolled only with ``enroll`` (the caller may create agents:
    :data:`ENROL_SCOPE`), else the span is refused saying so."""
    report = OtlpReport(spans=len(spans))
    trace_ids = {span.trace_id for span in spans}
    forget_before = now - OTLP_SPAN_TTL
    received = {(span.trace_id, span.span_id) for span in spans}  # Span.key's, without its call
    # one transaction (one pool checkout, one commit) for the read, the events and the kept
    # spans: the events and the spans' new states are stored together or not at all
    with org.unit_of_work() as work:
        known: dict[str, bool] = {}

        def is_agent_id(reference: str) -> bool:
            if reference not in known:
                known[reference] = _is_uuid(reference) and work.find_agent(reference) is not None
            return known[reference]

        # exports of the same traces one after the other: what this one reads includes what
        # an export of these traces that was running stored and kept
        likely = _likely_tasks(spans, received)
        named = _named_agents(spans)
        kept, stored, config, agents = work.read_for_export(
            trace_ids, likely, since=forget_before, agents=named
        )
        if config is not None:  # read with the kept spans: each agent id the spans name is known
            known.update((reference, reference in agents) for reference in named if _is_uuid(reference))
        plan = _plan(work, spans, kept, is_agent_id, (likely, stored))
        report.collect = collect(
            work,
            ((None, event) for event in plan.events),
            now=now,
            enroll=enroll,
            context=context,
            read=None if config is None else (config, agents),
        )
        keep, drop = _to_keep(plan, report.collect, {item.span.key for item in kept})
        unstorable = {outcome.span.key for outcome in keep if not _storable(outcome)}
        if unstorable:
            keep = [outcome for outcome in keep if outcome.span.key not in unstorable]
        # the last step: on PostgreSQL the commit goes with these writes (one round trip fewer)
        work.keep_otlp_spans(keep, at=now, drop=drop, forget_before=forget_before, last=True)
    refused: dict[tuple[str, str], str] = {}
    for error in report.collect.errors:
        key = plan.event_spans[error.index]
        refused.setdefault(key, f"span {key[1]}: {error.message}")
    for outcome in plan.outcomes:
        if outcome.reason is not None:
            refused.setdefault(outcome.span.key, f"span {outcome.span.span_id}: {outcome.reason}")
        if outcome.state == "pending" and outcome.span.key in received:
            report.pending_spans += 1
    for key in unstorable:
        refused.setdefault(key, f"span {key[1]}: {_NUL_REASON}")
    mine = [key for key in refused if key in received]
    report.rejected_spans = len(mine)
    report.reasons = [refused[key] for key in mine]
    if report.collect.rejected > len(report.collect.errors):
        report.reasons.append(f"{report.collect.rejected} events were refused in all")
    report.warnings = plan.warnings
    return report


def _is_uuid(reference: str) -> bool:
    try:
        uuid.UUID(reference)
    except ValueError:
        return False
    return True


def _named_agents(spans: Sequence[Span]) -> list[str]:
    """The agent references (``gen_ai.agent.id``, ``gen_ai.agent.name``) of the request's
    ``invoke_agent`` spans: the agents its events most often name, read with the kept spans."""
    named: dict[str, None] = {}
    for span in spans:
        if operation_of(span) == INVOKE_AGENT:
            for attribute in ("gen_ai.agent.id", "gen_ai.agent.name"):
                value = span.attributes.get(attribute)
                if isinstance(value, str) and value:
                    named[value] = None
    return list(named)


def _likely_tasks(spans: Sequence[Span], here: set[tuple[str, str]]) -> set[str]:
    """The task each span's parent would make when the parent is not in the request (``here``:
    the request's spans): the stored tasks :func:`_plan` most often needs, read with the kept spans."""
    return {
        f"otel-{span.trace_id}-{span.parent_span_id}"
        for span in spans
        if span.parent_span_id and (span.trace_id, span.parent_span_id) not in here
    }


def _plan(
    org: OrgStore,
    spans: Sequence[Span],
    kept: list[KeptSpan],
    is_agent_id: Callable[[str], bool],
    read: tuple[set[str], list[StoredEvent]],
) -> Plan:
    """:func:`join`, joined again with the stored events of the tasks that may decide
    something: the tasks the pending spans wait for (:func:`awaited_task_ids`: an
    ``invoke_agent`` span whose events are stored is not kept, so a late descendant finds
    its task through them) and those of failed calls whose agent span is not in the request
    (:func:`recovering_task_ids`: a stored later call of the same tool may recover them).
    ``read`` is the tasks already read and their stored events; the others are read here."""
    plan = join(spans, kept, is_agent_id)
    wanted = awaited_task_ids(plan) | recovering_task_ids(plan, spans)
    if not wanted:
        return plan
    read_tasks, read_events = read
    found = [event for event in read_events if event.data.get("task_id") in wanted]
    if wanted - read_tasks:
        found += org.stored_otlp_events(wanted - read_tasks)
    stored = spans_of_stored(found)
    if stored:
        plan = join(spans, [*kept, *stored], is_agent_id)
    return plan


_NUL_REASON = "holds a NUL character (\\u0000) in a string; no text field takes one, so it is not kept"


def _storable(outcome: SpanOutcome) -> bool:
    """Whether the span can be kept: no string of it holds a NUL, which PostgreSQL's text and
    JSON cannot store (SQLite could; one rule for both).  Protobuf strings may hold one
    (OTLP/JSON bodies with one are refused whole); only the few spans kept are looked at."""
    task = outcome.task
    if task is not None and ("\x00" in task.task_id or "\x00" in task.agent):
        return False
    return b"\\u0000" not in orjson.dumps(outcome.span.to_json())


def _to_keep(
    plan: Plan, collected: CollectReport, was_kept: set[tuple[str, str]]
) -> tuple[list[SpanOutcome], list[tuple[str, str]]]:
    """The spans to keep — those a later span may need that their events do not stand for:
    pending and unused ones, joined ones that made no event or whose events were refused —
    and the kept ones to drop.  A joined span whose events are stored is not kept (nor left
    kept): its task is found through them."""
    made_events = set(plan.event_spans)
    refused = {plan.event_spans[error.index] for error in collected.errors}
    all_told = collected.rejected <= len(collected.errors)
    keep: list[SpanOutcome] = []
    drop: list[tuple[str, str]] = []
    for outcome in plan.outcomes:
        key = outcome.span.key
        stored = outcome.state == "joined" and key in made_events and all_told and key not in refused
        if not stored:
            keep.append(outcome)
        elif key in was_kept:
            drop.append(key)
    return keep, drop
