"""A loopback OpenAI-compatible model whose brain is the ``heuristic`` reference agent, for
the chat-completions adapter (docs/stress-tests.md "The reference agents"), with a seeded
chaos mode that misbehaves on a share of its turns as real models and providers do.

``POST /v1/chat/completions`` is answered by replaying the conversation through the heuristic
agent (:mod:`aaaf.stress.heuristic_agent`): the task comes from the system and user messages
the adapter sends, the tool results from the ``tool`` messages; the agent's next call is the
reply's tool call, its final answer the reply's text.  It is deterministic, so a replay
always takes the path it took before.

With ``chaos`` = p, each turn misbehaves with probability p (drawn from ``seed`` and the
conversation so far, so a run is reproducible whatever the scheduling), in one of the ways
that apply to the turn:

* ``rate_limit``: HTTP 429 with ``Retry-After: 1``, twice, then the proper answer;
* ``server_error``: HTTP 503 once, then the proper answer;
* ``malformed_arguments``: the turn's tool call with its arguments cut short (not JSON);
* ``unknown_tool``: a call to a tool nobody offered;
* ``wrong_answer``: the final answer, garbled;
* ``empty_reply``: a message with neither text nor a tool call.

The first two are the provider's (the adapter retries them: the task's grade is untouched);
the next two are failed calls the model recovers from (it asks again); the last two are the
model's own failures.  Calls it injects have ids starting ``chaos-`` and are skipped on replay.

Run one: ``python -m aaaf.stress.reference_model [--port N] [--chaos 0.3] [--seed 0]``, then
``aaaf stress-test NAME --agent-url http://127.0.0.1:N/v1 --model heuristic``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aaaf.stress.heuristic_agent import heuristic

CHAOS_ID = "chaos-"
FILES_NOTE = "\n\nFiles in the working directory: "
CHECKPOINTS = re.compile(r"first: (.*?) \('submit' means")
PROVIDER_KINDS = ("rate_limit", "server_error")
CALL_KINDS = ("malformed_arguments", "unknown_tool", "empty_reply")
FINAL_KINDS = ("wrong_answer", "empty_reply")
RATE_LIMITED_TIMES = 2


class _Call(Exception):
    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        self.tool, self.arguments = tool, arguments


class _Final(Exception):
    def __init__(self, answer: str) -> None:
        self.answer = answer


class _Replay:
    """The heuristic agent's channel: the conversation's tool results in order, then the next
    step raised (a call or the final answer)."""

    def __init__(self, results: list[dict[str, Any]]) -> None:
        self.results = results

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if self.results:
            return self.results.pop(0)
        raise _Call(tool, arguments)

    def final(self, answer: str) -> None:
        raise _Final(answer)


def _task_message(body: dict[str, Any]) -> dict[str, Any]:
    """The protocol's task message, as the adapter's system and user messages carry it."""
    messages = body.get("messages") or []
    system = next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")
    user = next((m.get("content") or "" for m in messages if m.get("role") == "user"), "")
    prompt, _, files = user.partition(FILES_NOTE)
    found = CHECKPOINTS.search(system)
    return {
        "prompt": prompt,
        "files": [f for f in files.split(", ") if f],
        "tools": [{"name": t["function"]["name"]} for t in body.get("tools") or []],
        "checkpoints": found.group(1).split(", ") if found else [],
    }


def _results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The results of the agent's own calls so far (the chaos calls left out)."""
    answers = {
        m.get("tool_call_id"): str(m.get("content") or "")
        for m in body.get("messages") or []
        if m.get("role") == "tool"
    }
    out = []
    for message in body.get("messages") or []:
        for call in message.get("tool_calls") or [] if message.get("role") == "assistant" else []:
            if str(call.get("id", "")).startswith(CHAOS_ID) or call.get("id") not in answers:
                continue
            text = answers[call["id"]]
            failed = text.startswith("ERROR: ")
            out.append({"ok": not failed, "output": text[len("ERROR: ") :] if failed else text})
    return out


