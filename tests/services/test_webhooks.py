"""Webhooks at the service level, on SQLite and PostgreSQL (issue 14 §5–6; document 004 §6.3):
the outbox (an event exists iff its unit of work commits), the emission points, signed
delivery to a real loopback receiver, retries with the same ``webhook-id``, 410, timeouts
that never hold up other deliveries, the SSRF check, and the periodic duties with a fixed
clock (each idempotent)."""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from aaaf.errors import AAAFError
from aaaf.evidence.validation import validate_event
from aaaf.scoring.results import iso
from aaaf.services import webhooks as webhook_service
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.services.assess import assess_agent
from aaaf.services.duties import run_periodic_duties
from aaaf.services.issuer import secret_box
from aaaf.services.outbound_url import check_outbound_url
from aaaf.services.webhook_delivery import backoff_delay, deliver_due
from aaaf.settings import Settings
from aaaf.store import OrgStore, Store, tables
from aaaf.store.records import SignedCredential
from aaaf.store.webhook_outbox import (
    INTERRUPTED_ERROR,
    AttemptRecord,
    ClaimedDelivery,
    claim_due,
    record_attempts,
)
from tests.cli.events_factory import NOW, agent_log
from tests.store.factories import PERFORMANCE_ROWS, T0, completed
from tests.webhook_receiver import WebhookReceiver

LOOPBACK = Settings(webhook_allow_loopback=True, webhook_timeout_seconds=5.0)
ALL = list(webhook_service.WEBHOOK_EVENT_TYPES)


@pytest.fixture()
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return store.scope(store.create_organization("hooks").id)


def subscribe(
    store: Store, org: OrgStore, url: str, types: list[str] = ALL, **policy
) -> webhook_service.CreatedWebhook:
    return webhook_service.create_webhook(
        org, secret_box(store), url, types, now=datetime.now(UTC), settings=LOOPBACK, **policy
    )


def deliver_until(store: Store, done, *, settings: Settings = LOOPBACK, timeout: float = 30.0) -> None:
    """Run delivery rounds (the real clock) until ``done()`` (a deadline, no fixed sleep)."""
    deadline = datetime.now(UTC) + timedelta(seconds=timeout)
    while not done():
        assert datetime.now(UTC) < deadline, "deliveries did not finish in time"
        deliver_due(store, now=datetime.now(UTC), settings=settings)


def test_the_secret_is_whsec_of_32_bytes_and_stored_sealed(store: Store, org: OrgStore) -> None:
    created = subscribe(store, org, "https://hooks.example/a")
    assert created.secret.startswith("whsec_")
    assert len(base64.b64decode(created.secret[len("whsec_") :])) == 32
    stored = org.get_webhook(created.webhook.id)
    assert created.secret not in stored.secret_sealed and stored.secret_sealed.startswith("v1.")
    assert webhook_service.open_secret(secret_box(store), stored.secret_sealed) == created.secret
    with pytest.raises(AAAFError) as caught:
        subscribe(store, org, "https://hooks.example/a", ["assessment.completed", "badge.issued"])
    assert caught.value.code == "INVALID_EVENT_TYPE" and caught.value.details["unknown"] == ["badge.issued"]


def test_an_event_is_emitted_iff_its_unit_of_work_commits(store: Store, org: OrgStore) -> None:
    subscribed = subscribe(store, org, "https://hooks.example/all").webhook
    other = subscribe(store, org, "https://hooks.example/appeals", ["appeal.filed"]).webhook
    off = subscribe(store, org, "https://hooks.example/off").webhook
    org.update_webhook(off.id, active=False)
    with pytest.raises(RuntimeError), org.unit_of_work() as uow:
        webhook_service.emit(uow, "badge.expired", {"badge_id": "b"}, now=T0)
        raise RuntimeError("the work fails")
    assert org.webhook_deliveries(subscribed.id) == []
    with org.unit_of_work() as uow:
        webhook_service.emit(uow, "badge.expired", {"badge_id": "b"}, now=T0)
    [delivery] = org.webhook_deliveries(subscribed.id)
    assert delivery.status == "pending" and delivery.next_attempt_at == T0
    assert (
        delivery.payload
        == '{"event":"badge.expired","timestamp":"2026-04-16T12:00:00Z","data":{"badge_id":"b"}}'
    )
    assert org.webhook_deliveries(other.id) == [] and org.webhook_deliveries(off.id) == []
    # a dedupe key makes it once
    assert webhook_service.emit(org, "badge.expiring", {}, now=T0, dedupe_key="k") is not None
    assert webhook_service.emit(org, "badge.expiring", {}, now=T0, dedupe_key="k") is None
    assert len(org.webhook_deliveries(subscribed.id)) == 2


