"""`make bench`, the webhook part (issue 14 §7): webhook deliveries/s to a loopback receiver.

One organization with one webhook on a SQLite store (or ``--webhooks-db URL``); ``count``
events are emitted into the outbox in one unit of work (``emit_per_s``), then
:func:`aaaf.services.webhook_delivery.deliver_due` rounds send them all — claim, sign
(Standard Webhooks), POST, record each attempt — to a threaded HTTP/1.1 receiver on
127.0.0.1 (``deliveries_per_s``).  The baseline, measured in the same run against the same
receiver with the same concurrency: plain ``httpx.AsyncClient`` POSTs of the same bodies,
nothing signed or recorded (``baseline_httpx_posts_per_s``).  Each side first sends
:data:`WARM_UP` requests, not timed: a sender's first round costs 45-55 ms of CPU more than a
later one (the statements' first compilation, first calls), 1-3 % of the 2 000 deliveries
timed, once in a sender's life; the plain posts, timed after the deliveries, were warm.  The receiver runs in a process
of its own (this file with ``--serve-receiver``), counting what it received and reporting
the count back over a pipe; the run checks it counted every delivery and every plain post,
so this process's GIL holds only the measured work.  Each also reports this process's CPU
time per request (SQLite's work is in it, PostgreSQL's server is not, the receiver's neither):
on a loaded machine the wall-clock ratio swings with the neighbours' load, the CPU one much
less.  Nothing here asserts on time.
"""

from __future__ import annotations

import asyncio
import base64
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.webhook_receiver import WebhookReceiver  # noqa: E402

from aaaf.services import webhooks as webhook_service  # noqa: E402
from aaaf.services.issuer import secret_box  # noqa: E402
from aaaf.services.webhook_delivery import deliver_due  # noqa: E402
from aaaf.settings import Settings  # noqa: E402
from aaaf.store import open_store  # noqa: E402

WARM_UP = 100


