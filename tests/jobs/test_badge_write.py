"""A badge's write (``OrgStore.issue_badge``) is one transaction without a savepoint inside:
an attempt that loses its status bit to another issue is rolled back whole — the
supersession it made included — and the next attempt takes the next bit (SQLite and
PostgreSQL; the lost race on PostgreSQL, where two writers can pick the same bit)."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import insert

from aaaf.store import Store
from aaaf.store import tables as t
from aaaf.store.records import BadgeSlot, SignedCredential
from tests.sql_statements import statements
from tests.store.factories import T0, completed_assessment, minutes, org_of


def _signed(slot: BadgeSlot) -> SignedCredential:
    return SignedCredential(json_data={"id": slot.credential_id}, credential_jwt=f"jwt.{slot.status_index}")


def test_a_badge_is_written_without_a_savepoint(store: Store) -> None:
    org = org_of(store)
    assessment = completed_assessment(org, org.enroll_agent("a"))
    with statements(store) as sent:
        badge = org.issue_badge(
            assessment.id, assessment.agent_id, sign=_signed, valid_until=T0 + minutes(10), issued_at=T0
        )
    assert badge.status_index == 0 and badge.current
    assert [s for s in sent if "SAVEPOINT" in s.upper()] == []  # old code: SAVEPOINT and RELEASE


@pytest.mark.parametrize("store_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
def test_an_attempt_that_lost_its_bit_is_rolled_back_whole(store: Store) -> None:
    org = org_of(store)
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    first = org.issue_badge(assessment.id, agent.id, sign=_signed, valid_until=T0 + minutes(10), issued_at=T0)
    other = completed_assessment(org, org.enroll_agent("b"))
    slots: list[BadgeSlot] = []

    def sign_after_a_rival(slot: BadgeSlot) -> SignedCredential:
        """The first time, another issue takes this bit (and commits) before the insert."""
        slots.append(slot)
        if len(slots) == 1:
            with store.engine.begin() as rival:
                rival.execute(
                    insert(t.badges).values(
                        id=uuid.uuid4(),
                        assessment_id=other.id,
                        agent_id=other.agent_id,
                        organization_id=org.organization_id,
                        status_index=slot.status_index,
                        json_data={},
                        credential_jwt="jwt.rival",
                        issued_at=T0,
                        valid_until=T0,
                        revoked=False,
                    )
                )
        return _signed(slot)

    second = org.issue_badge(
        assessment.id,
        agent.id,
        sign=sign_after_a_rival,
        valid_until=T0 + minutes(20),
        issued_at=T0 + minutes(1),
        supersede_reason="superseded: test",
        credentials=org.badge_credentials(assessment.id),
    )
    assert [slot.status_index for slot in slots] == [1, 2]
    assert second.status_index == 2 and second.current and second.credential_jwt == "jwt.2"
    credentials = org.badge_credentials(assessment.id)
    assert [(b.status_index, b.current, b.revoked) for b in credentials] == [
        (0, False, True),
        (2, True, False),
    ]
    assert credentials[0].id == first.id and credentials[0].revoke_reason == "superseded: test"