def test_assessment_and_appeal_events_are_signed_and_delivered(
    store: Store, org: OrgStore, receiver: WebhookReceiver
) -> None:
    created = subscribe(store, org, receiver.url("/all"))
    agent = org.enroll_agent("coder")
    org.add_events(
        [
            (agent.id, validate_event(e, now=NOW, default_agent="coder"))
            for e in agent_log(None, 36, prefix="coder")
        ]
    )
    record = assess_agent(org, "coder", now=NOW)
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="scope change",
        counter_evidence=[{"task_id": "coder-000", "claim": "scope change"}],
        now=NOW,
    )
    resolve_appeal(org, str(appeal.id), decision="rejected", notes=None, now=NOW)
    idle = org.enroll_agent("idle")
    with pytest.raises(AAAFError):  # refused for too little evidence: nothing stored, nothing sent
        assess_agent(org, "idle", now=NOW)
    assert org.assessments(idle.id) == []
    deliver_until(store, lambda: len(receiver.received("/all")) >= 4)
    payloads = [request.verify(created.secret) for request in receiver.received("/all")]
    by_event = {(p["event"], p["data"].get("agent_id")): p for p in payloads}
    assert set(by_event) == {
        ("assessment.started", str(agent.id)),
        ("assessment.completed", str(agent.id)),
        ("appeal.filed", str(agent.id)),
        ("appeal.resolved", str(agent.id)),
    }
    done = by_event[("assessment.completed", str(agent.id))]
    assert done["timestamp"] == "2026-04-16T13:45:00Z" or done["timestamp"].endswith("Z")
    assert {"assessment_id", "agent_id", "performance_tier", "capability_tier"} <= set(done["data"])
    assert done["data"]["assessment_id"] == str(record.id)
    assert done["data"]["performance_tier"] == record.performance_tier
    assert by_event[("appeal.resolved", str(agent.id))]["data"]["status"] == "rejected"
    assert all(d.status == "succeeded" for d in org.webhook_deliveries(created.webhook.id))


def test_failures_are_retried_with_the_same_id_then_given_up(
    store: Store, org: OrgStore, receiver: WebhookReceiver
) -> None:
    flaky = subscribe(
        store, org, receiver.url("/flaky", statuses=[500, 503, 200]), retry_backoff_seconds=0.05
    )
    down = subscribe(
        store, org, receiver.url("/down", statuses=[500]), max_retries=1, retry_backoff_seconds=0.05
    )
    webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=datetime.now(UTC))
    deliver_until(
        store,
        lambda: all(
            d.status != "pending" for hook in (flaky, down) for d in org.webhook_deliveries(hook.webhook.id)
        ),
    )
    requests = receiver.received("/flaky")
    assert len(requests) == 3
    assert len({r.headers["webhook-id"] for r in requests}) == 1
    for request in requests:
        request.verify(flaky.secret)
    [delivery] = org.webhook_deliveries(flaky.webhook.id)
    assert delivery.status == "succeeded" and delivery.message_id == requests[0].headers["webhook-id"]
    assert [a["status_code"] for a in delivery.attempts] == [500, 503, 200]
    assert all(a["duration_ms"] >= 0 for a in delivery.attempts)
    [gave_up] = org.webhook_deliveries(down.webhook.id)
    assert gave_up.status == "failed" and gave_up.attempt_count == 2 and len(receiver.received("/down")) == 2
    # redelivery: the same webhook-id, a fresh budget, the old attempts kept
    receiver.url("/down", statuses=[200])
    webhook_service.redeliver(org, str(down.webhook.id), str(gave_up.id), now=datetime.now(UTC))
    deliver_until(store, lambda: org.get_webhook_delivery(down.webhook.id, gave_up.id).status == "succeeded")
    again = receiver.received("/down")
    assert len(again) == 3 and len({r.headers["webhook-id"] for r in again}) == 1
    assert [a["status_code"] for a in org.get_webhook_delivery(down.webhook.id, gave_up.id).attempts] == [
        500,
        500,
        200,
    ]


