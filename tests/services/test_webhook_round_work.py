"""What a webhook delivery round does once rather than once per delivery (issue 34): the
outcomes written in a few transactions, each webhook's secret opened once, each host looked
up and checked once (and every request still sent to a checked address), the pool's liveness
check asking the socket rather than anyio's attributes (a ``getpeername`` each), the claim in
the calling thread; and what must not change with it: an outcome is not held until the round
ends, and a connection the server closed is not reused."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from anyio._backends._asyncio import SocketStream as AnyioSocketStream

from aaaf.errors import AAAFError
from aaaf.services import pinned_transport, webhook_delivery
from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box
from aaaf.services.outbound_url import IPAddress
from aaaf.services.pinned_transport import PinnedTransport
from aaaf.services.webhook_delivery import deliver_due
from aaaf.settings import Settings
from aaaf.store import OrgStore, Store
from aaaf.store import webhook_outbox as outbox
from tests.webhook_receiver import WebhookReceiver

LOOPBACK = Settings(webhook_allow_loopback=True, webhook_timeout_seconds=5.0)


@pytest.fixture()
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return store.scope(store.create_organization("rounds").id)


def subscribe(store: Store, org: OrgStore, url: str) -> webhook_service.CreatedWebhook:
    return webhook_service.create_webhook(
        org, secret_box(store), url, ["badge.expired"], now=datetime.now(UTC), settings=LOOPBACK
    )


def emit(org: OrgStore, count: int) -> None:
    with org.unit_of_work() as uow:
        for index in range(count):
            webhook_service.emit(uow, "badge.expired", {"badge_id": f"b{index}"}, now=datetime.now(UTC))


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[Any]:
    """Replace ``module.name`` by a wrapper that lists the first argument of each call."""
    calls: list[Any] = []
    real = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_a_rounds_outcomes_are_written_in_few_transactions(
    store: Store, org: OrgStore, receiver: WebhookReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """100 deliveries: a batch is written at 64 waiting outcomes and at the round's end (the
    time bound set out of reach here), not one write per few outcomes as they finish."""
    monkeypatch.setattr(webhook_delivery, "RECORD_WAIT_SECONDS", 600.0, raising=False)
    sizes: list[int] = []
    real = outbox.record_attempts

    def record(engine: Any, records: Any) -> list[bool]:
        sizes.append(len(records))
        return real(engine, records)

    monkeypatch.setattr(webhook_delivery, "record_attempts", record)
    hook = subscribe(store, org, receiver.url("/many"))
    emit(org, 100)
    summary = deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK)
    assert (summary.claimed, summary.succeeded) == (100, 100)
    assert sum(sizes) == 100 and len(sizes) <= 2 and sizes[0] >= 64, sizes
    assert all(d.status == "succeeded" for d in org.webhook_deliveries(hook.webhook.id))


def test_an_outcome_is_written_before_a_slow_attempt_ends_the_round(
    store: Store, org: OrgStore, receiver: WebhookReceiver
) -> None:
    """The fast delivery's outcome is in the log while the slow one is still being answered:
    batching waits at most ``RECORD_WAIT_SECONDS`` for more outcomes."""
    slow = subscribe(store, org, receiver.url("/slow", delay=4.0))
    fast = subscribe(store, org, receiver.url("/fast"))
    emit(org, 1)
    done: list[webhook_delivery.DeliverySummary] = []
    sender = threading.Thread(
        target=lambda: done.append(deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK))
    )
    sender.start()
    try:
        deadline = time.monotonic() + 3.5
        while org.webhook_deliveries(fast.webhook.id)[0].status != "succeeded":
            assert time.monotonic() < deadline, "the fast outcome waited for the slow attempt"
            time.sleep(0.05)
        assert not done, "the round ended before the slow attempt was answered"
        [held] = org.webhook_deliveries(slow.webhook.id)
        assert held.status == "pending" and held.attempts[-1].get("interrupted")
    finally:
        sender.join(30)
    assert done and done[0].succeeded == 2


def test_a_webhooks_secret_is_opened_once_a_round(
    store: Store, org: OrgStore, receiver: WebhookReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = counting(monkeypatch, webhook_delivery, "open_secret")
    hook = subscribe(store, org, receiver.url("/signed"))
    emit(org, 20)
    assert deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK).succeeded == 20
    assert len(opened) == 1
    for request in receiver.received("/signed"):
        request.verify(hook.secret)


def test_a_host_is_looked_up_once_a_round(
    store: Store, org: OrgStore, receiver: WebhookReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 deliveries to one host name: one lookup, every request to the address it checked."""
    lookups: list[str] = []
    real = pinned_transport.resolve

    async def resolve(host: str, port: int) -> list[IPAddress]:
        lookups.append(host)
        return await real("127.0.0.1", port)

    monkeypatch.setattr(pinned_transport, "resolve", resolve)
    port = receiver.base_url.rsplit(":", 1)[1]
    subscribe(store, org, f"http://hooks.example.test:{port}/named")
    emit(org, 20)
    assert deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK).succeeded == 20
    assert lookups == ["hooks.example.test"]
    received = receiver.received("/named")
    assert len(received) == 20 and {r.headers["host"] for r in received} == {f"hooks.example.test:{port}"}


