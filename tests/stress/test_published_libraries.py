"""Custom stress-task libraries on both databases (issue 20 §3): publish (validated on
upload), versions immutable, shared libraries visible to every organization without their
publisher, private ones invisible, code graders refused when shared, install across
organizations, and an installed library's tasks in the organization's stress runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.services.stress import start_stress_run
from aaaf.services.stress_libraries import (
    install_library,
    installed_library_dirs,
    list_libraries,
    publish_library,
)
from aaaf.store import OrgStore, Store
from aaaf.stress.library import load_library, read_library_directory
from aaaf.stress.runner import AgentSpec
from tests.stress_tasks import probe_task


def _task(task_id: str = "mine-1", **changes: Any) -> dict[str, Any]:
    checks = [
        {"kind": "answer_number", "name": "four", "value": 4},
        {"kind": "answer_regex", "name": "digits", "pattern": "^[0-9]+$"},
    ]
    return probe_task(task_id, **{"checks": checks, **changes})


UNIT_TESTS = {"kind": "unit_tests", "name": "adds up", "tests": "assert 1 + 1 == 2"}


def _orgs(store: Store) -> tuple[OrgStore, OrgStore]:
    return (
        store.scope(store.create_organization("alpha").id),
        store.scope(store.create_organization("beta").id),
    )


def _error(call: Any) -> AAAFError:
    with pytest.raises(AAAFError) as raised:
        call()
    return raised.value


def test_publish_list_and_install_across_organizations(
    store: Store, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("AAAF_STRESS_LIBRARY_CACHE", str(tmp_path / "cache"))
    alpha, beta = _orgs(store)
    published = publish_library(
        alpha, name="legal-basics", version="1.0", content={"tasks": [_task()]}, visibility="shared"
    )
    assert (published.task_count, published.task_ids, published.owned) == (1, ["mine-1"], True)
    assert published.graders == ["answer_number", "answer_regex"]
    seen = list_libraries(beta)
    assert [(lib.name, lib.version, lib.owned, lib.installed) for lib in seen] == [
        ("legal-basics", "1.0", False, False)
    ]
    assert (
        "alpha" not in seen[0].model_dump_json()
        and str(alpha.organization_id) not in seen[0].model_dump_json()
    )
    installed = install_library(beta, "legal-basics", "1.0")
    assert installed.installed and install_library(beta, "legal-basics", "1.0").installed  # twice: a no-op
    assert [lib.name for lib in beta.installed_libraries()] == ["legal-basics"]
    assert alpha.installed_libraries() == []
    # the run of beta's agent includes the installed tasks, as --library DIR tasks are included
    (directory,) = installed_library_dirs(beta)
    assert Path(directory).name == "legal-basics@1.0"
    run, library = start_stress_run(beta, "probe-agent", AgentSpec(command="true"))
    assert library.get("mine-1").library == "legal-basics@1.0"
    assert "legal-basics@1.0" in run.library
    _, alphas = start_stress_run(alpha, "probe-agent", AgentSpec(command="true"))
    assert all(loaded.task.id != "mine-1" for loaded in alphas.tasks)


def test_versions_are_immutable_and_new_versions_coexist(store: Store) -> None:
    alpha, beta = _orgs(store)
    publish_library(alpha, name="lib", version="1.0", content={"tasks": [_task()]})
    error = _error(
        lambda: publish_library(alpha, name="lib", version="1.0", content={"tasks": [_task("other-1")]})
    )
    assert error.code == "CONFLICT" and "never changes" in error.message
    publish_library(alpha, name="lib", version="1.1", content={"tasks": [_task(), _task("other-1")]})
    assert [(lib.version, lib.task_count) for lib in list_libraries(alpha)] == [("1.0", 1), ("1.1", 2)]
    # another organization may keep its own private library of the same name
    publish_library(beta, name="lib", version="1.0", content={"tasks": [_task("beta-1")]})
    assert [lib.task_ids for lib in list_libraries(beta)] == [["beta-1"]]
    # but not share a name another organization shares
    publish_library(alpha, name="shared-lib", version="1", content={"tasks": [_task()]}, visibility="shared")
    taken = _error(
        lambda: publish_library(
            beta, name="shared-lib", version="2", content={"tasks": [_task()]}, visibility="shared"
        )
    )
    assert taken.code == "CONFLICT" and taken.details["field"] == "name"


def test_private_libraries_are_invisible_to_other_organizations(store: Store) -> None:
    alpha, beta = _orgs(store)
    publish_library(alpha, name="secret", version="1.0", content={"tasks": [_task()]})
    assert [lib.name for lib in list_libraries(alpha)] == ["secret"]
    assert list_libraries(beta) == []
    error = _error(lambda: install_library(beta, "secret", "1.0"))
    assert error.code == "NOT_FOUND"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"task_type": "nonsense"}, "tasks.0.task_type"),
        ({"checks": []}, "tasks.0.checks"),
        ({"checks": [{"kind": "shell", "name": "x"}]}, "tasks.0.checks.0"),
        ({"dimensions": ["charm"]}, "tasks.0"),
    ],
)
def test_an_invalid_library_is_refused_naming_the_problem(
    store: Store, change: dict[str, Any], field: str
) -> None:
    alpha, _ = _orgs(store)
    error = _error(
        lambda: publish_library(alpha, name="bad", version="1", content={"tasks": [_task(**change)]})
    )
    assert error.code == "INVALID_REQUEST"
    assert error.details["field"].startswith(field) and error.details["task_id"] == "mine-1"
    assert "'mine-1'" in error.message
    assert list_libraries(alpha) == []


def test_identity_and_duplicates_are_checked(store: Store) -> None:
    alpha, _ = _orgs(store)
    for kwargs, field in (
        ({"name": "Bad Name", "version": "1"}, "name"),
        ({"name": "ok", "version": "1 0"}, "version"),
        ({"name": "ok", "version": "1", "visibility": "public"}, "visibility"),
    ):
        error = _error(lambda kwargs=kwargs: publish_library(alpha, content={"tasks": [_task()]}, **kwargs))
        assert error.code == "INVALID_REQUEST" and error.details["field"] == field
    # a task id of the standard library, or one given twice, is refused as a directory's would be
    for tasks in ([_task("probe-code-1")], [_task(), _task()]):
        error = _error(
            lambda tasks=tasks: publish_library(alpha, name="dup", version="1", content={"tasks": tasks})
        )
        assert error.code == "INVALID_REQUEST" and "defined twice" in error.message
    assert (
        _error(lambda: publish_library(alpha, name="empty", version="1", content={"tasks": []})).code
        == "INVALID_REQUEST"
    )


def test_a_shared_library_may_not_run_code(store: Store) -> None:
    alpha, beta = _orgs(store)
    coded = _task("coded-1", checks=[{"kind": "answer_number", "name": "four", "value": 4}, UNIT_TESTS])
    error = _error(
        lambda: publish_library(
            alpha, name="coded", version="1", content={"tasks": [_task(), coded]}, visibility="shared"
        )
    )
    assert error.code == "INVALID_REQUEST"
    assert "'coded-1'" in error.message and "unit_tests" in error.message
    assert error.details["code_graders"] == [
        {"task_id": "coded-1", "grader": "unit_tests", "name": "adds up"}
    ]
    replayed = _task(
        "replayed-1",
        tools=["python"],
        reference={"actions": [{"tool": "python", "arguments": {"code": "print(4)"}}], "answer": "4"},
    )
    error = _error(
        lambda: publish_library(
            alpha, name="coded", version="1", content={"tasks": [replayed]}, visibility="shared"
        )
    )
    assert error.details["code_graders"][0] == {
        "task_id": "replayed-1",
        "grader": "reference.actions[0]",
        "name": "python action",
    }
    assert list_libraries(beta) == []
    # the same library is fine when it stays private: it runs only on its own organization's workers
    private = publish_library(alpha, name="coded", version="1", content={"tasks": [_task(), coded]})
    assert private.visibility == "private" and "unit_tests" in private.graders


def test_a_library_directory_round_trips(store: Store, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("AAAF_STRESS_LIBRARY_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "mine"
    (source / "documents").mkdir(parents=True)
    (source / "a.yaml").write_text("colleagues:\n  - name: lawyer\n    domains: [legal]\ntasks:\n  - id: mine-1\n"
                                    "    task_type: domain_probe\n    dimensions: [domain_breadth]\n    domain: legal\n"
                                    "    complexity_level: 1\n    prompt: Answer 4.\n    time_baseline_seconds: 5\n"
                                    "    checks: [{kind: answer_number, name: four, value: 4}]\n    reference: {answer: '4'}\n",
                                    encoding="utf-8")  # fmt: skip
    (source / "documents" / "memo.txt").write_text("The answer is 4.", encoding="utf-8")
    content, documents = read_library_directory(source)
    alpha, _ = _orgs(store)
    publish_library(alpha, name="mine", version="1", content=content, documents=documents)
    install_library(alpha, "mine", "1")
    (directory,) = installed_library_dirs(alpha)
    loaded = load_library([directory])
    assert loaded.get("mine-1").library == "mine@1"
    assert loaded.documents["memo.txt"] == "The answer is 4." and "lawyer" in loaded.colleagues