def test_410_disables_the_endpoint(store: Store, org: OrgStore, receiver: WebhookReceiver) -> None:
    gone = subscribe(store, org, receiver.url("/gone", statuses=[410]), retry_backoff_seconds=0.05)
    webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=datetime.now(UTC))
    summary = deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK)
    assert summary.disabled_webhooks == [str(gone.webhook.id)]
    hook = org.get_webhook(gone.webhook.id)
    assert not hook.active and "410" in (hook.disabled_reason or "")
    [delivery] = org.webhook_deliveries(hook.id)
    assert delivery.status == "failed" and delivery.attempt_count == 1
    webhook_service.emit(org, "badge.expired", {"badge_id": "c"}, now=datetime.now(UTC))
    assert len(org.webhook_deliveries(hook.id)) == 1  # no longer subscribed
    with pytest.raises(AAAFError) as caught:
        webhook_service.redeliver(org, str(hook.id), str(delivery.id), now=datetime.now(UTC))
    assert caught.value.code == "CONFLICT"


def test_a_claim_takes_the_oldest_due_once_and_appends_its_start_record(store: Store, org: OrgStore) -> None:
    """One claim takes at most ``limit`` deliveries, the oldest due first, each with its
    ``interrupted`` entry appended and counted; what it took is not due again until its lease
    runs out, then the next claim appends the next attempt after the entries already there."""
    subscribe(store, org, "http://127.0.0.1:9/hook", types=["badge.expired"])
    at = datetime.now(UTC)
    for index in range(3):
        webhook_service.emit(
            org, "badge.expired", {"badge_id": f"b{index}"}, now=at + timedelta(seconds=index)
        )
    lease, now = timedelta(seconds=60), at + timedelta(seconds=5)
    first = claim_due(store.engine, now=now, limit=2, lease=lease)
    assert sorted(item.delivery.payload for item in first) == sorted(
        webhook_service.payload_json("badge.expired", {"badge_id": f"b{i}"}, now=at + timedelta(seconds=i))
        for i in (0, 1)
    )
    assert all(item.lease_until == now + lease and item.delivery.attempt_count == 1 for item in first)
    assert [list(item.delivery.attempts) for item in first] == [[{
        "attempt": 1, "at": iso(now), "status_code": None, "duration_ms": None,
        "error": INTERRUPTED_ERROR, "interrupted": True,
    }]] * 2  # fmt: skip
    [second] = claim_due(store.engine, now=now, limit=2, lease=lease)
    assert second.delivery.id not in {item.delivery.id for item in first}
    assert claim_due(store.engine, now=now, limit=2, lease=lease) == []
    later = now + lease + timedelta(seconds=1)
    again = claim_due(store.engine, now=later, limit=10, lease=lease)
    assert len(again) == 3
    for item in again:
        assert item.delivery.attempt_count == 2
        assert [(entry["attempt"], entry["at"]) for entry in item.delivery.attempts] == [
            (1, iso(now)),
            (2, iso(later)),
        ]