def test_a_refused_host_is_not_pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host whose lookup is refused is looked up again on its next request (and refused
    again): only a checked address is kept for the transport's life."""
    lookups: list[str] = []

    async def resolve(host: str, port: int) -> list[IPAddress]:
        lookups.append(host)
        return [ipaddress.ip_address("127.0.0.1")]

    monkeypatch.setattr(pinned_transport, "resolve", resolve)

    async def two_requests() -> list[str]:
        refusals = []
        transport = PinnedTransport(Settings(webhook_allow_loopback=False), pin_per_host=True)
        async with httpx.AsyncClient(transport=transport) as client:
            for _ in range(2):
                with pytest.raises(AAAFError) as caught:
                    await client.post("http://rebinding.example.test/hook", content=b"{}")
                refusals.append(caught.value.message)
        return refusals

    refusals = asyncio.run(two_requests())
    assert lookups == ["rebinding.example.test"] * 2
    assert all("127.0.0.1" in refusal for refusal in refusals)


def test_the_pool_checks_connections_without_anyio_attributes(
    receiver: WebhookReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """httpcore asks each pooled connection "has the server closed it?" before and after every
    request; anyio answers by building all of its socket's attributes (a ``getpeername`` each
    time). Over :class:`PinnedTransport` they are built once per connection."""
    built: list[object] = []
    real = AnyioSocketStream.extra_attributes

    def extra_attributes(self: Any) -> Any:
        built.append(self)
        return real.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(AnyioSocketStream, "extra_attributes", property(extra_attributes))
    url = receiver.url("/pooled")

    async def posts() -> None:
        async with httpx.AsyncClient(transport=PinnedTransport(LOOPBACK)) as client:
            for _ in range(20):
                (await client.post(url, content=b"{}")).raise_for_status()

    asyncio.run(posts())
    assert len(receiver.received("/pooled")) == 20
    assert len(built) <= 2, len(built)


def test_a_connection_the_server_closed_is_not_reused() -> None:
    """A server that answers one request per connection and then closes it: the next request
    goes out on a new connection (the pool saw the old one readable: closed)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted: list[int] = []
    closed = threading.Event()

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            accepted.append(1)
            with connection:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += connection.recv(65536)
                connection.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")  # keep-alive
            closed.set()  # and yet closed once answered

    threading.Thread(target=serve, daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/once"

    async def posts() -> list[int]:
        codes = []
        async with httpx.AsyncClient(transport=PinnedTransport(LOOPBACK)) as client:
            for _ in range(3):
                codes.append((await client.post(url, content=b"{}")).status_code)
                assert await asyncio.to_thread(closed.wait, 30)
                closed.clear()
        return codes

    try:
        assert asyncio.run(posts()) == [200, 200, 200]
    finally:
        listener.close()
    assert len(accepted) == 3


def test_deliver_due_claims_in_the_calling_thread(
    store: Store, org: OrgStore, receiver: WebhookReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No thread hop (nor thread pool started) for the claim: it runs before the round's loop."""
    threads: list[int] = []
    real = outbox.claim_due

    def claim(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(webhook_delivery, "claim_due", claim)
    subscribe(store, org, receiver.url("/here"))
    emit(org, 2)
    assert deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK).succeeded == 2
    assert threads == [threading.get_ident()]
