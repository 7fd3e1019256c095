"""Reference agents speaking the subprocess protocol (docs/agent-protocol.md), each built so
that what it truly can do is known (docs/stress-tests.md "The reference agents"):

* ``oracle`` replays the library's reference solution of each task (it reads the library:
  it proves the ceiling is reachable), asks approval where the checkpoints say so, and
  retries a tool call that failed or came back incomplete;
* ``heuristic`` reads only what the task shows it — the prompt, the files through the tools,
  the answers earlier in a learning sequence — and solves with simple rules (:mod:`aaaf.stress.
  heuristic_agent`); it knows no algorithm past complexity 3 (it leaves a stub), keeps a
  sub-agent's incomplete work as it came, and learns codes from the earlier answers a
  sequence shows;
* ``careless`` does the oracle's work with mistakes chosen per task, by rules that fix its true
  levels: it dawdles on a third of its tasks (three times as long as the task's baseline before
  it starts), botches more of a complexity ladder the higher the level, skips checkpoints
  when a task needs more than one approval, gives up on a task left fully to itself, answers
  wrong in three domains, routes some questions badly, keeps incomplete work, and repeats the
  same slip at the same place of every block of five in a learning sequence (it never
  improves);
* ``random`` calls random tools (some that do not exist) with random arguments and answers
  at random; now and then it prints garbage or exits without answering.

Run as ``aaaf reference-agent NAME`` or ``python -m aaaf.stress.reference_agents NAME``;
it imports only the standard library, so starting one per task stays cheap.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from aaaf.stress.heuristic_agent import heuristic

STANDARD = Path(__file__).parent / "library"


def _library_files() -> list[Path]:
    dirs = [
        STANDARD,
        *(Path(p) for p in os.environ.get("AAAF_STRESS_LIBRARY_DIRS", "").split(os.pathsep) if p),
    ]
    return [p for d in dirs for p in sorted(d.glob("*.json")) + sorted(d.glob("*.y*ml"))]


def _tasks() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in _library_files():
        if path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            import yaml

            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found.extend(dict(task) for task in (data or {}).get("tasks", []))
    return found


def _find_task(task_id: str) -> dict[str, Any]:
    for task in _tasks():
        if task["id"] == task_id:
            return task
    raise SystemExit(f"reference agent: no task {task_id!r} in the libraries")


def _sequence_position(task: dict[str, Any]) -> int | None:
    """The task's 1-based position in its learning sequence (its category, in id order)."""
    if not task.get("category"):
        return None
    ids = sorted(t["id"] for t in _tasks() if t.get("category") == task["category"])
    return ids.index(task["id"]) + 1


