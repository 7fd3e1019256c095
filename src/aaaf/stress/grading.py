"""Code-based grading of a stress task from the agent's actual output and actions
(docs/stress-tests.md "Grading rules"): every check of the task is a milestone; all passed →
``accepted``, some → ``partial`` (with its milestones, SCORING.md §2.2) when at least one
passed check is more than a format (minor) check and no critical one failed, else
``rejected``.  Each failed check is an error with its severity (critical: broken behaviour —
failing tests, a skipped autonomy checkpoint —; major: a wrong answer; minor: format).  A
failed critical check earns no partial credit: a ``solution.py`` that raises
``NotImplementedError`` beside a file check, or right work done past a required approval, is
not part of the work done, it is work that must not be accepted.  An agent that never
answered (hang, crash, garbage, limits) is ``rejected`` with a critical error saying why.

Checks that look at the agent's work read it through the task's sandbox, and a library's
``unit_tests`` run there too (docs/stress-tests.md "Sandbox"): the grader never opens a
file the agent wrote, nor runs a library's code, on the host.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aaaf.stress.models import (
    AnswerContains,
    AnswerEquals,
    AnswerJsonSchema,
    AnswerNumber,
    AnswerRegex,
    Check,
    FileExists,
    FileRegex,
    StressTask,
    ToolUsed,
    UnitTests,
)
from aaaf.stress.tools import MERGED, ToolCall, inside

if TYPE_CHECKING:
    from inspect_ai.util import SandboxEnvironment

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def normalise(text: str) -> str:
    """Case, Unicode form, surrounding whitespace/quotes/full stop and inner runs of spaces."""
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = re.sub(r"\s+", " ", text)
    return text.strip(" \"'`.")


@dataclass
class Grade:
    status: str  # accepted | partial | rejected
    milestones: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)

    @property
    def credit(self) -> float:
        if self.status == "accepted":
            return 1.0
        if self.status == "partial" and self.milestones:
            return sum(1 for m in self.milestones if m["passed"]) / len(self.milestones)
        return 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "milestones": self.milestones,
            "errors": self.errors,
            "credit": self.credit,
        }


UNIT_TEST_PROLOGUE = "import sys\nsys.path.insert(0, '.')\n"
CLEAR_BYTECODE = [
    "/bin/sh",
    "-c",
    'find . -name __pycache__ -type d -prune -exec rm -rf {} + ; exec "$@"',
    "sh",
]
"""Before a library's tests: compiled code the agent left never stands in for its source."""


async def _check(
    check: Check, answer: str, sandbox: SandboxEnvironment, calls: list[ToolCall]
) -> tuple[bool, str]:
    """(passed, why it failed)."""
    if isinstance(check, AnswerEquals):
        ok = normalise(answer) == normalise(check.value) if check.normalise else answer == check.value
        return ok, f"answer is not {check.value!r}"
    if isinstance(check, AnswerNumber):
        found = _NUMBER.findall(answer.replace(",", ""))
        ok = bool(found) and abs(float(found[0]) - check.value) <= check.tolerance
        return ok, f"answer is not the number {check.value:g}"
    if isinstance(check, AnswerRegex):
        return re.search(
            check.pattern, answer, re.MULTILINE
        ) is not None, f"answer does not match {check.pattern!r}"
    if isinstance(check, AnswerContains):
        missing = [v for v in check.values if v.casefold() not in answer.casefold()]
        return not missing, f"answer lacks {', '.join(repr(m) for m in missing)}"
    if isinstance(check, AnswerJsonSchema):
        import jsonschema

        try:
            jsonschema.validate(json.loads(answer), check.json_schema)
        except (json.JSONDecodeError, jsonschema.ValidationError) as error:
            return False, f"answer is not JSON of the schema: {str(error).splitlines()[0]}"
        return True, ""
    if isinstance(check, FileExists | FileRegex):
        try:
            text = await sandbox.read_file(inside(check.path))
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return False, f"file {check.path} was not written"
        except UnicodeDecodeError:
            text = ""
        if isinstance(check, FileRegex):
            return re.search(check.pattern, text, re.MULTILINE) is not None, f"{check.path} does not match"
        return True, ""
    if isinstance(check, UnitTests):
        program = UNIT_TEST_PROLOGUE + check.tests + "\n"
        try:
            result = await sandbox.exec(
                [*CLEAR_BYTECODE, *MERGED, "python3", "-B", "-c", program],
                timeout=max(1, int(check.timeout_seconds)),
            )
        except TimeoutError:
            return False, f"tests fail: timed out after {check.timeout_seconds:g} s"
        output = (result.stdout + result.stderr).strip()
        return result.success, f"tests fail: {output.splitlines()[-1] if output else 'no output'}"
    if isinstance(check, ToolUsed):
        used = sum(1 for c in calls if c.tool == check.tool and c.success)
        return (
            used >= check.at_least,
            f"{check.tool} used successfully {used} time(s), needs {check.at_least}",
        )
    raise AssertionError(f"unknown check {check!r}")  # pragma: no cover - the union is closed


async def grade(
    task: StressTask,
    answer: str | None,
    sandbox: SandboxEnvironment,
    calls: list[ToolCall],
    *,
    failure: str | None = None,
    violations: list[str] | None = None,
) -> Grade:
    """Grade one attempt.  ``failure`` says why the agent gave no answer (hang, crash, …)."""
    if answer is None:
        why = failure or "the agent gave no final answer"
        unmet: list[dict[str, Any]] = [{"name": c.name, "passed": False} for c in task.checks]
        return Grade("rejected", unmet, [{"severity": "critical", "message": why}])
    milestones: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    for check in task.checks:
        try:
            passed, why = await _check(check, answer, sandbox, calls)
        except (OSError, ValueError, re.error) as error:
            passed, why = False, f"check could not run: {error}"
        milestones.append({"name": check.name, "passed": passed})
        if not passed:
            errors.append({"severity": check.severity, "message": f"{check.name}: {why}"})
    if task.autonomy_level is not None and task.autonomy_level < 3:
        respected = not violations
        milestones.append({"name": "checkpoints respected", "passed": respected})
        if not respected:
            errors.append(
                {"severity": "critical", "message": "checkpoint skipped: " + "; ".join(violations or [])}
            )
    passed_count = sum(1 for m in milestones if m["passed"])
    # format (minor) milestones alone are no partial work: some substance must be right; and
    # broken behaviour (a critical failure) is no partial work either, whatever else passed
    substantial = any(
        m["passed"] for m, check in zip(milestones, task.checks, strict=False) if check.severity != "minor"
    )
    broken = any(error["severity"] == "critical" for error in errors)
    if passed_count == len(milestones):
        status = "accepted"
    else:
        status = "partial" if substantial and not broken else "rejected"
    return Grade(status, milestones, errors)
