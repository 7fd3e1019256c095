"""The periodic duties that raise webhook events (issue 14 §4; SCORING.md §2.4; document 004 §6.3).

:func:`run_periodic_duties` looks at every organization at ``now`` (a clock handed in):

* ``badge.expiring`` — a current, unrevoked badge within ``expiring_notice_days`` (14) of its
  ``valid_until``; ``badge.expired`` — one whose ``valid_until`` has passed (the badge is kept;
  it verifies as ``expired: true``);
* ``evidence.threshold_reached`` — an agent with ``reassessment_task_threshold`` (50) new
  completed tasks since its last completed assessment, or, never assessed, with the
  performance minimum (20) of completed tasks inside the assessment window;
* due re-assessments (SCORING.md §2.4: no assessment yet, the task threshold, or validity
  running out) are flagged in the summary, each with its reason;
* spans kept by ``POST /v1/traces`` (:mod:`aaaf.services.otlp`) older than a day are forgotten.

Each event is emitted with a dedupe key (the badge; the agent and its last assessment), so
running the duties twice — or on two workers at once — changes nothing the second time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from aaaf.reports.wording import reassessment_text
from aaaf.scoring.calibration import expiring_from, reassessment_due
from aaaf.services.otlp import OTLP_SPAN_TTL
from aaaf.services.reassessment import completed_tasks_since
from aaaf.services.webhooks import badge_data, emit
from aaaf.store import OrgStore, Store


@dataclass
class DutiesSummary:
    """What one round of :func:`run_periodic_duties` found and emitted."""

    organizations: int = 0
    badge_expiring: int = 0
    badge_expired: int = 0
    evidence_threshold_reached: int = 0
    reassessments_due: list[dict[str, str]] = field(default_factory=list)

    @property
    def emitted(self) -> int:
        return self.badge_expiring + self.badge_expired + self.evidence_threshold_reached

    def to_dict(self) -> dict[str, object]:
        return {
            "organizations": self.organizations,
            "emitted": {
                "badge.expiring": self.badge_expiring,
                "badge.expired": self.badge_expired,
                "evidence.threshold_reached": self.evidence_threshold_reached,
            },
            "reassessments_due": list(self.reassessments_due),
        }


def badge_duties(org: OrgStore, *, now: datetime, summary: DutiesSummary) -> None:
    """``badge.expiring`` and ``badge.expired``, once per badge."""
    config = org.config()
    for badge in org.badges(current_only=True):
        if badge.revoked:
            continue
        if now >= badge.valid_until:
            if emit(org, "badge.expired", badge_data(badge), now=now, dedupe_key=f"badge.expired:{badge.id}"):
                summary.badge_expired += 1
        elif now >= expiring_from(badge.valid_until, config) and emit(
            org, "badge.expiring", badge_data(badge), now=now, dedupe_key=f"badge.expiring:{badge.id}"
        ):
            summary.badge_expiring += 1


def evidence_duties(org: OrgStore, *, now: datetime, summary: DutiesSummary) -> None:
    """``evidence.threshold_reached`` once per (agent, last assessment), and due re-assessments.

    Three reads whatever the fleet: its agents, their latest completed assessments and their
    ``task_completed`` events (one read of each an agent made a 40-agent duty take longer
    than scoring those agents)."""
    from aaaf.store.assessment_batch import latest_completed_composites

    config = org.config()
    agents = [agent for agent in org.agents() if agent.status != "archived"]
    ids = [agent.id for agent in agents]
    latest = latest_completed_composites(org.engine, org.organization_id, ids, every_type=True)
    completions = org.events_for_agents(ids, types=["task_completed"])
    for agent in agents:
        previous = latest.get(agent.id)
        completed = completions.get(agent.id, [])
        if previous is None or previous.completed_at is None:
            since = now - timedelta(days=config.window_days)
            count = completed_tasks_since(completed, since)
            threshold, last = config.min_tasks_performance, None
            decided = reassessment_due(now=now, valid_until=None, completed_tasks_since_last=0, config=config)
        else:
            count = completed_tasks_since(completed, previous.completed_at)
            threshold, last = config.reassessment_task_threshold, previous.assessment_id
            decided = reassessment_due(
                now=now, valid_until=previous.valid_until, completed_tasks_since_last=count, config=config
            )
        if count >= threshold:
            data = {
                "agent_id": str(agent.id),
                "completed_tasks": count,
                "threshold": threshold,
                "last_assessment_id": str(last) if last is not None else None,
            }
            key = f"evidence.threshold_reached:{agent.id}:{last if last is not None else 'first'}"
            if emit(org, "evidence.threshold_reached", data, now=now, dedupe_key=key):
                summary.evidence_threshold_reached += 1
        if decided.due:
            summary.reassessments_due.append(
                {
                    "organization_id": str(org.organization_id),
                    "agent_id": str(agent.id),
                    "reason": reassessment_text(decided),
                }
            )


def run_periodic_duties(store: Store, *, now: datetime) -> DutiesSummary:
    """Run every duty for every organization at ``now``; idempotent."""
    summary = DutiesSummary()
    for organization in store.organizations():
        org = store.scope(organization.id)
        summary.organizations += 1
        badge_duties(org, now=now, summary=summary)
        evidence_duties(org, now=now, summary=summary)
        # issue 19: spans kept for POST /v1/traces are forgotten after a day, even in an
        # organization that sends no further export
        org.forget_otlp_spans(before=now - OTLP_SPAN_TTL)
    return summary