def test_senders_claiming_at_once_take_each_delivery_once(store: Store, org: OrgStore) -> None:
    """Six senders claim the same 60 due deliveries at the same moment (a barrier): every
    delivery is taken by exactly one of them, with one start record — on PostgreSQL the
    due rows another sender is claiming are skipped, on SQLite the claims take turns."""
    subscribe(store, org, "http://127.0.0.1:9/hook", types=["badge.expired"])
    at = datetime.now(UTC)
    for index in range(60):
        webhook_service.emit(org, "badge.expired", {"badge_id": f"b{index}"}, now=at)
    now, lease = at + timedelta(seconds=1), timedelta(seconds=60)
    barrier = threading.Barrier(6)

    def sender() -> list[str]:
        barrier.wait()
        return [str(item.delivery.id) for item in claim_due(store.engine, now=now, limit=15, lease=lease)]

    with ThreadPoolExecutor(6) as pool:
        taken = [delivery for claimed in pool.map(lambda _: sender(), range(6)) for delivery in claimed]
    assert len(taken) == len(set(taken)) == 60
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(tables.webhook_deliveries.c.attempt_count, tables.webhook_deliveries.c.attempts)
        ).all()
    assert len(rows) == 60
    assert all(count == 1 and len(attempts) == 1 for count, attempts in rows)


def test_each_claim_appends_after_the_attempts_in_order(store: Store, org: OrgStore) -> None:
    """Seven claims of one delivery, each after the last lease ran out: its log lists the
    attempts 1…7 in order, each entry as it was written."""
    subscribe(store, org, "http://127.0.0.1:9/hook", types=["badge.expired"])
    at = datetime.now(UTC)
    webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=at)
    lease = timedelta(seconds=60)
    moments = [at + timedelta(seconds=1) + (lease + timedelta(seconds=1)) * n for n in range(7)]
    for moment in moments:
        [claimed] = claim_due(store.engine, now=moment, limit=5, lease=lease)
    assert [(entry["attempt"], entry["at"]) for entry in claimed.delivery.attempts] == [
        (n + 1, iso(moment)) for n, moment in enumerate(moments)
    ]


def test_outcomes_recorded_together_skip_only_a_lost_lease(store: Store, org: OrgStore) -> None:
    """Three outcomes written in one batch: one whose lease ran out and was claimed again by
    another sender meanwhile is not written (False) while the others are — an answer in place
    of its claim's ``interrupted`` entry, and a 410 that turns its webhook off."""
    kept = subscribe(store, org, "http://127.0.0.1:9/kept", types=["badge.expired"])
    gone = subscribe(store, org, "http://127.0.0.1:9/gone", types=["badge.expiring"])
    at = datetime.now(UTC)
    webhook_service.emit(org, "badge.expired", {"badge_id": "a"}, now=at)
    webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=at)
    webhook_service.emit(org, "badge.expiring", {"badge_id": "c"}, now=at)
    lease = timedelta(seconds=60)
    claimed = claim_due(store.engine, now=at, limit=10, lease=lease)
    assert len(claimed) == 3
    by_hook = sorted(claimed, key=lambda c: (c.delivery.webhook_id != kept.webhook.id, c.delivery.payload))
    answered, lost, refused = by_hook
    assert refused.delivery.webhook_id == gone.webhook.id
    # the lease of ``lost`` (alone) runs out, and another sender claims it
    with store.engine.begin() as connection:
        connection.execute(
            update(tables.webhook_deliveries)
            .where(tables.webhook_deliveries.c.id == lost.delivery.id)
            .values(next_attempt_at=at)
        )
    [again] = claim_due(store.engine, now=at + timedelta(seconds=1), limit=10, lease=lease)
    assert again.delivery.id == lost.delivery.id

    def outcome(item: ClaimedDelivery, code: int, status: str, disable: str | None = None) -> AttemptRecord:
        entry = {"attempt": 1, "at": "x", "status_code": code, "duration_ms": 1.0, "error": None}
        return AttemptRecord(
            item, at=at, attempt=entry, status=status, next_attempt_at=None, disable_reason=disable
        )

    written = record_attempts(
        store.engine,
        [
            outcome(answered, 200, "succeeded"),
            outcome(lost, 200, "succeeded"),
            outcome(refused, 410, "failed", "gone"),
        ],
    )
    assert written == [True, False, True]
    done = org.get_webhook_delivery(kept.webhook.id, answered.delivery.id)
    assert done.status == "succeeded" and done.last_status_code == 200
    assert [a["status_code"] for a in done.attempts] == [200]  # the outcome replaced the claim's entry
    still = org.get_webhook_delivery(kept.webhook.id, lost.delivery.id)
    assert still.status == "pending" and still.attempt_count == 2
    assert [bool(a.get("interrupted")) for a in still.attempts] == [True, True]  # the new owner's
    assert org.get_webhook_delivery(gone.webhook.id, refused.delivery.id).status == "failed"
    hook = org.get_webhook(gone.webhook.id)
    assert not hook.active and hook.disabled_reason == "gone"
    assert org.get_webhook(kept.webhook.id).active


