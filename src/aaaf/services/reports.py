"""Reports: read stored assessments (and trust scores, read-only) and render them as Markdown.

The shell around the pure renderers of :mod:`aaaf.reports.markdown` and
:mod:`aaaf.reports.summary`: it picks the assessment to report (an agent's latest completed
one; for the fleet, the latest completed assessment that has composites), fetches the
organization's configured weights and, when the trust scheme is installed, computes the trust
score with ``record=False`` (a report is a read-only caller: it never appends to the score
history, SCORING.md §3 'History').
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.reports.markdown import render_agent_report
from aaaf.reports.moved import REPORT_TOP
from aaaf.reports.summary import FleetEntry, render_fleet_summary
from aaaf.services.explain import explain_assessment

if TYPE_CHECKING:
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.scoring.records import EventRecord
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment

log = logging.getLogger(__name__)

COMPOSITE_TYPES = ("full", "passive_only", "stress_test_only")
TRUST_MISSING_NOTE = "The trust scheme is not available in this installation; no trust score is shown."


@dataclass(frozen=True)
class AgentReport:
    agent: str
    assessment_id: str
    markdown: str


def report_filename(agent_name: str) -> str:
    """``<agent>.md`` with anything that could leave the directory replaced."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", agent_name).lstrip(".")
    return f"{safe or 'agent'}.md"


def configured_weights(org: OrgStore) -> dict[str, dict[str, float]]:
    config = org.config()
    return {
        "performance": dict(config.performance_weights),
        "capability": dict(config.capability_weights),
    }


def trust_for(
    org: OrgStore,
    agent: Agent,
    *,
    at: datetime,
    events: Sequence[EventRecord] | None = None,
    aaaf_config: AAAFConfig | None = None,
) -> tuple[dict[str, object] | None, str | None]:
    """The agent's trust score at ``at`` (read-only), or None and a note saying why not.
    ``events`` and ``aaaf_config``: the agent's events and the organization's configuration when
    the caller has read them (the agent page); else they are read here."""
    try:
        from aaaf.services import trust as trust_service
    except ImportError:
        return None, TRUST_MISSING_NOTE
    score = getattr(trust_service, "score_agent", None)
    if score is None:
        return None, TRUST_MISSING_NOTE
    try:
        result = score(org, agent, at=at, events=events, aaaf_config=aaaf_config)
    except AAAFError as error:
        return None, f"No trust score: {error.message}"
    return result.to_dict(), None


def latest_with_composites(org: OrgStore, agent_id: uuid.UUID) -> Assessment | None:
    """The newest completed assessment that scored whole axes (not a single dimension)."""
    for assessment in org.assessments(agent_id, status="completed"):
        if assessment.type in COMPOSITE_TYPES:
            return assessment
    return None


def latest_with_composites_by_agent(
    org: OrgStore, completed: Sequence[Assessment] | None = None
) -> dict[uuid.UUID, Assessment]:
    """:func:`latest_with_composites` of every agent of the organization, in one query
    (agent id → assessment; agents without one are absent).  ``completed``: the
    organization's completed assessments newest first, when the caller has read them."""
    latest: dict[uuid.UUID, Assessment] = {}
    for assessment in org.assessments(status="completed") if completed is None else completed:
        if assessment.type in COMPOSITE_TYPES:
            latest.setdefault(assessment.agent_id, assessment)
    return latest


def agent_report(org: OrgStore, agent_ref: str, *, at: datetime, with_trust: bool = True) -> AgentReport:
    """The Markdown report of the agent's latest completed assessment (NOT_FOUND if none)."""
    agent = org.get_agent(agent_ref)
    assessment = org.latest_completed_assessment(agent.id)
    if assessment is None:
        raise AAAFError(
            "NOT_FOUND",
            f"Agent {agent.name} has no completed assessment; run `aaaf assess {agent.name}` first.",
            {"agent": agent.name},
        )
    trust, note = trust_for(org, agent, at=at) if with_trust else (None, "Trust score not requested.")
    moved = explain_assessment(org, str(assessment.id)).to_dict(top=REPORT_TOP)
    markdown = render_agent_report(
        assessment.to_dict(),
        agent=agent.to_dict(),
        configured_weights=configured_weights(org),
        trust=trust,
        trust_note=note,
        moved=moved,
    )
    return AgentReport(agent=agent.name, assessment_id=str(assessment.id), markdown=markdown)


def write_agent_report(
    org: OrgStore, agent_ref: str, output_dir: Path, *, at: datetime, with_trust: bool = True
) -> Path:
    report = agent_report(org, agent_ref, at=at, with_trust=with_trust)
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / report_filename(report.agent)
    path.write_text(report.markdown, encoding="utf-8")
    return path


def write_all_agent_reports(
    org: OrgStore, output_dir: Path, *, at: datetime, with_trust: bool = True
) -> tuple[list[Path], list[str]]:
    """A report for every agent with a completed assessment; returns (written, skipped agents)."""
    written, skipped = [], []
    for agent in org.agents():
        if org.latest_completed_assessment(agent.id) is None:
            skipped.append(agent.name)
            continue
        written.append(write_agent_report(org, str(agent.id), output_dir, at=at, with_trust=with_trust))
    return written, skipped


def fleet_entries(
    org: OrgStore, *, at: datetime, with_trust: bool = True
) -> tuple[list[FleetEntry], str | None]:
    """One entry per enrolled agent, and a note when trust scores are unavailable."""
    entries = []
    notes: set[str] = set()
    latest = latest_with_composites_by_agent(org)
    for agent in org.agents():
        assessment = latest.get(agent.id)
        failure = None
        if assessment is None:
            failed = org.assessments(agent.id, status="failed")
            failure = dict(failed[0].error) if failed and failed[0].error else None
            if failure is None:  # a refusal stores nothing: say what the evidence lacks at `at`
                failure = _evidence_shortfall(org, agent, at)
        trust = None
        if with_trust:
            trust, note = trust_for(org, agent, at=at)
            if note == TRUST_MISSING_NOTE:
                notes.add(note)
        entries.append(
            FleetEntry(
                agent=agent.name,
                assessment=None if assessment is None else assessment.to_dict(),
                trust=trust,
                failure=failure,
            )
        )
    return entries, (next(iter(notes)) if notes else None)


def _evidence_shortfall(org: OrgStore, agent: Agent, at: datetime) -> dict[str, object] | None:
    """The ``INSUFFICIENT_EVIDENCE`` error an assessment of ``agent`` at ``at`` would be refused
    with (its passive evidence, the default type), or None when it would run."""
    from aaaf.errors import AAAFError
    from aaaf.scoring import aaaf as aaaf_scheme
    from aaaf.scoring.evidence_sources import evidence_for
    from aaaf.services.provenance import agent_runs

    runs = agent_runs(org, agent.id).harness
    try:
        aaaf_scheme.check_minimums(
            evidence_for(org.events(agent.id), "passive_only", harness_runs=runs), org.config(), at
        )
    except AAAFError as error:
        return dict(error.to_dict()["error"])
    return None


def fleet_summary(org: OrgStore, *, at: datetime, with_trust: bool = True) -> str:
    entries, note = fleet_entries(org, at=at, with_trust=with_trust)
    return render_fleet_summary(entries, taxonomy=tuple(org.config().taxonomy), trust_note=note)


def write_fleet_summary(org: OrgStore, output: Path, *, at: datetime, with_trust: bool = True) -> Path:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(fleet_summary(org, at=at, with_trust=with_trust), encoding="utf-8")
    return output
