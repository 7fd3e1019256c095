"""Shared fixtures of the stress tests: a loopback OpenAI-compatible endpoint that scripts its
answers (tool calls, then a final text answer), and a task's tools in a real sandbox."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, TypeVar

import pytest

from aaaf.stress.adapters import Episode, run_episode
from aaaf.stress.grading import Grade, grade
from aaaf.stress.library import Library, load_library
from aaaf.stress.sandbox import BUBBLEWRAP, choose_sandbox_by_name, open_sandbox
from aaaf.stress.tools import ToolEnvironment

T = TypeVar("T")


class _Scripted(BaseHTTPRequestHandler):
    """Answers /chat/completions from a script: tool calls, then a final text answer; a step
    with a ``status`` (and ``headers``) answers that HTTP status instead."""

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
            for name, value in step.get("headers", {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
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


def in_sandbox(
    task_id: str,
    body: Callable[[ToolEnvironment], Awaitable[T]],
    *,
    provider: str = BUBBLEWRAP,
    library: Library | None = None,
) -> T:
    """``body(env)`` for the task's tools in a sandbox of ``provider`` (set up, then cleaned
    up), in one event loop — the sandbox's processes belong to the loop that made them."""
    lib = library or load_library()

    async def main() -> T:
        async with open_sandbox(choose_sandbox_by_name(provider)) as box:
            environment = ToolEnvironment(lib.get(task_id).task, lib, box)
            await environment.setup()
            return await body(environment)

    return asyncio.run(main())


def play(
    agent: Any, task_id: str, *, library: Library | None = None, **limits: float
) -> tuple[Episode, ToolEnvironment, Grade]:
    """One episode of ``agent`` on the task, its tools in a bubblewrap sandbox, and its grade."""

    async def body(environment: ToolEnvironment) -> tuple[Episode, ToolEnvironment, Grade]:
        episode = await run_episode(agent, environment, **limits)
        graded = await grade(
            environment.task,
            episode.answer,
            environment.sandbox,
            environment.calls,
            failure=episode.failure,
            violations=environment.violations,
        )
        return episode, environment, graded

    return in_sandbox(task_id, body, library=library)
