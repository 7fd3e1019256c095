"""OpenTelemetry traces as evidence: ingestion (issue 19; docs/opentelemetry.md).

:func:`ingest_spans` joins a request's spans with the spans of the same traces kept from
earlier requests (:mod:`aaaf.store.repositories.otlp_spans`), maps those that now belong to
a task (:func:`aaaf.evidence.otlp.join`) and stores their events through
:func:`aaaf.services.collect.collect` — the same validation, idempotent store and agent
enrolment as ``POST /api/v1/events/batch`` and ``aaaf collect --enroll``.  The kept spans
are read, and the events and the spans' new states stored, in one transaction (one pool
checkout, one commit): both are stored or neither.  Only the spans a later span may need and no stored event stands
for are kept (pending ones above all): a request whose tasks are complete in it writes no
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

from aaaf.evidence.otlp import (
    KeptSpan,
    Plan,
    Span,
    SpanOutcome,
    StoredEvent,
    awaited_task_ids,
    join,
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
    known: dict[str, bool] = {}
    store = org  # where an agent id is looked up: the unit of work's connection inside it

    def is_agent_id(reference: str) -> bool:
        if reference not in known:
            try:
                uuid.UUID(reference)
            except ValueError:
                known[reference] = False
            else:
                known[reference] = store.find_agent(reference) is not None
        return known[reference]

    received = {span.key for span in spans}
    # one transaction (one pool checkout, one commit) for the read, the events and the kept
    # spans: the events and the spans' new states are stored together or not at all
    with org.unit_of_work() as work:
        store = work
        kept = work.kept_otlp_spans(trace_ids, since=forget_before)
        plan = _plan(work, spans, kept, is_agent_id)
        report.collect = collect(
            work, ((None, event) for event in plan.events), now=now, enroll=enroll, context=context
        )
        keep, drop = _to_keep(plan, report.collect, {item.span.key for item in kept})
        work.keep_otlp_spans(keep, at=now, drop=drop, forget_before=forget_before)
    store = org
    refused: dict[tuple[str, str], str] = {}
    for error in report.collect.errors:
        key = plan.event_spans[error.index]
        refused.setdefault(key, f"span {key[1]}: {error.message}")
    for outcome in plan.outcomes:
        if outcome.reason is not None:
            refused.setdefault(outcome.span.key, f"span {outcome.span.span_id}: {outcome.reason}")
        if outcome.state == "pending" and outcome.span.key in received:
            report.pending_spans += 1
    mine = [key for key in refused if key in received]
    report.rejected_spans = len(mine)
    report.reasons = [refused[key] for key in mine]
    if report.collect.rejected > len(report.collect.errors):
        report.reasons.append(f"{report.collect.rejected} events were refused in all")
    report.warnings = plan.warnings
    if any(outcome.state == "pending" for outcome in plan.outcomes) or plan.events:
        # read back once committed: the traces' waiting spans, and the stored tasks this
        # request's own pending spans wait for (another request's pending spans are looked
        # up by that request, after it kept them)
        waiting = org.waiting_otlp_spans(trace_ids, awaited_task_ids(plan), since=forget_before)
        joined = _join_again(org, waiting, plan, is_agent_id, report, now, context, enroll)
        report.pending_spans -= len(joined & received)
    return report


def _plan(
    org: OrgStore,
    spans: Sequence[Span],
    kept: list[KeptSpan],
    is_agent_id: Callable[[str], bool],
) -> Plan:
    """:func:`join`, joined again with the stored events of the tasks of failed calls
    (:func:`recovering_task_ids`).  The stored tasks pending spans wait for
    (:func:`awaited_task_ids`: stored ``invoke_agent`` spans are not kept) are looked up
    only once the pending spans are kept (:func:`_join_again`), so that a concurrent export
    storing their task is seen either way."""
    plan = join(spans, kept, is_agent_id)
    wanted = recovering_task_ids(plan, spans)
    if wanted:
        stored = spans_of_stored(org.stored_otlp_events(wanted))
        if stored:
            plan = join(spans, [*kept, *stored], is_agent_id)
    return plan


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


def _join_again(
    org: OrgStore,
    read_back: tuple[list[KeptSpan], list[StoredEvent]],
    first: Plan,
    is_agent_id: Callable[[str], bool],
    report: OtlpReport,
    now: datetime,
    context: ServiceContext | None,
    enroll: bool,
) -> set[tuple[str, str]]:
    """Join what another request kept or stored meanwhile: two exports of one trace running
    at once (children in one, their agent span in the other) each read before the other
    wrote; whichever writes last sees the other's spans or events here, so no child stays
    pending.  ``read_back`` is what was read after keeping: the kept spans of this request's
    traces that have a pending one, and the stored tasks its pending spans wait for."""
    kept, stored = read_back
    if not any(item.state == "pending" for item in kept):
        return set()
    waiting = {item.span.trace_id for item in kept}
    # this request's joined spans, which are not kept when their events are stored
    kept += [
        KeptSpan(outcome.span, outcome.state, outcome.task)
        for outcome in first.outcomes
        if outcome.state == "joined" and outcome.span.trace_id in waiting
    ]
    plan = _plan(org, [], [*kept, *spans_of_stored(stored)], is_agent_id)
    joined = [outcome for outcome in plan.outcomes if outcome.state != "pending"]
    if not joined:
        return set()
    with org.unit_of_work() as work:
        again = collect(
            work, ((None, event) for event in plan.events), now=now, enroll=enroll, context=context
        )
        plan.outcomes = joined
        keep, drop = _to_keep(plan, again, {item.span.key for item in kept})
        work.keep_otlp_spans(keep, at=now, drop=drop, forget_before=now - OTLP_SPAN_TTL)
    report.collect.merge(again)
    return {outcome.span.key for outcome in joined}
