"""The one-task stress library entry the tests build on (the format of docs/stress-tests.md):
a code-graded domain probe whose answer is 4."""

from __future__ import annotations

from typing import Any


def probe_task(task_id: str = "probe-1", **changes: Any) -> dict[str, Any]:
    """A ``domain_probe`` task in ``legal`` at complexity 1 that asks for 4 and checks the number;
    ``changes`` replace fields."""
    task: dict[str, Any] = {
        "id": task_id,
        "task_type": "domain_probe",
        "dimensions": ["domain_breadth"],
        "domain": "legal",
        "complexity_level": 1,
        "prompt": "Answer 4.",
        "time_baseline_seconds": 5,
        "checks": [{"kind": "answer_number", "name": "four", "value": 4}],
        "reference": {"answer": "4"},
    }
    task.update(changes)
    return task
