"""Shared fixtures of the stress tests: a loopback OpenAI-compatible endpoint that scripts its
answers (tool calls, then a final text answer)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest


class _Scripted(BaseHTTPRequestHandler):
    """Answers /chat/completions from a script: tool calls, then a final text answer."""

    script: ClassVar[list[dict[str, Any]]] = []
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
        )
        step = type(self).script[min(len(type(self).requests) - 1, len(type(self).script) - 1)]
        if step.get("status"):
            self.send_response(step["status"])
            self.end_headers()
            return
        payload = json.dumps({"choices": [{"message": {"role": "assistant", **step}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def chat_server() -> Iterator[tuple[str, type[_Scripted]]]:
    handler = type("Handler", (_Scripted,), {"script": [], "requests": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    finally:
        server.shutdown()
        server.server_close()