class _ReceiverProcess:
    """The loopback receiver in a subprocess: ``url(path)``, and ``count`` asks it how many
    requests it has received (one line each way over its stdin/stdout)."""

    def __enter__(self) -> _ReceiverProcess:
        self._process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve-receiver"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert self._process.stdin is not None and self._process.stdout is not None
        self._in, self._out = self._process.stdin, self._process.stdout
        self.base_url = self._out.readline().strip()
        if not self.base_url:
            raise RuntimeError("the receiver process did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self._in.close()  # its end of input: it shuts down
        self._process.wait(timeout=10)

    def url(self, path: str) -> str:
        return self.base_url + path

    @property
    def count(self) -> int:
        self._in.write("count\n")
        return int(self._out.readline())


def _serve_receiver() -> None:
    """The receiver process: its base URL on stdout, then its count for each line read."""
    with WebhookReceiver(record=False) as receiver:
        print(receiver.base_url, flush=True)
        for _ in sys.stdin:
            print(receiver.count, flush=True)


async def _plain_posts(url: str, bodies: list[bytes], concurrency: int) -> float:
    limiter = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(
        timeout=10.0, limits=httpx.Limits(max_connections=concurrency * 2), trust_env=False
    ) as client:

        async def one(body: bytes) -> None:
            async with limiter:
                response = await client.post(url, content=body, headers={"content-type": "application/json"})
                response.raise_for_status()

        started = time.perf_counter()
        await asyncio.gather(*(one(body) for body in bodies))
        return time.perf_counter() - started


def run(count: int = 2000, database_url: str | None = None) -> dict[str, Any]:
    """Deliveries/s through the outbox beside plain httpx POSTs/s, same receiver, same run."""
    if database_url:  # a server database seals webhook secrets with AAAF_SECRET_KEY: this run's own
        os.environ.setdefault("AAAF_SECRET_KEY", base64.b64encode(os.urandom(32)).decode())
    settings = Settings(webhook_allow_loopback=True, webhook_timeout_seconds=10.0)
    with tempfile.TemporaryDirectory(prefix="aaaf-bench-webhooks-") as tmp:
        url = database_url or f"sqlite:///{Path(tmp) / 'aaaf.db'}"
        with _ReceiverProcess() as receiver, open_store(url) as store:
            org = store.scope(store.create_organization(f"bench-webhooks-{time.time_ns()}").id)
            target = receiver.url("/bench")
            webhook_service.create_webhook(
                org,
                secret_box(store, settings),
                target,
                ["badge.expired"],
                now=datetime.now(UTC),
                settings=settings,
            )
            now = datetime.now(UTC)
            with org.unit_of_work() as uow:  # the warm-up's: any WARM_UP of the due go first
                for index in range(count, count + WARM_UP):
                    webhook_service.emit(uow, "badge.expired", {"badge_id": f"badge-{index}"}, now=now)
            started = time.perf_counter()
            with org.unit_of_work() as uow:
                for index in range(count):
                    webhook_service.emit(uow, "badge.expired", {"badge_id": f"badge-{index}"}, now=now)
            emit_s = time.perf_counter() - started
            deliver_due(store, now=datetime.now(UTC), limit=WARM_UP, settings=settings)
            if receiver.count != WARM_UP:
                raise RuntimeError(f"the receiver counted {receiver.count} of {WARM_UP} warm-up deliveries")

            started, cpu_started = time.perf_counter(), time.process_time()
            rounds = retried = 0
            later = False  # a failed attempt is retried after its backoff: then send those too
            while receiver.count < WARM_UP + count:
                when = datetime.now(UTC) + (timedelta(days=1) if later else timedelta(0))
                summary = deliver_due(store, now=when, settings=settings)
                rounds += 1
                retried += summary.retrying
                if summary.claimed == 0 and receiver.count < WARM_UP + count:
                    if later:
                        raise RuntimeError(f"only {receiver.count - WARM_UP} of {count} deliveries were sent")
                    later = True
            deliver_s, deliver_cpu_s = time.perf_counter() - started, time.process_time() - cpu_started

            bodies = [
                webhook_service.payload_json("badge.expired", {"badge_id": f"badge-{i}"}, now=now).encode()
                for i in range(count)
            ]
            # one receiver is one endpoint: the plain posts get the sender's bound on it
            per_endpoint = min(settings.webhook_concurrency, settings.webhook_concurrency_per_endpoint)
            delivered = receiver.count - WARM_UP
            asyncio.run(_plain_posts(target, bodies[:WARM_UP], per_endpoint))
            before = receiver.count
            cpu_started = time.process_time()
            baseline_s = asyncio.run(_plain_posts(target, bodies, per_endpoint))
            baseline_cpu_s = time.process_time() - cpu_started
            posted = receiver.count - before
            if posted != count:
                raise RuntimeError(f"the receiver counted {posted} of {count} plain posts")
            dialect = store.engine.dialect.name
    return {
        "database": dialect,
        "deliveries": count,
        "concurrency": settings.webhook_concurrency,
        "concurrency_per_endpoint": settings.webhook_concurrency_per_endpoint,
        "batch_size": settings.webhook_batch_size,
        "received_deliveries": delivered,
        "rounds": rounds,
        "attempts_retried": retried,
        "emit_per_s": round(count / emit_s, 1),
        "deliveries_per_s": round(count / deliver_s, 1),
        "baseline_httpx_posts_per_s": round(count / baseline_s, 1),
        "deliveries_vs_baseline": round(baseline_s / deliver_s, 3),
        "cpu_ms_per_delivery": round(deliver_cpu_s * 1000 / count, 3),
        "baseline_cpu_ms_per_post": round(baseline_cpu_s * 1000 / count, 3),
        "cpu_vs_baseline": round(baseline_cpu_s / deliver_cpu_s, 3),
    }


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve-receiver"]:
        _serve_receiver()
    else:
        import json

        print(json.dumps(run(), indent=2))
