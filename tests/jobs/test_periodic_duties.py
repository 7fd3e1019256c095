"""The periodic duties of issue 14 §4, each run twice with a fixed clock (idempotent), on
SQLite and PostgreSQL: retention (SCORING.md §6) and the review-before-issue policy
(document 004 §5.2 step 5)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from aaaf.errors import AAAFError
from aaaf.jobs.periodic import run_duties, run_retention
from aaaf.services import badges as badge_service
from aaaf.services.assess import assess_agent
from aaaf.services.assessment_jobs import issue_badge_of
from aaaf.services.explain import explain_assessment
from aaaf.services.retention import prune_all
from tests.cli.events_factory import NOW
from tests.jobs.helpers import assessable_agent
from tests.sql_statements import statements


def test_retention_deletes_old_evidence_keeps_assessments_and_says_when(store) -> None:
    org = store.scope(store.default_organization().id)
    then = NOW - timedelta(days=200)
    old = assessable_agent(org, "old-timer", now=then)  # events 200 days old
    assessed = assess_agent(org, "old-timer", now=then)
    recent = assessable_agent(org, "recent", now=NOW)
    recent_assessment = assess_agent(org, "recent", now=NOW)
    assert assessed.status == recent_assessment.status == "completed"
    before_events = len(org.events(recent.id))

    dry = prune_all(store, now=NOW, dry_run=True)["default"]
    assert (dry.events, dry.stress_results, dry.assessments_marked) == (8, 0, 1)
    assert len(org.events(old.id)) == 8  # a dry run deletes nothing

    first = run_retention(store, now=NOW)["default"]
    assert (first.events, first.assessments_marked) == (8, 1)
    second = run_retention(store, now=NOW)["default"]
    assert (second.events, second.stress_results, second.assessments_marked) == (0, 0, 0)

    assert org.events(old.id) == [] and len(org.events(recent.id)) == before_events
    kept = org.get_assessment(assessed.id)
    assert kept.status == "completed" and kept.dimensions == assessed.dimensions
    assert kept.evidence_pruned_at == NOW
    assert org.get_assessment(recent_assessment.id).evidence_pruned_at is None
    explained = explain_assessment(org, str(assessed.id)).to_dict()
    assert explained["status"] == "evidence_pruned"
    assert f"evidence pruned on {NOW:%Y-%m-%d}" in explained["message"]
    assert explained["evidence_pruned_at"] is not None and explained["spec"]["name"] == "aaaf"


def test_retention_follows_the_organizations_setting(store) -> None:
    org = store.scope(store.default_organization().id)
    org.update_config(event_retention_days=10)
    agent = assessable_agent(org, "coder", now=NOW - timedelta(days=20))
    assert run_retention(store, now=NOW)["default"].events == 8
    assert org.events(agent.id) == []
    with pytest.raises(AAAFError) as refused:
        org.update_config(event_retention_days=0)
    assert refused.value.code == "INVALID_REQUEST"


def test_the_every_minute_duties_are_idempotent(store) -> None:
    assert run_duties(store, now=NOW) == run_duties(store, now=NOW)


def test_db_prune_by_hand(store_url: str) -> None:
    from aaaf.cli.main import app
    from aaaf.store import open_store

    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        assessable_agent(org, "ancient", now=NOW - timedelta(days=400))
    runner = CliRunner()
    dry = runner.invoke(app, ["db", "prune", "--dry-run", "--json", "--db", store_url])
    assert dry.exit_code == 0, dry.output
    assert json.loads(dry.stdout)["organizations"]["default"]["events"] == 8
    done = runner.invoke(app, ["db", "prune", "--json", "--db", store_url])
    assert json.loads(done.stdout)["organizations"]["default"]["events"] == 8
    again = runner.invoke(app, ["db", "prune", "--json", "--db", store_url])
    assert json.loads(again.stdout)["organizations"]["default"]["events"] == 0


def test_review_before_issue_holds_every_badge_until_approved(store) -> None:
    org = store.scope(store.default_organization().id)
    org.update_config(review_before_issue=True)
    assessable_agent(org, "coder", now=NOW)
    record = assess_agent(org, "coder", now=NOW)
    assert record.status == "completed" and not record.anomalous
    assert record.review_state == "pending_review"
    assert issue_badge_of(store, org.organization_id, record.id, now=NOW) is None
    session = _Session(store, org, org.organization())
    with pytest.raises(AAAFError) as held:
        badge_service.issue(session, record.id, now=NOW)
    assert held.value.code == "BADGE_HELD" and "review-before-issue policy" in held.value.message
    badge_service.review(session, record.id, approve=True, reviewer="alice", now=NOW)
    issued = issue_badge_of(store, org.organization_id, record.id, now=NOW)
    assert issued is not None and not issued.revoked


def test_without_the_policy_a_plain_assessment_is_not_held(store) -> None:
    org = store.scope(store.default_organization().id)
    assessable_agent(org, "coder", now=NOW)
    assert assess_agent(org, "coder", now=NOW).review_state == "not_required"


class _Session:
    def __init__(self, store, org, organization) -> None:
        self.store, self.org, self.organization = store, org, organization


def _statements_of_duties(store, *, now) -> int:
    with statements(store) as executed:
        run_duties(store, now=now)
    return len(executed)


def test_the_every_minute_duties_read_a_fleet_at_once(store) -> None:
    """Two assessed agents or six, nothing to emit: the same statements (the duties made two
    an agent, and on 40 agents took longer than scoring them)."""
    org = store.scope(store.default_organization().id)
    counts = []
    for fleet in (range(2), range(2, 6)):
        for index in fleet:
            assessable_agent(org, f"agent-{index}", now=NOW)
            assess_agent(org, f"agent-{index}", now=NOW)
        counts.append(_statements_of_duties(store, now=NOW))
    assert counts[0] == counts[1]
