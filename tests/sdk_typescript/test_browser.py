"""The TypeScript SDK in a browser (issue 18 §2: "Node ≥ 20 and browsers"): Chromium loads the
built ``dist/`` as ES modules (an import map names the two dependencies, as a bundler would),
creates an agent, ingests events and flushes, against the live server on SQLite and PostgreSQL.

The page and the API share one origin — a loopback server of this test serves the page and the
SDK's files and forwards every other request to ``aaaf serve`` — since the service sends no
CORS headers (a browser app reaches it from its own origin, or through its back end).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from tests.api.conftest import LiveServer
from tests.sdk_typescript.conftest import SDK, NodeSDK

IMPORT_MAP = {
    "imports": {
        "openapi-fetch": "/sdk/node_modules/openapi-fetch/dist/index.mjs",
        "@noble/hashes/sha2": "/sdk/node_modules/@noble/hashes/esm/sha2.js",
        "@noble/hashes/utils": "/sdk/node_modules/@noble/hashes/esm/utils.js",
        "@noble/hashes/crypto": "/sdk/node_modules/@noble/hashes/esm/crypto.js",
    }
}
PAGE = f"""<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{json.dumps(IMPORT_MAP)}</script></head><body>SDK test</body></html>"""


def _handler(upstream: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(
            self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            answer = httpx.request(
                self.command, upstream + self.path, headers=headers, content=body, timeout=60
            )
            keep = {k: v for k, v in answer.headers.items() if k.lower() in ("retry-after", "location")}
            self._send(
                answer.status_code, answer.content, answer.headers.get("content-type", "text/plain"), keep
            )

        def do_GET(self) -> None:
            if self.path == "/index.html":
                self._send(200, PAGE.encode(), "text/html; charset=utf-8")
                return
            if self.path.startswith("/sdk/"):
                relative = self.path.removeprefix("/sdk/").split("?")[0]
                target = (SDK / relative).resolve()
                allowed = re.fullmatch(
                    r"(dist|node_modules/(openapi-fetch|@noble/hashes))/[\w./@-]+\.m?js", relative
                )
                if allowed and target.is_relative_to(SDK) and target.is_file():
                    self._send(200, target.read_bytes(), "text/javascript; charset=utf-8")
                else:
                    self._send(404, b"not found", "text/plain")
                return
            self._forward()

        do_POST = do_PATCH = do_PUT = do_DELETE = _forward

    return Handler


@pytest.fixture
def same_origin(live: LiveServer) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(live.base_url))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


SCRIPT = """async ({ apiKey }) => {
  const { AAAFClient, AAAFError, contentId } = await import("/sdk/dist/index.js");
  const client = new AAAFClient({ baseUrl: location.origin, apiKey });
  const agent = await client.agents.create({ name: "browser-agent", claimed_domains: ["code"] });
  const at = new Date(Date.now() - 60000);
  const completed = { agent_id: agent.id, type: "task_completed", timestamp: at.toISOString(),
    data: { task_id: "b-1", completion_status: "accepted", time_to_complete_seconds: 3, revision_count: 0, errors: [] } };
  const ids = [
    await client.ingest(completed),
    await client.ingest({ ...completed, id: "b-2", data: { ...completed.data, task_id: "b-2" } }),
    await client.ingest({ ...completed, id: "b-3", type: "task_exploded" }),
  ];
  const summary = await client.close();
  let error = null;
  try { await client.agents.get("00000000-0000-0000-0000-000000000000"); }
  catch (caught) { error = { isAAAF: caught instanceof AAAFError, code: caught.code, status: caught.status }; }
  return {
    agent: agent.id, ids, expected: contentId(completed), hasProcess: typeof process !== "undefined",
    summary: { ...summary, rejected: summary.rejected.map((r) => ({ id: r.event.id, code: r.error.code })) },
    error,
  };
}"""


def test_the_sdk_runs_in_chromium(live: LiveServer, node_sdk: NodeSDK, same_origin: str, page: Any) -> None:
    org = live.organization()
    page.goto(same_origin + "/index.html")
    with node_sdk.locked():  # npm test of another worker may be rebuilding dist/
        result = page.evaluate(SCRIPT, {"apiKey": org.key})
    assert result["hasProcess"] is False  # a browser, not Node
    assert result["summary"] == {
        "accepted": 2,
        "duplicates": 0,
        "rejected": [{"id": "b-3", "code": "INVALID_EVENT_TYPE"}],
        "dropped": 0,
    }, result
    assert result["error"] == {"isAAAF": True, "code": "NOT_FOUND", "status": 404}
    assert result["ids"][0] == result["expected"] and re.fullmatch(r"[0-9a-f]{64}", result["expected"])
    events = org.client.get("/api/v1/events", params={"agent_id": result["agent"]}).json()["items"]
    assert sorted(event["key"] for event in events) == sorted([result["expected"], "b-2"])
