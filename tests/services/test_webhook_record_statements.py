"""Recording a batch of attempt outcomes: while every lease holds, one UPDATE writes them all,
with the values the claim returned (the batch's rows are not read first); a lost lease undoes
that write and the rows are read, so only the deliveries still held are written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from aaaf.scoring.results import iso
from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box
from aaaf.settings import Settings
from aaaf.store import OrgStore, Store, tables
from aaaf.store import webhook_outbox as outbox
from tests.sql_statements import statements

LOOPBACK = Settings(webhook_allow_loopback=True)
LEASE = timedelta(seconds=60)


def _claimed(store: Store, count: int) -> tuple[OrgStore, datetime, list[outbox.ClaimedDelivery]]:
    org = store.scope(store.create_organization("recorded").id)
    at = datetime.now(UTC)
    webhook_service.create_webhook(
        org, secret_box(store, LOOPBACK), "http://127.0.0.1:9/r", ["badge.expired"], now=at, settings=LOOPBACK
    )
    for index in range(count):
        webhook_service.emit(org, "badge.expired", {"badge_id": f"b{index}"}, now=at)
    claimed = outbox.claim_due(store.engine, now=at, limit=count, lease=LEASE)
    assert len(claimed) == count
    return org, at, claimed


def _records(claimed: list[outbox.ClaimedDelivery], at: datetime) -> list[outbox.AttemptRecord]:
    """An answer, a retry, and a delivery given back unattempted, in turn."""
    records = []
    for index, item in enumerate(claimed):
        entry = {"attempt": 1, "at": iso(at), "status_code": 503, "duration_ms": 2.5, "error": None}
        if index % 3 == 0:
            records.append(
                outbox.AttemptRecord(
                    item,
                    at=at,
                    attempt={**entry, "status_code": 200},
                    status="succeeded",
                    next_attempt_at=None,
                )
            )
        elif index % 3 == 1:
            records.append(
                outbox.AttemptRecord(
                    item, at=at, attempt=entry, status="pending", next_attempt_at=at + timedelta(seconds=30)
                )
            )
        else:
            records.append(outbox.released(item, at=at, due=at))
    return records


def _written(sent: list[str]) -> list[str]:
    return [s.split(None, 1)[0].upper() for s in sent if s.split(None, 1)[0].upper() in {"SELECT", "UPDATE"}]


def test_a_batch_whose_leases_hold_is_one_update(store: Store) -> None:
    org, at, claimed = _claimed(store, 6)
    hook_id = claimed[0].delivery.webhook_id
    with statements(store) as sent:
        assert outbox.record_attempts(store.engine, _records(claimed, at)) == [True] * 6
    assert _written(sent) == ["UPDATE"], sent  # it was a read of the rows and then the UPDATE
    stored = {d.id: d for d in org.webhook_deliveries(hook_id)}
    for index, item in enumerate(claimed):
        row = stored[item.delivery.id]
        if index % 3 == 2:  # given back: as before its claim, due again
            assert (row.status, row.attempt_count, row.attempts) == ("pending", 0, ())
            assert row.next_attempt_at == at and row.last_attempt_at is None
            continue
        code = 200 if index % 3 == 0 else 503
        assert [dict(a) for a in row.attempts] == [
            {"attempt": 1, "at": iso(at), "status_code": code, "duration_ms": 2.5, "error": None}
        ]
        assert (row.attempt_count, row.last_status_code, row.last_attempt_at) == (1, code, at)
        assert row.status == ("succeeded" if code == 200 else "pending")


def test_a_lost_lease_reads_the_rows_and_writes_only_those_held(store: Store) -> None:
    org, at, claimed = _claimed(store, 3)
    lost = claimed[1]
    with store.engine.begin() as connection:  # its lease ran out, and another sender claimed it
        connection.execute(
            update(tables.webhook_deliveries)
            .where(tables.webhook_deliveries.c.id == lost.delivery.id)
            .values(next_attempt_at=at)
        )
    [again] = outbox.claim_due(store.engine, now=at + timedelta(seconds=1), limit=3, lease=LEASE)
    with statements(store) as sent:
        assert outbox.record_attempts(store.engine, _records(claimed, at)) == [True, False, True]
    assert _written(sent) == ["UPDATE", "SELECT", "UPDATE"], sent  # the first one undone
    stored = {d.id: d for d in org.webhook_deliveries(lost.delivery.webhook_id)}
    assert stored[claimed[0].delivery.id].status == "succeeded"
    assert stored[claimed[2].delivery.id].attempts == ()  # given back
    taken = stored[lost.delivery.id]  # the new owner's, untouched
    assert (taken.attempt_count, taken.next_attempt_at) == (2, again.lease_until)
    assert [bool(a.get("interrupted")) for a in taken.attempts] == [True, True]
