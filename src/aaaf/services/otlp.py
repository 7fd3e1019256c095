"""OpenTelemetry traces as evidence: ingestion (issue 19; docs/opentelemetry.md).

:func:`ingest_spans` joins a request's spans with the spans of the same traces kept from
earlier requests (:mod:`aaaf.store.repositories.otlp_spans`), maps those that now belong to
a task (:func:`aaaf.evidence.otlp.join`) and stores their events through
:func:`aaaf.services.collect.collect` — the same validation, idempotent store and agent
enrolment as ``POST /api/v1/events/batch`` and ``aaaf collect --enroll``.  The events are
stored before the spans' new states, so a crash between the two only makes a re-sent span
map again into duplicates.  Kept spans older than :data:`OTLP_SPAN_TTL` are forgotten.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from aaaf.evidence.otlp import Span, join
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
    org.forget_otlp_spans(before=now - OTLP_SPAN_TTL)
    kept = org.kept_otlp_spans(span.trace_id for span in spans)
    known: dict[str, bool] = {}

    def is_agent_id(reference: str) -> bool:
        if reference not in known:
            try:
                uuid.UUID(reference)
            except ValueError:
                known[reference] = False
            else:
                known[reference] = org.find_agent(reference) is not None
        return known[reference]

    plan = join(spans, kept, is_agent_id)
    report.collect = collect(
        org, ((None, event) for event in plan.events), now=now, enroll=enroll, context=context
    )
    received = {span.key for span in spans}
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
    org.keep_otlp_spans(plan.outcomes, at=now)
    if any(outcome.state == "pending" for outcome in plan.outcomes) or plan.events:
        joined = _join_again(
            org, {span.trace_id for span in spans}, is_agent_id, report, now, context, enroll
        )
        report.pending_spans -= len(joined & received)
    return report


def _join_again(
    org: OrgStore,
    trace_ids: set[str],
    is_agent_id: Callable[[str], bool],
    report: OtlpReport,
    now: datetime,
    context: ServiceContext | None,
    enroll: bool,
) -> set[tuple[str, str]]:
    """Join what another request kept meanwhile: two exports of one trace running at once
    (children in one, their agent span in the other) each read the kept spans before the
    other wrote; whichever writes last sees both here, so no child stays pending."""
    waiting = org.pending_otlp_traces(trace_ids)
    if not waiting:
        return set()
    plan = join([], org.kept_otlp_spans(waiting), is_agent_id)
    joined = [outcome for outcome in plan.outcomes if outcome.state != "pending"]
    if not joined:
        return set()
    again = collect(org, ((None, event) for event in plan.events), now=now, enroll=enroll, context=context)
    report.collect.merge(again)
    org.keep_otlp_spans(joined, at=now)
    return {outcome.span.key for outcome in joined}
