"""A credential issued, superseded or revoked writes only its state into the agent's summary
(``summary_writes.refresh_badge_standing``: one UPDATE, not the summary's rebuild), and the
rows are those the rebuild writes — for the latest assessment, an older one, a held one and an
agent without a credential."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from aaaf.store import Agent, Assessment, OrgStore, Store
from aaaf.store.summary_writes import refresh_agent_summaries
from aaaf.store.tables_summary import agent_summaries
from tests.sql_statements import statements

from .factories import T0, completed_assessment, minutes, org_of


def _completed(org: OrgStore, agent: Agent, *, at: int, review_state: str = "not_required") -> Assessment:
    return completed_assessment(
        org,
        agent,
        window_end=T0 + minutes(at),
        completed_at=T0 + minutes(at),
        valid_until=T0 + minutes(90 * 24 * 60 + at),
        review_state=review_state,
    )


def _rows(org: OrgStore) -> list[tuple[Any, ...]]:
    with org.engine.connect() as connection:
        return [
            tuple(row)
            for row in connection.execute(select(agent_summaries).order_by(agent_summaries.c.agent_id))
        ]


def _rebuilt(org: OrgStore, agents: list[Agent]) -> list[tuple[Any, ...]]:
    with org.engine.begin() as connection:
        refresh_agent_summaries(connection, org.organization_id, [agent.id for agent in agents])
    return _rows(org)


def _sign(label: str) -> Any:
    from aaaf.store.records import SignedCredential

    return lambda slot: SignedCredential(
        json_data={"label": label, "id": slot.credential_id},
        credential_jwt=f"jwt.{label}.{slot.status_index}",
        svg_url=f"https://x/{label}.svg",
    )


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_a_credentials_state_alone_is_written_and_equals_the_rebuild(org: OrgStore) -> None:
    alpha, held, plain = (org.enroll_agent(name) for name in ("alpha", "held", "plain"))
    agents = [alpha, held, plain]
    older = _completed(org, alpha, at=0)
    latest = _completed(org, alpha, at=5)
    pending = _completed(org, held, at=5, review_state="pending_review")
    _completed(org, plain, at=5)

    def issue(assessment: Assessment, label: str, *, supersede: str | None = None, at: int = 10) -> None:
        org.issue_badge(
            assessment.id,
            assessment.agent_id,
            sign=_sign(label),
            valid_until=T0 + minutes(1000 + at),
            issued_at=T0 + minutes(at),
            supersede_reason=supersede,
        )

    steps = [
        lambda: issue(latest, "a"),
        lambda: issue(older, "old"),  # not the latest: the summary keeps the latest's credential
        lambda: org.supersede_badge(latest.id, reason="superseded: appeal", at=T0 + minutes(11)),
        lambda: issue(latest, "b", at=12),
        lambda: issue(latest, "c", supersede="superseded: re-issued", at=13),
        lambda: org.revoke_badge(latest.id, reason="key compromised", at=T0 + minutes(14)),
        lambda: issue(pending, "h"),
        lambda: org.revoke_badge(pending.id, reason="withdrawn", at=T0 + minutes(15)),
        lambda: org.revoke_badge(older.id, reason="withdrawn", at=T0 + minutes(16)),
    ]
    for step in steps:
        with statements(org) as sent:
            step()
        written = [s for s in sent if "agent_summaries" in s]
        assert written and all(s.startswith("UPDATE agent_summaries") for s in written), written
        after = _rows(org)
        assert after == _rebuilt(org, agents)
    by_agent = {row.agent_id: row for row in org.agent_summaries().values()}
    alpha_badge = by_agent[alpha.id].badge
    assert alpha_badge is not None and alpha_badge.revoked
    assert by_agent[plain.id].badge is None
