"""Loopback servers the stress-job tests point a live ``aaaf serve`` at: an OpenAI-compatible
agent endpoint that records what reaches it (and, gated, holds every request until the test
lets it go — a run stays mid-run for as long as the test needs), and a proxy that records every
connection made to it (none should be: the agent client reads no proxy settings)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HOLD_LIMIT_S = 600.0  # a gate never opened still lets the server shut down


@dataclass
class AgentEndpoint:
    url: str
    answer: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)
    """Set by the first request."""
    gate: threading.Event = field(default_factory=threading.Event)
    """Requests wait for it (set at once for an endpoint that is not gated)."""


@contextmanager
def agent_endpoint(*, answer: str = "30", gated: bool = False) -> Iterator[AgentEndpoint]:
    """A chat-completions endpoint answering ``answer`` to every request (no tool call)."""
    endpoint = AgentEndpoint(url="", answer=answer)
    if not gated:
        endpoint.gate.set()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            endpoint.requests.append(
                {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
            )
            endpoint.arrived.set()
            endpoint.gate.wait(HOLD_LIMIT_S)
            message = {"role": "assistant", "content": endpoint.answer}
            payload = json.dumps({"choices": [{"message": message}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a held request whose client was killed: nothing to answer

    server = Server(("127.0.0.1", 0), Handler)
    endpoint.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        endpoint.gate.set()
        server.shutdown()
        server.server_close()


@dataclass
class ProxyListener:
    url: str
    seen: list[bytes] = field(default_factory=list)
    """The first bytes of every connection made to it."""


@contextmanager
def proxy_listener() -> Iterator[ProxyListener]:
    """A loopback port posing as an HTTP(S) proxy: it records what it is sent and closes."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    proxy = ProxyListener(url=f"http://127.0.0.1:{listener.getsockname()[1]}")
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with connection:
                connection.settimeout(2.0)
                try:
                    proxy.seen.append(connection.recv(200) or b"<connected>")
                except OSError:
                    proxy.seen.append(b"<connected>")

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        stop.set()
        thread.join(5)
        listener.close()
