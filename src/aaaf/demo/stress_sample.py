"""The stress tasks of `make demo`: a sample of the library with every kind of task, on which
the four reference agents spread in order on both axes (docs/stress-tests.md "The reference
agents"; tests/stress/test_suite_reference_agents.py asserts the spread on this very sample).

Half the library (62 of 126 tasks): the two ladders whole (levels are credited with three tasks
a level, SCORING.md §2.3), the code domain, one learning sequence in its order, and a few of the
routing, orchestration, probe and tool-chain tasks.  The whole library against each agent is
``make bench`` (benchmarks/bench_stress.py).

``python -m aaaf.demo.stress_sample`` prints the ids, one a line (scripts/stress_demo.sh reads them).
"""

from __future__ import annotations

from aaaf.stress.library import Library, load_library, sequences

LEARNING_SEQUENCE = "expense-filing"
_NAMED = (
    "orchestration-launch", "orchestration-incident",
    "delegation-01", "delegation-05", "delegation-07", "delegation-11", "delegation-12",
    "probe-legal-1", "probe-legal-2", "probe-legal-3", "probe-testing-1", "probe-testing-2", "probe-testing-3",
    "tool-chain-03", "tool-chain-05",
)  # fmt: skip


def sample_task_ids(library: Library | None = None) -> list[str]:
    """The sample's task ids, each once, in the library's order within each group."""
    tasks = (library or load_library()).tasks
    chosen = [
        *(t.task.id for t in tasks if t.task.task_type in ("autonomy_ladder", "complexity_ladder")),
        *(t.task.id for t in tasks if t.task.domain == "code"),
        *(t.task.id for t in sequences(tasks)[LEARNING_SEQUENCE]),
        *_NAMED,
    ]
    return list(dict.fromkeys(chosen))


if __name__ == "__main__":
    print("\n".join(sample_task_ids()))
