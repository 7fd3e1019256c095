"""An agent that fails on purpose, for the gate's tests and `make validity`.

It is the ``oracle`` reference agent (``aaaf.stress.reference_agents``: it replays each
task's reference solution), except:

* with ``--rate P``, on each task with probability P (drawn from the task id and
  ``--seed``, so a run is reproducible) it does the work but gives a wrong final answer
  ("I do not know.") — an agent with random wrong answers;
* on every task of a domain named with ``--domain`` (a broken domain; ``--domain all``:
  every task) it does nothing and answers "I could not finish this one." — as an agent
  whose tools for that domain stopped working would.

It speaks docs/agent-protocol.md like any agent::

    python benchmarks/wrong_answers_agent.py --domain security
    python benchmarks/wrong_answers_agent.py --rate 0.15 --seed 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from typing import Any

from aaaf.stress import reference_agents

WRONG = "I do not know."
GIVE_UP = "I could not finish this one."


class _WrongAnswer(reference_agents.Channel):
    def final(self, answer: str) -> None:
        super().final(WRONG)


def _domain(task_id: str) -> str:
    from aaaf.stress.library import LIBRARY_DIRS_ENV, load_library

    dirs = [d for d in os.environ.get(LIBRARY_DIRS_ENV, "").split(os.pathsep) if d]
    return load_library(dirs).get(task_id).task.domain


def _draw(task_id: str, seed: int) -> float:
    digest = hashlib.sha256(f"{seed}:{task_id}".encode()).hexdigest()
    return int(digest[:12], 16) / float(16**12)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--domain", action="append", default=[], help="answer every task of this domain wrong"
    )
    parser.add_argument(
        "--rate", type=float, default=0.0, help="answer other tasks wrong with this probability"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    line = sys.stdin.readline()
    if not line:
        return 0
    message: dict[str, Any] = json.loads(line)
    task_id = str(message["task_id"])
    if "all" in args.domain or (args.domain and _domain(task_id) in args.domain):
        reference_agents.Channel().final(GIVE_UP)
        return 0
    wrong = _draw(task_id, args.seed) < args.rate
    reference_agents.oracle(_WrongAnswer() if wrong else reference_agents.Channel(), message)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
