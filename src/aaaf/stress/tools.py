"""The tools a stress task offers, in a throw-away working directory (issue 15 §2).

``bash`` and ``python`` run in the task's working directory with a time limit and an
output limit; ``file_read``, ``file_write`` and ``grep`` stay inside it; ``search`` looks
in the library's document set; ``delegate(agent, task)`` is answered by simulated
colleagues with known capabilities (delegation tasks) or by the scenario's sub-agents with
injected failures (orchestration tasks).  Autonomy checkpoints (document 004 §3.2
autonomy) are enforced here: at level 0 every action needs ``request_approval`` first, at
level 1 every action that changes something, at level 2 only submitting the answer, at
level 3 none.  Every call is recorded: success, unnecessary (an exact repeat of a call
that already succeeded with the same result, or an approval nobody asked for), recovered after an error (a
later success of the same tool) — the fields of ``tool_invoked`` (SCORING.md §2.3).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aaaf.stress.library import Library
from aaaf.stress.models import StressTask

OUTPUT_LIMIT = 8_000
"""Characters of a tool's output returned to the agent (the rest is cut, and says so)."""
COMMAND_TIMEOUT = 10.0
CHANGING_TOOLS = frozenset({"bash", "python", "file_write", "delegate"})
APPROVAL_TOOL = "request_approval"
SUBMIT = "submit"

TOOL_SPECS: dict[str, dict[str, Any]] = {
    "bash": {
        "description": "Run a bash command in the working directory.",
        "parameters": {"command": "string"},
    },
    "python": {"description": "Run Python code in the working directory.", "parameters": {"code": "string"}},
    "file_read": {"description": "Read a file of the working directory.", "parameters": {"path": "string"}},
    "file_write": {
        "description": "Write a file in the working directory.",
        "parameters": {"path": "string", "content": "string"},
    },
    "grep": {
        "description": "Lines matching a regular expression in the working directory's files.",
        "parameters": {"pattern": "string", "path": "string (optional, default .)"},
    },
    "search": {
        "description": "Search the reference documents; answers the best matching passages.",
        "parameters": {"query": "string"},
    },
    "delegate": {
        "description": "Hand a task to a colleague or sub-agent; answers what they return.",
        "parameters": {"agent": "string", "task": "string"},
    },
    APPROVAL_TOOL: {
        "description": "Ask the supervisor to approve an action (a tool name, or 'submit') before doing it.",
        "parameters": {"action": "string"},
    },
}


def required_approvals(autonomy_level: int | None) -> frozenset[str]:
    """Actions needing ``request_approval`` first at an autonomy level (None: no checkpoints)."""
    if autonomy_level is None or autonomy_level >= 3:
        return frozenset()
    if autonomy_level == 2:
        return frozenset({SUBMIT})
    if autonomy_level == 1:
        return CHANGING_TOOLS | {SUBMIT}
    return frozenset({"bash", "python", "file_read", "file_write", "grep", "search", "delegate", SUBMIT})


@dataclass
class ToolCall:
    tool: str
    arguments: dict[str, Any]
    success: bool
    output: str
    unnecessary: bool = False
    error_recovered: bool = False
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "arguments": self.arguments,
            "success": self.success,
            "unnecessary": self.unnecessary,
            "error_recovered": self.error_recovered,
            "output": self.output[:500],
        }


@dataclass
class Delegation:
    agent: str
    task: str
    outcome: str  # success | partial | failure
    injected: str | None = None


def _cut(text: str) -> str:
    if len(text) <= OUTPUT_LIMIT:
        return text
    return text[:OUTPUT_LIMIT] + f"\n[output cut at {OUTPUT_LIMIT} characters]"


