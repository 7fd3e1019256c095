"""Every grader on passing and failing outputs, the agent's work read in a real sandbox
(docs/stress-tests.md "Grading")."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from aaaf.stress.grading import Grade, grade, normalise
from aaaf.stress.models import StressTask
from aaaf.stress.sandbox import BUBBLEWRAP, choose_sandbox_by_name, open_sandbox
from aaaf.stress.tools import ToolCall


def _grade(
    task: StressTask,
    answer: str | None,
    calls: Sequence[ToolCall] = (),
    *,
    files: Mapping[str, str] | None = None,
    **options: Any,
) -> Grade:
    """``task`` graded on ``answer`` with ``files`` in the sandbox's working directory."""

    async def main() -> Grade:
        async with open_sandbox(choose_sandbox_by_name(BUBBLEWRAP)) as box:
            for name, content in (files or {}).items():
                await box.write_file(name, content)
            return await grade(task, answer, box, list(calls), **options)

    return asyncio.run(main())


def _task(checks: list[dict[str, Any]], **extra: Any) -> StressTask:
    return StressTask.model_validate(
        {
            "id": "t",
            "task_type": "domain_probe",
            "dimensions": ["domain_breadth"],
            "domain": "code",
            "complexity_level": 1,
            "prompt": "p",
            "time_baseline_seconds": 5,
            "checks": checks,
            "reference": {"answer": ""},
            "tools": ["bash"],
            **extra,
        }
    )


CASES = [
    ({"kind": "answer_equals", "name": "c", "value": "Lisbon"}, "  lisbon. ", "Porto"),
    ({"kind": "answer_number", "name": "c", "value": 3.14, "tolerance": 0.01}, "about 3.141 units", "3.2"),
    ({"kind": "answer_regex", "name": "c", "pattern": r"^#[0-9a-f]{6}$"}, "#1f6feb", "blue"),
    ({"kind": "answer_contains", "name": "c", "values": ["Priya", "Friday"]}, "priya: friday it is", "Priya"),
    (
        {"kind": "answer_json_schema", "name": "c", "schema": {"type": "object", "required": ["a"]}},
        '{"a": 1}',
        "{not json",
    ),
]


@pytest.mark.parametrize(("check", "good", "bad"), CASES)
def test_answer_checks(check: dict[str, Any], good: str, bad: str) -> None:
    task = _task([check])
    assert _grade(task, good).status == "accepted"
    failed = _grade(task, bad)
    assert failed.status == "rejected"
    assert failed.errors[0]["severity"] == "major"


def test_file_checks_and_unit_tests() -> None:
    task = _task(
        [
            {"kind": "file_exists", "name": "written", "path": "solution.py"},
            {"kind": "file_regex", "name": "defines", "path": "solution.py", "pattern": r"^def double"},
            {
                "kind": "unit_tests",
                "name": "tests",
                "tests": "from solution import double\nassert double(2) == 4",
            },
        ]
    )
    assert _grade(task, "done").status == "rejected"  # nothing written
    graded = _grade(task, "done", files={"solution.py": "def double(x):\n    return x + x\n"})
    assert graded.status == "accepted" and graded.credit == 1.0
    broken = _grade(task, "done", files={"solution.py": "def double(x):\n    return x * 3\n"})
    # failing tests are broken behaviour: no partial credit for the file checks that passed
    assert broken.status == "rejected" and broken.credit == 0.0
    assert [e["severity"] for e in broken.errors] == ["critical"]
    assert [m["passed"] for m in broken.milestones] == [True, True, False]


def test_a_stub_earns_no_partial_credit() -> None:
    """A ``solution.py`` that raises ``NotImplementedError`` is written and answers DONE, and is
    rejected all the same: its tests fail, which no file or format check makes up for."""
    task = _task(
        [
            {"kind": "file_exists", "name": "written", "path": "solution.py"},
            {"kind": "unit_tests", "name": "tests", "tests": "from solution import f\nassert f(1) == 2"},
            {"kind": "answer_equals", "name": "done", "value": "DONE", "severity": "minor"},
        ]
    )
    stub = "def f(x):\n    raise NotImplementedError\n"
    graded = _grade(task, "DONE", files={"solution.py": stub})
    assert graded.status == "rejected" and graded.credit == 0.0
    assert _grade(task, "DONE", files={"solution.py": "def f(x):\n    return 2 * x\n"}).status == "accepted"


