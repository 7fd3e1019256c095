"""A loopback HTTP proxy in front of ``aaaf serve`` that misbehaves on cue (issue 18 §4): it
answers a scripted status with ``Retry-After`` without forwarding, forwards and then hides the
answer behind a 5xx (the batch stored, the client told it failed), or drops the connection; then
it passes requests through.  It records when each batch request arrived."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx


@dataclass(frozen=True)
class Action:
    kind: str  # "refuse" | "swallow" | "reset"
    status: int = 503
    retry_after: str | None = None


def refuse(status: int, retry_after: str | None = None) -> Action:
    return Action("refuse", status, retry_after)


def swallow(status: int = 503) -> Action:
    return Action("swallow", status)


RESET = Action("reset")


class MisbehavingProxy:
    def __init__(self, upstream: str, script: list[Action]) -> None:
        self.upstream = httpx.Client(base_url=upstream, timeout=60)
        self.script: deque[Action] = deque(script)
        self.batch_times: list[float] = []
        self.lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _relay(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                action = None
                if self.path.startswith("/api/v1/events/batch"):
                    with proxy.lock:
                        proxy.batch_times.append(time.monotonic())
                        action = proxy.script.popleft() if proxy.script else None
                if action is not None and action.kind == "reset":
                    self.close_connection = True
                    self.connection.close()
                    return
                if action is not None and action.kind == "refuse":
                    self._answer(action.status, _error(action.status), action.retry_after)
                    return
                headers = {
                    k: v for k, v in self.headers.items() if k.lower() in ("authorization", "content-type")
                }
                upstream = proxy.upstream.request(self.command, self.path, content=body, headers=headers)
                if action is not None and action.kind == "swallow":
                    self._answer(action.status, _error(action.status), None)
                    return
                self._answer(upstream.status_code, upstream.content, upstream.headers.get("retry-after"))

            def _answer(self, status: int, content: bytes, retry_after: str | None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(content)))
                if retry_after is not None:
                    self.send_header("Retry-After", retry_after)
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PATCH = do_DELETE = _relay

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.upstream.close()


def _error(status: int) -> bytes:
    code = "RATE_LIMITED" if status == 429 else "SERVICE_UNAVAILABLE"
    return json.dumps({"error": {"code": code, "message": f"proxy says {status}", "details": {}}}).encode()
