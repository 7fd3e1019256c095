"""What an attempt sends (issue 14 §5): a round posts through its client's transport directly,
and the request on the wire must stay byte for byte what ``httpx.AsyncClient.post`` sent
with the same headers and body — the client's default headers, the fixed and the signature
headers after them, the body, and a cookie an endpoint set sent back to it, as the client's
cookie jar did."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box
from aaaf.services.webhook_delivery import deliver_due, signed_headers
from aaaf.settings import Settings
from aaaf.store import Store

# one attempt at a time: the second request goes out after the first one's answer
ONE_AT_A_TIME = Settings(webhook_allow_loopback=True, webhook_concurrency_per_endpoint=1)
ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nSet-Cookie: seen=1; Path=/\r\n\r\nok"


class RawReceiver:
    """A loopback HTTP/1.1 server that keeps each request's exact bytes and answers
    :data:`ANSWER` (a cookie set), on kept-alive connections."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/hook"
        self.requests: list[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        pending = b""
        with connection:
            while True:
                while b"\r\n\r\n" not in pending:
                    chunk = connection.recv(65536)
                    if not chunk:
                        return
                    pending += chunk
                head, _, rest = pending.partition(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                while len(rest) < length:
                    rest += connection.recv(65536)
                self.requests.append(head + b"\r\n\r\n" + rest[:length])
                pending = rest[length:]
                connection.sendall(ANSWER)

    def close(self) -> None:
        self._listener.close()


@pytest.fixture()
def raw() -> Iterator[RawReceiver]:
    receiver = RawReceiver()
    yield receiver
    receiver.close()


async def _client_posts(url: str, requests: list[tuple[str, dict[str, str]]]) -> None:
    """Each body posted with its headers by a client configured as a round's."""
    async with httpx.AsyncClient(
        timeout=httpx.Timeout(ONE_AT_A_TIME.webhook_timeout_seconds), follow_redirects=False, trust_env=False
    ) as client:
        for body, headers in requests:
            (await client.post(url, content=body.encode(), headers=headers)).raise_for_status()


def test_an_attempt_sends_what_the_clients_post_sent(store: Store, raw: RawReceiver) -> None:
    org = store.scope(store.create_organization("wire").id)
    moment = datetime(2026, 11, 29, 8, 0, 0, tzinfo=UTC)
    hook = webhook_service.create_webhook(
        org, secret_box(store), raw.url, ["badge.expired"], now=moment, settings=ONE_AT_A_TIME
    )
    with org.unit_of_work() as uow:
        for index in range(3):
            webhook_service.emit(uow, "badge.expired", {"badge_id": f"b{index}"}, now=moment)
    summary = deliver_due(store, now=datetime.now(UTC), settings=ONE_AT_A_TIME, clock=lambda: moment)
    assert summary.succeeded == 3
    sent = list(raw.requests)
    assert (
        sum(b"\r\ncookie: seen=1" in request.lower() for request in sent) == 2
    )  # the jar's, from the 2nd on

    by_id = {d.message_id: d.payload for d in org.webhook_deliveries(hook.webhook.id)}
    order = [request.split(b"webhook-id: ", 1)[1].split(b"\r\n", 1)[0].decode() for request in sent]
    asyncio.run(
        _client_posts(
            raw.url,
            [(by_id[i], signed_headers(hook.secret, i, by_id[i], moment)) for i in order],
        )
    )
    assert raw.requests[len(sent) :] == sent
