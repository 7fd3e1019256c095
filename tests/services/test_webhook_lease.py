"""A delivery round never starts an attempt its lease cannot cover: once the lease left is
less than the attempt's timeout plus the margin, the round gives the rest back, unattempted
and uncounted, and a later round (its own or another sender's) sends each of them once."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box
from aaaf.services.webhook_delivery import DeliverySummary, deliver_due, lease_seconds
from aaaf.settings import Settings
from aaaf.store import OrgStore, Store, open_store
from aaaf.store import webhook_outbox as outbox
from tests.sql_statements import statements
from tests.webhook_receiver import WebhookReceiver

# attempts may start in the first second after a claim; each takes 0.2 s, one at a time
SHORT_LEASE = Settings(
    webhook_allow_loopback=True,
    webhook_timeout_seconds=1.0,
    webhook_lease_margin_seconds=0.3,
    webhook_concurrency_per_endpoint=1,
)
DELIVERIES = 16  # 3.2 s of attempts one after another: longer than the 2.3 s lease


def _slow_hook(store: Store, receiver: WebhookReceiver) -> tuple[OrgStore, str]:
    org = store.scope(store.create_organization("leased").id)
    hook = webhook_service.create_webhook(
        org,
        secret_box(store),
        receiver.url("/slow", delay=0.2),
        ["badge.expired"],
        now=datetime.now(UTC),
        settings=SHORT_LEASE,
    )
    with org.unit_of_work() as uow:
        for index in range(DELIVERIES):
            webhook_service.emit(uow, "badge.expired", {"badge_id": f"b{index}"}, now=datetime.now(UTC))
    return org, str(hook.webhook.id)


def _each_sent_once(org: OrgStore, hook_id: str, receiver: WebhookReceiver) -> None:
    ids = [r.headers["webhook-id"] for r in receiver.received("/slow")]
    assert len(ids) == DELIVERIES == len(set(ids))
    deliveries = org.webhook_deliveries(hook_id)
    assert len(deliveries) == DELIVERIES
    for delivery in deliveries:  # a give-back left no trace: one attempt, counted once
        assert delivery.status == "succeeded" and delivery.attempt_count == 1
        [attempt] = delivery.attempts
        assert attempt["attempt"] == 1 and attempt["status_code"] == 200


def test_a_round_gives_back_what_its_lease_cannot_cover(store: Store) -> None:
    lease, timeout = lease_seconds(SHORT_LEASE), SHORT_LEASE.webhook_timeout_seconds
    with WebhookReceiver() as receiver:
        org, hook_id = _slow_hook(store, receiver)
        rounds: list[DeliverySummary] = []
        while outbox.pending_count(store.engine) and len(rounds) < 20:
            before = len(receiver.received("/slow"))
            claimed_at = time.monotonic()
            rounds.append(deliver_due(store, now=datetime.now(UTC), settings=SHORT_LEASE))
            arrivals = [r.at - claimed_at for r in receiver.received("/slow")[before:]]
            # every attempt began while its lease could still cover it (the old rounds sent
            # the sixteenth about 3 s after the claim, the lease gone)
            assert all(at < lease - timeout for at in arrivals), arrivals
        _each_sent_once(org, hook_id, receiver)
    first = rounds[0]
    assert first.claimed == DELIVERIES and first.released > 0
    assert first.succeeded + first.released == DELIVERIES and first.lost_leases == 0
    assert sum(r.succeeded for r in rounds) == DELIVERIES
    assert sum(r.claimed for r in rounds) == DELIVERIES + sum(r.released for r in rounds)


def test_a_second_sender_never_sends_what_the_first_holds(store_url: str, store: Store) -> None:
    """Two senders running rounds against the same outbox (the second one every 50 ms): each
    delivery reaches the endpoint once (the old first sender went on sending after its lease
    ran out, while the second had claimed the same deliveries again)."""
    with WebhookReceiver() as receiver:
        org, hook_id = _slow_hook(store, receiver)
        done = threading.Event()
        errors: list[BaseException] = []

        def sender(pause: float) -> None:
            try:
                with open_store(store_url) as own:
                    stop_at = time.monotonic() + 60
                    while not done.is_set() and time.monotonic() < stop_at:
                        deliver_due(own, now=datetime.now(UTC), settings=SHORT_LEASE)
                        if not outbox.pending_count(own.engine):
                            done.set()
                        time.sleep(pause)
            except BaseException as error:  # reported by the test below
                errors.append(error)
                done.set()

        senders = [threading.Thread(target=sender, args=(p,)) for p in (0.5, 0.05)]
        for thread in senders:
            thread.start()
        for thread in senders:
            thread.join(90)
        assert not errors, errors
        _each_sent_once(org, hook_id, receiver)


def test_a_release_after_the_lease_was_lost_writes_nothing(store: Store) -> None:
    with WebhookReceiver() as receiver:
        org, hook_id = _slow_hook(store, receiver)
    at = datetime.now(UTC)
    lease = timedelta(seconds=5)
    [first, *_] = outbox.claim_due(store.engine, now=at, limit=DELIVERIES, lease=lease)
    later = at + lease + timedelta(seconds=1)
    [again] = [c for c in outbox.claim_due(store.engine, now=later, limit=DELIVERIES, lease=lease)
               if c.delivery.id == first.delivery.id]  # fmt: skip
    assert outbox.record_attempts(store.engine, [outbox.released(first, at=later, due=at)]) == [False]
    assert outbox.record_attempts(store.engine, [outbox.released(again, at=later, due=at)]) == [True]
    [given_back] = [d for d in org.webhook_deliveries(hook_id) if d.id == first.delivery.id]
    assert given_back.status == "pending" and given_back.attempt_count == 1  # the first claim's
    [interrupted] = given_back.attempts
    assert interrupted["interrupted"] is True and interrupted["attempt"] == 1


def test_a_claim_is_one_statement_returning_what_sending_needs(store: Store) -> None:
    """The claim's UPDATE returns the deliveries with their webhook's and event's columns (it
    was an UPDATE and then a read of the same rows: 2 statements, now 1)."""
    with WebhookReceiver() as receiver:
        org, hook_id = _slow_hook(store, receiver)
    at = datetime.now(UTC)
    with statements(store) as sent:
        claimed = outbox.claim_due(store.engine, now=at, limit=DELIVERIES, lease=timedelta(seconds=5))
    counted = [s for s in sent if s.split(None, 1)[0].upper() not in {"BEGIN", "COMMIT", "ROLLBACK", "SET"}]
    assert len(counted) == 1 and counted[0].upper().startswith("UPDATE"), counted
    stored = {d.id: d for d in org.webhook_deliveries(hook_id)}
    assert [c.delivery.id for c in claimed] == sorted(stored)
    hook = org.get_webhook(hook_id)
    for item in claimed:
        assert item.delivery == stored[item.delivery.id]  # as the claim left it
        assert item.delivery.attempt_count == 1 and item.delivery.attempts[-1]["interrupted"] is True
        assert item.delivery.event_type == "badge.expired" and '"badge_id"' in item.delivery.payload
        assert item.lease_until == at + timedelta(seconds=5)
        assert (item.url, item.secret_sealed) == (hook.url, hook.secret_sealed)
        assert (item.max_retries, item.retry_backoff_seconds) == (
            hook.max_retries,
            hook.retry_backoff_seconds,
        )
