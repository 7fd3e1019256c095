"""Reference agents speaking the subprocess protocol (issue 15 §6; docs/agent-protocol.md).

* ``oracle`` replays the library's reference solution of each task (it reads the library:
  it proves the ceiling is reachable), asks approval where the checkpoints say so, and
  retries a tool call that failed or came back incomplete;
* ``careless`` does the same work but makes realistic mistakes, chosen per task from its
  id (so a run is reproducible): a wrong final answer, unsaved work, a typo'd command
  it recovers from, a skipped checkpoint, a repeated call, an answer in the wrong format;
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
from pathlib import Path
from typing import Any

STANDARD = Path(__file__).parent / "library"


def _find_task(task_id: str) -> dict[str, Any]:
    dirs = [
        STANDARD,
        *(Path(p) for p in os.environ.get("AAAF_STRESS_LIBRARY_DIRS", "").split(os.pathsep) if p),
    ]
    for directory in dirs:
        for path in sorted(directory.glob("*.json")) + sorted(directory.glob("*.y*ml")):
            if path.suffix == ".json":
                data = json.loads(path.read_text(encoding="utf-8"))
            else:
                import yaml

                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            for task in (data or {}).get("tasks", []):
                if task["id"] == task_id:
                    return dict(task)
    raise SystemExit(f"reference agent: no task {task_id!r} in the libraries")


class Channel:
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


def _solve(channel: Channel, task: dict[str, Any], checkpoints: set[str], *, retry: bool = True) -> None:
    for action in task["reference"].get("actions", []):
        result = _approved_call(channel, checkpoints, action["tool"], action.get("arguments", {}))
        if retry and (not result.get("ok") or str(result.get("output", "")).startswith("INCOMPLETE")):
            _approved_call(channel, checkpoints, action["tool"], action.get("arguments", {}))


def _submit(channel: Channel, checkpoints: set[str], answer: str) -> None:
    if "submit" in checkpoints:
        channel.call("request_approval", {"action": "submit"})
    channel.final(answer)


def oracle(channel: Channel, message: dict[str, Any]) -> None:
    task = _find_task(message["task_id"])
    checkpoints = set(message.get("checkpoints") or [])
    _solve(channel, task, checkpoints)
    _submit(channel, checkpoints, task["reference"].get("answer", ""))


def _wrong(answer: str) -> str:
    try:
        number = float(answer)
    except ValueError:
        words = answer.split()
        return " ".join(words[:-1]) if len(words) > 1 else answer + "x"
    return str(int(number) + 1) if number.is_integer() else f"{number * 1.1:.2f}"


def careless(channel: Channel, message: dict[str, Any]) -> None:
    task = _find_task(message["task_id"])
    checkpoints = set(message.get("checkpoints") or [])
    answer = task["reference"].get("answer", "")
    actions = list(task["reference"].get("actions", []))
    mistake = int(hashlib.sha256(task["id"].encode()).hexdigest(), 16) % 100
    if mistake < 20:  # does it right
        _solve(channel, task, checkpoints)
    elif mistake < 50:  # a wrong answer (an off-by-one, a dropped word), work otherwise done
        _solve(channel, task, checkpoints)
        answer = _wrong(answer)
    elif mistake < 65:  # forgets to save its work (or, with nothing to save, does not finish)
        task["reference"]["actions"] = [a for a in actions if a["tool"] != "file_write"]
        _solve(channel, task, checkpoints, retry=False)
        if len(task["reference"]["actions"]) == len(actions):
            answer = "I could not finish this one."
    elif mistake < 72:  # a typo'd command first, then recovers
        if "bash" in [t["name"] for t in message["tools"]]:
            _approved_call(channel, checkpoints, "bash", {"command": "cta nothing-here.txt"})
        _solve(channel, task, checkpoints)
    elif mistake < 85:  # forgets the checkpoints, gives up on incomplete work, answers vaguely
        _solve(channel, task, set(), retry=False)
        channel.final(_wrong(answer))
        return
    else:  # repeats a call and answers in prose (a format error where the answer is exact)
        _solve(channel, task, checkpoints)
        if actions:
            _approved_call(channel, checkpoints, actions[0]["tool"], actions[0].get("arguments", {}))
        answer = f"I believe the answer is: {answer}"
    _submit(channel, checkpoints, answer)


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


AGENTS = {"oracle": oracle, "careless": careless, "random": random_agent}


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