def test_unit_tests_that_hang_fail_within_their_time_limit() -> None:
    task = _task([{"kind": "unit_tests", "name": "t", "tests": "while True: pass", "timeout_seconds": 0.5}])
    graded = _grade(task, "x")
    assert graded.status == "rejected" and "timed out" in graded.errors[0]["message"]


def test_tool_used_is_checked_on_the_actions() -> None:
    task = _task([{"kind": "tool_used", "name": "used bash", "tool": "bash", "at_least": 2}])
    once = [ToolCall("bash", {}, True, ""), ToolCall("bash", {}, False, "")]
    assert _grade(task, "x", once).status == "rejected"
    assert _grade(task, "x", [*once, ToolCall("bash", {}, True, "")]).status == "accepted"


def test_no_answer_is_rejected_with_a_critical_error_saying_why() -> None:
    task = _task([{"kind": "answer_equals", "name": "c", "value": "x"}])
    graded = _grade(task, None, failure="hang: no message within 1 s")
    assert graded.status == "rejected"
    assert graded.errors == [{"severity": "critical", "message": "hang: no message within 1 s"}]


def test_a_skipped_checkpoint_is_a_failed_critical_milestone() -> None:
    task = _task(
        [{"kind": "answer_equals", "name": "c", "value": "x"}], task_type="autonomy_ladder", autonomy_level=1
    )
    assert _grade(task, "x", violations=[]).status == "accepted"
    graded = _grade(task, "x", violations=["bash without approval at autonomy level 1"])
    # a skipped checkpoint rejects the task, right answer or not: with three tasks a level,
    # one skip leaves it short of SCORING.md §2.3's three completed tasks — the level is lost
    assert graded.status == "rejected" and graded.credit == 0.0
    assert graded.errors[0]["severity"] == "critical"


def test_normalise() -> None:
    assert normalise("  The  Answer. ") == "the answer"


def test_format_milestones_alone_are_no_partial_work() -> None:
    task = _task(
        [
            {"kind": "answer_contains", "name": "content", "values": ["Friday"]},
            {
                "kind": "answer_regex",
                "name": "short",
                "pattern": r"^\W*(\w+\W+){0,4}\w*\W*$",
                "severity": "minor",
            },
        ]
    )
    assert _grade(task, "banana").status == "rejected"
    assert _grade(task, "on Friday then, as agreed by all").status == "partial"
    assert _grade(task, "Friday").status == "accepted"


def test_compiled_code_the_agent_left_never_stands_in_for_its_source() -> None:
    """A forged ``__pycache__`` entry beside a wrong solution does not make its tests pass."""
    task = _task(
        [
            {
                "kind": "unit_tests",
                "name": "tests",
                "tests": "from solution import double\nassert double(2) == 4",
            }
        ]
    )
    planted = (
        "import importlib.util, pathlib, py_compile\n"
        "pathlib.Path('good.py').write_text('def double(x):\\n    return 2 * x\\n')\n"
        "py_compile.compile('good.py', cfile=importlib.util.cache_from_source('solution.py'),\n"
        "                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)\n"
    )

    async def main() -> Grade:
        async with open_sandbox(choose_sandbox_by_name(BUBBLEWRAP)) as box:
            await box.write_file("solution.py", "def double(x):\n    return 0\n")
            result = await box.exec(["sh", "-c", 'PYTHONPYCACHEPREFIX= python3 -c "$0"', planted])
            assert result.success, result.stderr
            return await grade(task, "done", box, [])

    assert asyncio.run(main()).status == "rejected"


def test_a_library_s_tests_see_nothing_of_the_grader_s_host() -> None:
    """A library's check code runs in the sandbox: no environment, files or network of the host."""
    probe = (
        "import os, socket\n"
        "seen = [k for k in os.environ if k.startswith('AAAF')]\n"
        "seen += [p for p in ('/etc/passwd', '/root', '/home', '/var/lib/postgresql') if os.path.exists(p)]\n"
        "try:\n"
        "    socket.create_connection(('127.0.0.1', 5432), timeout=2); seen.append('postgres')\n"
        "except OSError:\n"
        "    pass\n"
        "print('SEEN', seen)\n"
        "raise SystemExit(1)\n"
    )
    task = _task([{"kind": "unit_tests", "name": "tests", "tests": probe}])
    graded = _grade(task, "x")
    assert graded.errors[0]["message"] == "tests: tests fail: SEEN []"
