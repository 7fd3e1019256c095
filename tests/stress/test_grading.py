"""Every grader on passing and failing outputs (issue 15 §7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aaaf.stress.grading import grade, normalise
from aaaf.stress.models import StressTask
from aaaf.stress.tools import ToolCall


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
def test_answer_checks(tmp_path: Path, check: dict[str, Any], good: str, bad: str) -> None:
    task = _task([check])
    assert grade(task, good, tmp_path, []).status == "accepted"
    failed = grade(task, bad, tmp_path, [])
    assert failed.status == "rejected"
    assert failed.errors[0]["severity"] == "major"


def test_file_checks_and_unit_tests(tmp_path: Path) -> None:
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
    assert grade(task, "done", tmp_path, []).status == "rejected"  # nothing written
    (tmp_path / "solution.py").write_text("def double(x):\n    return x + x\n")
    graded = grade(task, "done", tmp_path, [])
    assert graded.status == "accepted" and graded.credit == 1.0
    (tmp_path / "solution.py").write_text("def double(x):\n    return x * 3\n")
    partial = grade(task, "done", tmp_path, [])
    assert partial.status == "partial"
    assert partial.credit == pytest.approx(2 / 3)
    assert [e["severity"] for e in partial.errors] == ["critical"]  # failing tests: broken behaviour


def test_unit_tests_that_hang_fail_within_their_time_limit(tmp_path: Path) -> None:
    task = _task([{"kind": "unit_tests", "name": "t", "tests": "while True: pass", "timeout_seconds": 0.5}])
    graded = grade(task, "x", tmp_path, [])
    assert graded.status == "rejected" and "timed out" in graded.errors[0]["message"]


def test_tool_used_is_checked_on_the_actions(tmp_path: Path) -> None:
    task = _task([{"kind": "tool_used", "name": "used bash", "tool": "bash", "at_least": 2}])
    once = [ToolCall("bash", {}, True, ""), ToolCall("bash", {}, False, "")]
    assert grade(task, "x", tmp_path, once).status == "rejected"
    assert grade(task, "x", tmp_path, [*once, ToolCall("bash", {}, True, "")]).status == "accepted"


def test_no_answer_is_rejected_with_a_critical_error_saying_why(tmp_path: Path) -> None:
    task = _task([{"kind": "answer_equals", "name": "c", "value": "x"}])
    graded = grade(task, None, tmp_path, [], failure="hang: no message within 1 s")
    assert graded.status == "rejected"
    assert graded.errors == [{"severity": "critical", "message": "hang: no message within 1 s"}]


def test_a_skipped_checkpoint_is_a_failed_critical_milestone(tmp_path: Path) -> None:
    task = _task(
        [{"kind": "answer_equals", "name": "c", "value": "x"}], task_type="autonomy_ladder", autonomy_level=1
    )
    assert grade(task, "x", tmp_path, [], violations=[]).status == "accepted"
    graded = grade(task, "x", tmp_path, [], violations=["bash without approval at autonomy level 1"])
    assert graded.status == "partial"
    assert graded.errors[0]["severity"] == "critical"


def test_normalise() -> None:
    assert normalise("  The  Answer. ") == "the answer"


def test_format_milestones_alone_are_no_partial_work(tmp_path: Path) -> None:
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
    assert grade(task, "banana", tmp_path, []).status == "rejected"
    assert grade(task, "on Friday then, as agreed by all", tmp_path, []).status == "partial"
    assert grade(task, "Friday", tmp_path, []).status == "accepted"
