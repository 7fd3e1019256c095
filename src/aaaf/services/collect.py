"""Evidence collection: validate raw events, resolve their agents, store them idempotently.

SCORING.md §1: each invalid event is an error that names the field (and its line), the rest
of a batch is kept; re-sending an event with the same ``(agent, id)`` stores nothing new and
is not an error.  Nothing already accepted is lost when a later line is bad: events are
stored chunk by chunk, each chunk in one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.errors import AAAFError
from aaaf.evidence.models import EventError
from aaaf.evidence.validation import EventValidationError, validate_event
from aaaf.evidence.workflow_definition import resolve_event

log = logging.getLogger(__name__)

CHUNK_SIZE = 5000


@dataclass
class CollectReport:
    """What a collection did: counts, the agents it enrolled, the first errors."""

    accepted: int = 0
    duplicates: int = 0
    rejected: int = 0
    skipped: int = 0
    enrolled: list[str] = field(default_factory=list)
    errors: list[EventError] = field(default_factory=list)

    def to_dict(self, max_errors: int = 100) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "skipped": self.skipped,
            "enrolled": list(self.enrolled),
            "errors": [e.to_dict() for e in self.errors[:max_errors]],
        }


class AgentResolver:
    """Maps an event's agent reference (name or id) to the stored agent, enrolling on demand."""

    def __init__(self, org: Any, *, enroll: bool, report: CollectReport) -> None:
        self.org = org
        self.enroll = enroll
        self.report = report
        self.cache: dict[str, Any] = {}

    def resolve(self, reference: str) -> Any:
        agent = self.cache.get(reference)
        if agent is not None:
            return agent
        agent = self.org.find_agent(reference)
        if agent is None:
            if not self.enroll:
                raise AAAFError(
                    "NOT_FOUND",
                    f"unknown agent {reference!r}: enroll it first (aaaf enroll) or collect with --enroll",
                    {"agent": reference},
                )
            agent = self.org.enroll_agent(reference)
            self.report.enrolled.append(agent.name)
        self.cache[reference] = agent
        return agent


def collect(
    org: Any,
    items: Iterable[tuple[int | None, Any]],
    *,
    now: datetime,
    default_agent: str | None = None,
    enroll: bool = False,
    since: datetime | None = None,
    future_tolerance_seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
    workflow_definitions: Mapping[str, Any] | None = None,
) -> CollectReport:
    """Validate and store ``items`` — ``(line or None, raw event | EventError)`` pairs.

    ``since`` skips (does not reject) events older than it: ``aaaf collect --from``.
    ``workflow_definitions`` fills a ``workflow_run``'s ``dag_steps`` and
    ``declared_retry_budget`` from the definition it names (SCORING.md §5).
    """
    report = CollectReport()
    resolver = AgentResolver(org, enroll=enroll, report=report)
    tolerance = (
        future_tolerance_seconds
        if future_tolerance_seconds is not None
        else org.config().future_tolerance_seconds
    )
    chunk: list[tuple[Any, Any]] = []
    seen = 0

    def flush() -> None:
        if not chunk:
            return
        inserted = org.add_events(chunk)
        new = sum(1 for flag in inserted if flag)
        report.accepted += new
        report.duplicates += len(inserted) - new
        chunk.clear()

    for index, (line, raw) in enumerate(items):
        seen += 1
        if isinstance(raw, EventError):
            report.rejected += 1
            report.errors.append(raw)
            continue
        try:
            if workflow_definitions:
                raw = resolve_event(raw, workflow_definitions)
            event = validate_event(
                raw, now=now, default_agent=default_agent, future_tolerance_seconds=tolerance
            )
            if since is not None and event.timestamp < since:
                report.skipped += 1
                continue
            agent = resolver.resolve(event.agent)
        except EventValidationError as error:
            report.rejected += 1
            report.errors.append(
                EventError(index=index, line=line, code=error.code, field=error.field, message=error.message)
            )
            continue
        except AAAFError as error:
            report.rejected += 1
            report.errors.append(
                EventError(
                    index=index,
                    line=line,
                    code=error.code,
                    field=error.details.get("field", "agent"),
                    message=error.message,
                )
            )
            continue
        chunk.append((agent.id, event))
        if len(chunk) >= CHUNK_SIZE:
            flush()
            if progress is not None:
                progress(seen)
    flush()
    if progress is not None:
        progress(seen)
    log.info("collected: %s", report.to_dict(max_errors=0))
    return report