def next_step(body: dict[str, Any]) -> tuple[str, Any]:
    """("call", (tool, arguments)) or ("final", answer): what the heuristic agent does next."""
    results = _results(body)
    calls = len(results)
    try:
        heuristic(_Replay(results), _task_message(body))
    except _Call as call:
        return "call", (call.tool, call.arguments, calls + 1)
    except _Final as final:
        return "final", final.answer
    return "final", ""


class ReferenceModel:
    """The model's state: its chaos share and seed, the requests seen per conversation (for
    the provider errors that pass on retry), and what it injected."""

    def __init__(self, *, chaos: float = 0.0, seed: int = 0) -> None:
        self.chaos = chaos
        self.seed = seed
        self.attempts: Counter[str] = Counter()
        self.injected: Counter[str] = Counter()
        self.turns = 0
        self.lock = threading.Lock()

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, str], dict[str, Any] | None]:
        """(HTTP status, headers, the chat-completions response or None)."""
        digest = hashlib.sha256(json.dumps(body.get("messages"), sort_keys=True).encode()).hexdigest()
        with self.lock:
            attempt = self.attempts[digest]
            self.attempts[digest] += 1
            if attempt == 0:
                self.turns += 1
        kind, step = None, next_step(body)
        draw = random.Random(f"{self.seed}:{digest}")
        if draw.random() < self.chaos:
            kind = draw.choice(PROVIDER_KINDS + (CALL_KINDS if step[0] == "call" else FINAL_KINDS))
        if kind == "rate_limit" and attempt < RATE_LIMITED_TIMES:
            return self._injected(kind, attempt, 429, {"Retry-After": "1"})
        if kind == "server_error" and attempt < 1:
            return self._injected(kind, attempt, 503, {})
        if kind in PROVIDER_KINDS:
            kind = None  # the retry gets the proper answer
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if kind == "empty_reply":
            pass
        elif step[0] == "call":
            tool, arguments, number = step[1]
            text = json.dumps(arguments)
            call_id, name = f"c{number}", tool
            if kind == "malformed_arguments":
                call_id, text = f"{CHAOS_ID}{number}", text[: max(1, len(text) // 2)]
            elif kind == "unknown_tool":
                call_id, name, text = f"{CHAOS_ID}{number}", "teleport", "{}"
            message["tool_calls"] = [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}
            ]
        else:
            message["content"] = step[1][::-1] if kind == "wrong_answer" else step[1]
        if kind is not None:
            self._injected(kind, attempt, 200, {})
        return 200, {}, {"object": "chat.completion", "choices": [{"index": 0, "message": message}]}

    def _injected(
        self, kind: str, attempt: int, status: int, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], None]:
        if attempt == 0:  # a turn, counted once however often the provider error repeats
            with self.lock:
                self.injected[kind] += 1
        return status, headers, None


def _handler(model: ReferenceModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send_error(404)
                return
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            except (ValueError, json.JSONDecodeError):
                self.send_error(400)
                return
            status, headers, payload = model.answer(body)
            data = json.dumps(payload).encode() if payload is not None else b""
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serve(*, chaos: float = 0.0, seed: int = 0, port: int = 0) -> Iterator[tuple[str, ReferenceModel]]:
    """The model on 127.0.0.1 (``port`` 0: any free one) for the block: (its base URL, its state)."""
    model = ReferenceModel(chaos=chaos, seed=seed)
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(model))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", model
    finally:
        server.shutdown()
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="The heuristic reference agent as an OpenAI-compatible model."
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--chaos", type=float, default=0.0, help="share of turns that misbehave (0-1)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with serve(chaos=args.chaos, seed=args.seed, port=args.port) as (url, _):
        print(
            f"reference model at {url} (chaos {args.chaos:g}, seed {args.seed}); Ctrl-C stops it", flush=True
        )
        with suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
