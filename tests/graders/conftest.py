"""An OpenAI-compatible chat-completions server on loopback, with canned replies."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Reply = tuple[int, Any]  # (HTTP status, body: a dict is sent as JSON, a str as is)


def completion(content: str) -> dict[str, Any]:
    """A chat-completions response whose one choice says ``content``."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
    }


@dataclass
class ChatServer:
    base_url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    responder: Callable[[dict[str, Any]], Reply] = lambda body: (
        200,
        completion('{"score": 3, "reason": "ok"}'),
    )
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reply_with(self, *contents: str) -> None:
        """Answer the n-th request with the n-th content (the last one repeats)."""
        replies = list(contents)

        def responder(body: dict[str, Any]) -> Reply:
            with self.lock:
                index = min(len(self.requests) - 1, len(replies) - 1)
            return 200, completion(replies[index])

        self.responder = responder


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    server_state: ChatServer

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            with server_state.lock:
                server_state.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
            status, payload = server_state.responder(body)
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    port = httpd.server_address[1]
    server_state = ChatServer(base_url=f"http://127.0.0.1:{port}/v1")
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield server_state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()