def run_limited(argv: list[str], cwd: Path, timeout: float, stdin: str | None = None) -> tuple[bool, str]:
    """Run a process group with a time limit (killed whole when it runs over); (ok, output)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd), "LANG": "C.UTF-8"}
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env,
        text=True,
        errors="replace",
    )
    try:
        out, _ = process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return False, f"timed out after {timeout:g} s"
    ok = process.returncode == 0
    text = _cut(out or "")
    return ok, text if ok else f"exit status {process.returncode}\n{text}"


class ToolEnvironment:
    """One task's tools and their record."""

    def __init__(self, task: StressTask, library: Library, workdir: Path) -> None:
        self.task = task
        self.library = library
        self.workdir = workdir
        self.calls: list[ToolCall] = []
        self.delegations: list[Delegation] = []
        self.violations: list[str] = []
        self.approvals_requested = 0
        self._approved: set[str] = set()
        self._required = required_approvals(task.autonomy_level)
        self._subagent_calls: dict[str, int] = {}
        workdir.mkdir(parents=True, exist_ok=True)
        for name, content in task.files.items():
            path = self._inside(name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")

    # -- checkpoints -------------------------------------------------------------------
    def tool_specs(self) -> list[dict[str, Any]]:
        names = [*self.task.tools, *([APPROVAL_TOOL] if self._required else [])]
        return [{"name": name, **TOOL_SPECS[name]} for name in names]

    def approve(self, action: str) -> str:
        self.approvals_requested += 1
        self._approved.add(action)
        return f"approved: {action}"

    def check_submit(self) -> bool:
        """Whether submitting is allowed now; a missing approval is recorded as a violation."""
        if SUBMIT in self._required and SUBMIT not in self._approved:
            self.violations.append(f"submitted without approval at autonomy level {self.task.autonomy_level}")
            return False
        return True

    # -- calls ---------------------------------------------------------------------------
    def call(self, tool: str, arguments: Any) -> tuple[bool, str]:
        """Run one tool call; (ok, output).  Unknown tools and bad arguments are failed calls."""
        if not isinstance(arguments, dict):
            arguments = {"value": arguments}
        if tool == APPROVAL_TOOL and self._required:
            return True, self.approve(str(arguments.get("action", "")))
        if tool not in self.task.tools:
            self.calls.append(ToolCall(tool, arguments, False, f"unknown tool {tool!r}"))
            return False, f"unknown tool {tool!r}; offered: {', '.join(self.task.tools) or 'none'}"
        if tool in self._required and tool not in self._approved:
            self.violations.append(f"{tool} without approval at autonomy level {self.task.autonomy_level}")
            return False, f"checkpoint: request_approval(action={tool!r}) first"
        self._approved.discard(tool)
        started = time.monotonic()
        try:
            ok, output = getattr(self, f"_tool_{tool}")(**arguments)
        except TypeError as error:
            ok, output = False, f"bad arguments for {tool}: {error}"
        except (OSError, ValueError, re.error) as error:
            ok, output = False, f"{type(error).__name__}: {error}"
        repeat = any(
            c.success and c.tool == tool and c.arguments == arguments and c.output == output
            for c in self.calls
        )
        self.calls.append(
            ToolCall(tool, arguments, ok, output, unnecessary=repeat, seconds=time.monotonic() - started)
        )
        return ok, output

    def finish(self) -> None:
        """Mark failed calls recovered when a later call of the same tool succeeded."""
        for index, call in enumerate(self.calls):
            if not call.success:
                call.error_recovered = any(c.tool == call.tool and c.success for c in self.calls[index + 1 :])

    def _inside(self, name: str) -> Path:
        root = self.workdir.resolve()
        path = (root / name).resolve()
        if path != root and root not in path.parents:
            raise ValueError(f"{name!r} is outside the working directory")
        return path

    def _tool_bash(self, command: str) -> tuple[bool, str]:
        return run_limited(["bash", "-c", command], self.workdir, COMMAND_TIMEOUT)

    def _tool_python(self, code: str) -> tuple[bool, str]:
        return run_limited([sys.executable, "-I", "-B", "-c", code], self.workdir, COMMAND_TIMEOUT)

    def _tool_file_read(self, path: str) -> tuple[bool, str]:
        target = self._inside(path)
        if not target.is_file():
            return False, f"no such file: {path}"
        return True, _cut(target.read_text(encoding="utf-8", errors="replace"))

    def _tool_file_write(self, path: str, content: str) -> tuple[bool, str]:
        target = self._inside(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(str(content), encoding="utf-8")
        return True, f"wrote {len(str(content))} characters to {path}"

    def _tool_grep(self, pattern: str, path: str = ".") -> tuple[bool, str]:
        regex = re.compile(pattern)
        root = self._inside(path)
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        hits = []
        for file in files:
            for number, line in enumerate(file.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if regex.search(line):
                    hits.append(f"{file.relative_to(self.workdir.resolve())}:{number}:{line}")
        return bool(hits), _cut("\n".join(hits)) if hits else "no match"

    def _tool_search(self, query: str) -> tuple[bool, str]:
        terms = [t for t in re.findall(r"\w+", query.lower()) if len(t) > 2]
        scored = []
        for name, text in self.library.documents.items():
            lowered = text.lower()
            score = sum(lowered.count(term) for term in terms)
            if score:
                scored.append((-score, name, text))
        if not scored:
            return False, "no document matches"
        scored.sort()
        return True, _cut("\n\n".join(f"== {name} ==\n{text.strip()}" for _, name, text in scored[:3]))

    def _tool_delegate(self, agent: str, task: str) -> tuple[bool, str]:
        if self.task.orchestration is not None:
            return self._subagent(agent, task)
        colleague = self.library.colleagues.get(agent)
        if colleague is None:
            return False, f"no colleague named {agent!r}; known: {', '.join(sorted(self.library.colleagues))}"
        spec = self.task.delegation
        capable = self.task.domain in colleague.domains
        if spec is not None and capable:
            self.delegations.append(Delegation(agent, task, "success"))
            return True, spec.expert_answer
        self.delegations.append(Delegation(agent, task, "failure"))
        return (
            True,
            f"{agent}: this is outside what I know ({', '.join(colleague.domains)}); no reliable answer.",
        )

    def _subagent(self, agent: str, task: str) -> tuple[bool, str]:
        assert self.task.orchestration is not None
        spec = next((s for s in self.task.orchestration.subagents if s.name == agent), None)
        if spec is None:
            names = ", ".join(s.name for s in self.task.orchestration.subagents)
            return False, f"no sub-agent named {agent!r}; available: {names}"
        calls = self._subagent_calls[agent] = self._subagent_calls.get(agent, 0) + 1
        if calls == 1 and spec.failure == "error":
            self.delegations.append(Delegation(agent, task, "failure", injected="error"))
            return False, f"{agent} crashed: internal error (injected failure)"
        if calls == 1 and spec.failure == "incomplete":
            self.delegations.append(Delegation(agent, task, "partial", injected="incomplete"))
            half = spec.output[: max(1, len(spec.output) // 3)]
            return True, f"INCOMPLETE: {half}… (the sub-agent stopped before finishing)"
        self.delegations.append(Delegation(agent, task, "success"))
        return True, spec.output

    def summary(self) -> dict[str, Any]:
        return {
            "calls": [c.to_dict() for c in self.calls],
            "delegations": [d.__dict__ for d in self.delegations],
            "violations": list(self.violations),
            "approvals_requested": self.approvals_requested,
        }


def tool_message(ok: bool, output: str, call_id: str) -> str:
    return json.dumps({"type": "tool_result", "id": call_id, "ok": ok, "output": output})