def test_a_slow_endpoint_does_not_hold_up_another(
    store: Store, org: OrgStore, receiver: WebhookReceiver
) -> None:
    settings = Settings(webhook_allow_loopback=True, webhook_timeout_seconds=1.0)
    slow = subscribe(store, org, receiver.url("/slow", delay=3.0))
    fast = subscribe(store, org, receiver.url("/fast"))
    webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=datetime.now(UTC))
    summary = deliver_due(store, now=datetime.now(UTC), settings=settings)
    assert (summary.claimed, summary.succeeded, summary.retrying) == (2, 1, 1)
    [slow_request], [fast_request] = receiver.received("/slow"), receiver.received("/fast")
    # both were sent at once: the fast one did not wait for the slow one's answer
    assert fast_request.at - slow_request.at < 1.0
    [timed_out] = org.webhook_deliveries(slow.webhook.id)
    assert timed_out.status == "pending" and "timed out" in (timed_out.last_error or "")
    assert org.webhook_deliveries(fast.webhook.id)[0].status == "succeeded"


def test_a_stalling_endpoint_holds_only_its_own_slots(
    store: Store, org: OrgStore, receiver: WebhookReceiver
) -> None:
    """Eight deliveries to an endpoint that stalls 2 s, claimed before eight to a fast one, with
    4 sends at once overall and 2 per endpoint: the fast endpoint gets all of its deliveries
    before the stalling one answers the first of its own."""
    settings = Settings(
        webhook_allow_loopback=True,
        webhook_timeout_seconds=10.0,
        webhook_concurrency=4,
        webhook_concurrency_per_endpoint=2,
    )
    with WebhookReceiver() as stalling:
        slow = subscribe(store, org, stalling.url("/stall", delay=2.0), types=["badge.expired"])
        for index in range(8):
            webhook_service.emit(org, "badge.expired", {"badge_id": f"s{index}"}, now=datetime.now(UTC))
        fast = subscribe(store, org, receiver.url("/fast"), types=["badge.expiring"])
        later = datetime.now(UTC) + timedelta(milliseconds=5)
        for index in range(8):
            webhook_service.emit(org, "badge.expiring", {"badge_id": f"f{index}"}, now=later)
        started = time.monotonic()
        summary = deliver_due(store, now=later + timedelta(seconds=1), settings=settings)
        assert summary.succeeded == 16
        fast_arrivals = [r.at - started for r in receiver.received("/fast")]
        slow_arrivals = sorted(r.at - started for r in stalling.received("/stall"))
    assert len(fast_arrivals) == 8 and len(slow_arrivals) == 8
    # the stalling endpoint had two requests at a time: the third came after a first answer
    assert slow_arrivals[2] - slow_arrivals[0] >= 1.5
    assert max(fast_arrivals) < slow_arrivals[0] + 2.0  # all fast ones before the first slow answer
    assert all(d.status == "succeeded" for d in org.webhook_deliveries(fast.webhook.id))
    assert all(d.status == "succeeded" for d in org.webhook_deliveries(slow.webhook.id))


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.1/hook",
        "http://172.16.5.5/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[fe80::1]/hook",
        "http://[fd00::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "ftp://hooks.example/hook",
        "http://user:pw@93.184.216.34/hook",
        "not a url",
    ],
)
def test_internal_targets_are_refused_unless_allowed(url: str) -> None:
    with pytest.raises(AAAFError) as caught:
        check_outbound_url(url, Settings(webhook_allow_loopback=False))
    assert caught.value.code == "INVALID_REQUEST" and caught.value.details["field"] == "url"
    if url.startswith("http://") and "@" not in url:
        assert check_outbound_url(url, Settings(webhook_allow_loopback=True)) == url