class Channel:
    """The protocol on stdin/stdout: a call returns its ``tool_result``."""

    def __init__(self) -> None:
        self.count = 0

    def send(self, message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.count += 1
        self.send({"type": "tool_call", "id": f"c{self.count}", "tool": tool, "arguments": arguments})
        line = sys.stdin.readline()
        if not line:
            raise SystemExit(0)
        return dict(json.loads(line))

    def final(self, answer: str) -> None:
        self.send({"type": "final", "answer": answer})


def _approved_call(
    channel: Channel, checkpoints: set[str], tool: str, arguments: dict[str, Any]
) -> dict[str, Any]:
    if tool in checkpoints:
        channel.call("request_approval", {"action": tool})
    return channel.call(tool, arguments)


def _incomplete(result: dict[str, Any]) -> bool:
    return not result.get("ok") or str(result.get("output", "")).startswith("INCOMPLETE")


def _solve(
    channel: Channel,
    actions: list[dict[str, Any]],
    checkpoints: set[str],
    *,
    retry: bool = True,
) -> None:
    for action in actions:
        result = _approved_call(channel, checkpoints, action["tool"], action.get("arguments", {}))
        if retry and _incomplete(result):
            _approved_call(channel, checkpoints, action["tool"], action.get("arguments", {}))


def _submit(channel: Channel, checkpoints: set[str], answer: str) -> None:
    if "submit" in checkpoints:
        channel.call("request_approval", {"action": "submit"})
    channel.final(answer)


def oracle(channel: Channel, message: dict[str, Any]) -> None:
    task = _find_task(message["task_id"])
    checkpoints = set(message.get("checkpoints") or [])
    _solve(channel, task["reference"].get("actions", []), checkpoints)
    _submit(channel, checkpoints, task["reference"].get("answer", ""))


# ---- careless --------------------------------------------------------------------------------
DAWDLE_FACTOR = 3.0
"""Careless's dawdling: this many times the task's time baseline, waited before it starts —
past twice the baseline, where SCORING.md §2.2's speed is 0."""
LADDER_DOMAINS = ("code", "research", "analysis")
WEAK_DOMAINS = ("design", "content", "legal")
"""Careless answers wrong on two of the three probes of these domains."""


def _draw(task_id: str, salt: str = "") -> int:
    """A number in [0, 100) fixed by the task's id: careless's choices are reproducible."""
    return int(hashlib.sha256(f"{salt}{task_id}".encode()).hexdigest(), 16) % 100


def _wrong(answer: str) -> str:
    try:
        number = float(answer)
    except ValueError:
        words = answer.split()
        return " ".join(words[:-1]) if len(words) > 1 else answer + "x"
    return str(int(number) + 1) if number.is_integer() else f"{number * 1.1:.2f}"


def _buggy(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions with every file the agent writes replaced by a version that returns None."""
    out = []
    for action in actions:
        if action["tool"] == "file_write" and str(action["arguments"].get("path", "")).endswith(".py"):
            content = str(action["arguments"].get("content", ""))
            lines = [line for line in content.splitlines() if line.startswith(("def ", "class "))]
            stub = "".join(f"{line}\n    return None\n" for line in lines[:1]) or "pass\n"
            action = {"tool": "file_write", "arguments": {**action["arguments"], "content": stub}}
        out.append(action)
    return out


def _dawdles(task: dict[str, Any], position: int | None) -> bool:
    if position is not None:
        return position % 5 == 0  # the same place in every block of five: no trend
    return _draw(task["id"], "slow") % 3 == 0


def careless(channel: Channel, message: dict[str, Any]) -> None:
    task = _find_task(message["task_id"])
    checkpoints = set(message.get("checkpoints") or [])
    answer = task["reference"].get("answer", "")
    actions = list(task["reference"].get("actions", []))
    kind, level, domain = task["task_type"], int(task["complexity_level"]), task.get("domain")
    position = _sequence_position(task)
    if _dawdles(task, position):
        time.sleep(DAWDLE_FACTOR * float(task["time_baseline_seconds"]))
    if kind == "autonomy_ladder":
        autonomy = int(task["autonomy_level"])
        if autonomy <= 1:  # more than one approval to ask: it forgets them
            _solve(channel, actions, set())
            channel.final(answer)
            return
        if autonomy == 3 and task["id"].startswith("autonomy-summary"):  # alone, it gives up on one
            channel.final("I could not finish this one.")
            return
    elif kind == "complexity_ladder" and domain in LADDER_DOMAINS[: max(0, level - 2)]:
        # the higher the level, the more of the ladder it botches: code from level 3, research
        # from 4, analysis at 5
        _solve(channel, _buggy(actions), checkpoints, retry=False)
        _submit(channel, checkpoints, answer if domain == "code" else _wrong(answer))
        return
    elif kind == "domain_probe" and domain in WEAK_DOMAINS and not task["id"].endswith("-1"):
        _solve(channel, actions, checkpoints)
        _submit(channel, checkpoints, "I am not sure; something like " + _wrong(answer)[:20])
        return
    elif kind == "tool_challenge":
        if "bash" in [t["name"] for t in message["tools"]]:  # a typo'd command first, then recovers
            _approved_call(channel, checkpoints, "bash", {"command": "cta nothing-here.txt"})
        if _draw(task["id"]) % 3 == 0:  # forgets to save its work
            actions = [a for a in actions if a["tool"] != "file_write"]
        _solve(channel, actions, checkpoints)
        if actions:  # and repeats its first call
            _approved_call(channel, checkpoints, actions[0]["tool"], actions[0].get("arguments", {}))
    elif kind == "delegation":
        draw = _draw(task["id"])
        truth = task["delegation"]["ground_truth"]
        if truth == "delegate" and draw % 3 == 0:  # does it itself, and guesses
            channel.final(_wrong(answer))
            return
        if truth == "delegate" and draw % 3 == 1:  # asks the wrong colleague, and takes the reply
            wrong = "atlas" if task["delegation"]["optimal_delegate"] != "atlas" else "lex"
            reply = _approved_call(channel, checkpoints, "delegate", {"agent": wrong, "task": task["prompt"]})
            channel.final(str(reply.get("output", ""))[:200])
            return
        if truth == "self" and draw % 4 == 0:  # hands over what it could do, then does it anyway
            _approved_call(channel, checkpoints, "delegate", {"agent": "quill", "task": task["prompt"]})
    elif kind == "orchestration":  # takes incomplete work as it comes
        for action in actions:
            result = _approved_call(channel, checkpoints, action["tool"], action.get("arguments", {}))
            if not result.get("ok"):
                _approved_call(channel, checkpoints, action["tool"], action.get("arguments", {}))
        _submit(channel, checkpoints, answer.split("\n")[0])
        return
    elif kind == "learning" and position is not None and position % 5 == 3:
        _solve(channel, actions, checkpoints)  # the same slip at the same place of each block
        figure, _, rest = answer.rpartition(" ") if answer.startswith("CC-") else answer.partition(" [")
        slipped = f"{figure} {_wrong(rest)}" if answer.startswith("CC-") else f"{_wrong(figure)} [{rest}"
        _submit(channel, checkpoints, slipped)
        return
    _solve(channel, actions, checkpoints)
    _submit(channel, checkpoints, answer)


# ---- random ----------------------------------------------------------------------------------
WORDS = ("banana", "42", "unknown", "yes", "maybe", "7", "lorem ipsum", "{}", "done")


def random_agent(channel: Channel, message: dict[str, Any]) -> None:
    rng = random.Random(message["task_id"])
    if rng.random() < 0.05:
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
        return
    if rng.random() < 0.05:
        raise SystemExit(3)
    tools = [t["name"] for t in message["tools"]] + ["teleport", "format_disk"]
    for _ in range(rng.randint(0, 4)):
        tool = rng.choice(tools)
        arguments = {
            "command": rng.choice(["ls", "echo hi", "false", "cat nope"]),
            "code": rng.choice(["print(1)", "1/0"]),
            "path": rng.choice(["x.txt", "out.txt", "../etc/passwd"]),
            "content": rng.choice(WORDS),
            "pattern": rng.choice(["a", "[", "z+"]),
            "query": rng.choice(WORDS),
            "agent": rng.choice(["nobody", "lex", "writer"]),
            "task": "do it",
            "action": tool,
        }
        channel.call(tool, {k: v for k, v in arguments.items() if rng.random() < 0.5})
    channel.final(rng.choice(WORDS))


AGENTS = {"oracle": oracle, "heuristic": heuristic, "careless": careless, "random": random_agent}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in AGENTS:
        sys.stderr.write(f"usage: reference_agents {'|'.join(AGENTS)}\n")
        return 2
    line = sys.stdin.readline()
    if not line:
        return 0
    AGENTS[args[0]](Channel(), json.loads(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
