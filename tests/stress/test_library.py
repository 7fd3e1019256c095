"""The standard stress-test library (document 004 §5.3) and user libraries (issue 15 §1)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.stress.library import load_library, run_order, sequences
from aaaf.stress.models import TOOLS
from tests.stress_tasks import probe_task

DEFAULT_DOMAINS = {
    "research", "code", "security", "testing", "design", "documentation",
    "communication", "orchestration", "analysis", "content", "infrastructure", "legal",
}  # fmt: skip


def test_the_standard_library_covers_every_task_type_under_the_minimums() -> None:
    library = load_library()
    tasks = [loaded.task for loaded in library.tasks]
    kinds = Counter(t.task_type for t in tasks)
    probes = Counter(t.domain for t in tasks if t.task_type == "domain_probe")
    assert set(probes) == DEFAULT_DOMAINS and min(probes.values()) >= 3
    # a ladder of one task per level in each of three domains: three tasks a level, so that
    # SCORING.md §2.3's "≥ 3 completed tasks at L" credits a level only when all of them are done
    ladder = Counter((t.domain, t.complexity_level) for t in tasks if t.task_type == "complexity_ladder")
    for domain in ("code", "research", "analysis"):
        assert [ladder[(domain, level)] for level in range(1, 6)] == [1, 1, 1, 1, 1]
    assert {t.complexity_level for t in tasks if t.task_type != "complexity_ladder"} <= {1, 2, 3}
    autonomy = Counter(t.autonomy_level for t in tasks if t.task_type == "autonomy_ladder")
    assert autonomy == {0: 3, 1: 3, 2: 3, 3: 3}
    delegation = [t for t in tasks if t.task_type == "delegation"]
    assert len(delegation) == 20
    truths = Counter(t.delegation.ground_truth for t in delegation if t.delegation)
    assert truths["self"] > 0 and truths["delegate"] > 0
    orchestration = [t for t in tasks if t.task_type == "orchestration"]
    assert len(orchestration) == 3
    assert all(t.orchestration and len(t.orchestration.subagents) >= 3 for t in orchestration)
    assert kinds["tool_challenge"] >= 10
    # every offered tool gets >= 10 invocations from the reference solutions (tool_proficiency)
    invocations = Counter(a.tool for t in tasks for a in t.reference.actions)
    assert all(invocations[tool] >= 10 for tool in TOOLS), invocations
    assert library.version.startswith("aaaf-standard@")


def test_a_domain_holds_only_work_of_that_domain() -> None:
    """domain_breadth reads a domain's tasks: routing decisions carry no domain, and the code
    domain is code-writing only (every task there is graded by running the agent's code)."""
    tasks = [loaded.task for loaded in load_library().tasks]
    assert all(t.domain is None for t in tasks if t.task_type == "delegation")
    assert all(t.domain is not None for t in tasks if t.task_type != "delegation")
    code = [t for t in tasks if t.domain == "code"]
    assert code and all(any(c.kind == "unit_tests" for c in t.checks) for t in code)


def test_learning_sequences_are_last_in_their_domain_and_in_their_own_order() -> None:
    """SCORING.md §2.3's learning rate reads a domain's 15 most recently completed tasks: in
    the library's run order each domain with 15 tasks or more ends with its learning sequence,
    in id order, and no other domain reaches 15."""
    library = load_library()
    ordered = run_order(library.tasks)
    found = sequences(library.tasks)
    assert len(found) >= 2 and all(len(members) == 15 for members in found.values())
    by_domain = Counter(loaded.task.domain for loaded in ordered)
    sequence_domains = {members[0].task.domain for members in found.values()}
    assert {d for d, n in by_domain.items() if d is not None and n >= 15} == sequence_domains
    for members in found.values():
        domain = members[0].task.domain
        tail = [loaded for loaded in ordered if loaded.task.domain == domain][-15:]
        assert tail == members
        assert len({m.task.domain for m in members}) == 1
        assert [library.position(m.task.id) for m in members] == sorted(
            library.position(m.task.id) for m in members
        )
    # each task shows the answers accepted before it in its sequence, and only those
    for members in found.values():
        for index, loaded in enumerate(members):
            for earlier in members[:index]:
                assert earlier.task.reference.answer in loaded.task.prompt
            for later in members[index + 1 :]:
                assert f": {later.task.reference.answer}" not in loaded.task.prompt


def _task(task_id: str = "mine-1", **changes: object) -> dict[str, object]:
    return probe_task(task_id, **changes)


def test_an_organizations_own_directory_adds_its_tasks(tmp_path: Path) -> None:
    (tmp_path / "tasks.yaml").write_text("tasks:\n  - " + json.dumps(_task()) + "\n", encoding="utf-8")
    library = load_library([tmp_path])
    assert library.get("mine-1").library == tmp_path.name
    assert len(library.tasks) == len(load_library().tasks) + 1
    assert library.version.count("@") == 2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"complexity_level": 6}, "complexity_level"),
        ({"checks": [{"kind": "answer_shouting", "name": "x"}]}, "checks"),
        ({"dimensions": ["charisma"]}, "tasks.0"),
        ({"task_type": "delegation"}, "tasks.0"),
    ],
)
def test_an_invalid_task_file_is_refused_naming_the_field(
    tmp_path: Path, change: dict[str, object], field: str
) -> None:
    (tmp_path / "bad.json").write_text(json.dumps({"tasks": [_task(**change)]}), encoding="utf-8")
    with pytest.raises(AAAFError) as caught:
        load_library([tmp_path])
    assert caught.value.code == "INVALID_REQUEST"
    assert field in caught.value.details["field"]


def test_a_task_id_defined_twice_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dup.json").write_text(json.dumps({"tasks": [_task("probe-code-1")]}), encoding="utf-8")
    with pytest.raises(AAAFError, match="defined twice"):
        load_library([tmp_path])