def test_a_public_address_is_accepted() -> None:
    assert check_outbound_url("https://93.184.216.34/hook", Settings()) == "https://93.184.216.34/hook"
    assert check_outbound_url("http://[2606:2800:220:1::]/x", Settings()) == "http://[2606:2800:220:1::]/x"


def test_backoff_doubles_with_jitter() -> None:
    import random

    rng = random.Random(7)
    for attempt, full in ((1, 60.0), (2, 120.0), (3, 240.0)):
        delays = [backoff_delay(60.0, attempt, rng) for _ in range(200)]
        assert all(full / 2 <= d <= full for d in delays)
        assert max(delays) - min(delays) > full / 4  # jittered, not fixed


def _badge(org: OrgStore, agent_id, valid_until: datetime):
    assessment = org.create_assessment(
        agent_id, type="full", window_start=T0 - timedelta(days=30), window_end=T0
    )
    org.complete_assessment(
        assessment.id,
        result={"type": "full"},
        dimension_rows=PERFORMANCE_ROWS,
        performance_composite=0.5,
        performance_tier="Competent",
        capability_composite=None,
        capability_tier=None,
        evidence_summary={},
        valid_until=valid_until,
        completed_at=T0,
    )
    return org.issue_badge(
        assessment.id,
        agent_id,
        sign=lambda slot: SignedCredential(json_data={"tier": "Competent"}, credential_jwt="jwt"),
        valid_until=valid_until,
        issued_at=T0,
    )


def test_periodic_duties_are_idempotent_with_a_fixed_clock(store: Store, org: OrgStore) -> None:
    hook = subscribe(store, org, "https://hooks.example/duties").webhook
    agent = org.enroll_agent("holder")
    valid_until = T0 + timedelta(days=90)
    badge = _badge(org, agent.id, valid_until)

    def emitted(at: datetime) -> dict[str, int]:
        return run_periodic_duties(store, now=at).to_dict()["emitted"]

    nothing = {"badge.expiring": 0, "badge.expired": 0, "evidence.threshold_reached": 0}
    assert emitted(valid_until - timedelta(days=15)) == nothing
    assert emitted(valid_until - timedelta(days=14)) == {**nothing, "badge.expiring": 1}
    assert emitted(valid_until - timedelta(days=13)) == nothing  # running again changes nothing
    assert emitted(valid_until) == {**nothing, "badge.expired": 1}
    assert emitted(valid_until + timedelta(days=1)) == nothing
    # SCORING.md §2.4: 50 new completed tasks since the last assessment
    org.add_events(
        [(agent.id, completed(f"t{i}", T0 + timedelta(hours=i + 1), key=f"k{i}")) for i in range(49)]
    )
    at = T0 + timedelta(days=3)
    summary = run_periodic_duties(store, now=at)
    assert summary.evidence_threshold_reached == 0
    org.add_events([(agent.id, completed("t49", T0 + timedelta(hours=50), key="k49"))])
    summary = run_periodic_duties(store, now=at)
    assert summary.evidence_threshold_reached == 1
    assert summary.reassessments_due == [
        {
            "organization_id": str(org.organization_id),
            "agent_id": str(agent.id),
            "reason": "50 new completed tasks since the last assessment (threshold 50)",
        }
    ]
    assert run_periodic_duties(store, now=at).evidence_threshold_reached == 0
    events = sorted(json_event(d.payload) for d in org.webhook_deliveries(hook.id))
    assert events == ["badge.expired", "badge.expiring", "evidence.threshold_reached"]
    expiring = next(d for d in org.webhook_deliveries(hook.id) if d.event_type == "badge.expiring")
    assert f'"badge_id":"{badge.id}"' in expiring.payload


def json_event(payload: str) -> str:
    import json

    return str(json.loads(payload)["event"])
