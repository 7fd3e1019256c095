"""A real webhook receiver on loopback for the tests and the benchmark (issue 14 §6).

A threaded HTTP/1.1 server in the test process: each path answers the status codes it is
told (in order; the last one repeats) after an optional delay, and every request is
recorded with its headers, body and arrival time.  Signatures are checked by the tests with
``standardwebhooks.Webhook(secret).verify`` (:meth:`Received.verify`).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float  # time.monotonic() on arrival
    client: str = ""  # the sender's address

    def verify(self, secret: str) -> Any:
        """The payload, once its Standard Webhooks signature checks out (raises otherwise)."""
        return Webhook(secret).verify(self.body, self.headers)

    @property
    def payload(self) -> Any:
        return json.loads(self.body)


@dataclass
class _Behaviour:
    statuses: list[int] = field(default_factory=lambda: [200])
    delay: float = 0.0
    served: int = 0


class _Server(ThreadingHTTPServer):
    # the listen backlog: the sender's 16 concurrent connections overflowed the default of 5,
    # and a connection refused under load became a delivery retried minutes later
    request_queue_size = 128


class WebhookReceiver:
    """``with WebhookReceiver() as receiver: receiver.url("/a")``."""

    def __init__(self, *, record: bool = True, host: str = "127.0.0.1") -> None:
        self._lock = threading.Lock()
        self._behaviours: dict[str, _Behaviour] = {}
        self._received: list[Received] = []
        self._record = record
        self.count = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                status, delay = receiver._answer(
                    self.path, dict(self.headers.items()), body, str(self.client_address[0])
                )
                if delay:
                    time.sleep(delay)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = _Server((host, 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _answer(self, path: str, headers: dict[str, str], body: bytes, client: str) -> tuple[int, float]:
        with self._lock:
            self.count += 1
            if self._record:
                self._received.append(
                    Received(path, {k.lower(): v for k, v in headers.items()}, body, time.monotonic(), client)
                )
            behaviour = self._behaviours.setdefault(path, _Behaviour())
            status = behaviour.statuses[min(behaviour.served, len(behaviour.statuses) - 1)]
            behaviour.served += 1
            return status, behaviour.delay

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str, *, statuses: list[int] | None = None, delay: float = 0.0) -> str:
        """The URL of ``path``, which answers ``statuses`` (in order, the last repeating)."""
        with self._lock:
            self._behaviours[path] = _Behaviour(statuses or [200], delay)
        return self.base_url + path

    def received(self, path: str | None = None) -> list[Received]:
        with self._lock:
            return [r for r in self._received if path is None or r.path == path]

    def wait_for(self, path: str, count: int, *, timeout: float = 30.0) -> list[Received]:
        """The requests to ``path`` once there are ``count`` of them (a deadline, no fixed sleep)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.received(path)
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{path}: {len(found)} of {count} requests after {timeout} s")
            time.sleep(0.02)
