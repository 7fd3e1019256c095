"""Workflow definition files: validation, derived dag_steps / retry budget, run resolution."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.evidence.workflow_definition import (
    load_definition,
    load_definitions,
    parse_definition,
    resolve_event,
    resolve_run,
)

ETL: dict[str, Any] = {
    "name": "etl",
    "steps": [
        {"id": "extract", "depends_on": [], "error_handling": {"retry_count": 2}, "timeout_seconds": 30},
        {"id": "clean", "depends_on": ["extract"], "error_handling": {"retry_count": 1}},
        {"id": "enrich", "depends_on": ["clean"]},
        {"id": "load", "depends_on": ["enrich", "clean"], "timeout_seconds": 12.5},
    ],
}


def write(folder: Path, name: str, document: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_derived_fields() -> None:
    definition = parse_definition(ETL)
    # 4 steps; Σ retry_count = 2 + 1 + 0 (absent) + 0 (absent) = 3
    assert definition.dag_steps == 4
    assert definition.declared_retry_budget == 3
    assert definition.steps[0].timeout_seconds == 30.0
    assert definition.steps[2].timeout_seconds is None
    assert definition.to_dict()["declared_retry_budget"] == 3


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda d: d.update(name=""), "name"),
        (lambda d: d.update(steps=[]), "non-empty list"),
        (lambda d: d["steps"][1].update(id="extract"), "duplicate step id 'extract'"),
        (lambda d: d["steps"][2].update(depends_on=["nowhere"]), "unknown step 'nowhere'"),
        (lambda d: d["steps"][0].update(error_handling={"retry_count": -1}), "retry_count"),
        (lambda d: d["steps"][0].update(error_handling={"retry_count": 1.5}), "retry_count"),
        (lambda d: d["steps"][0].update(error_handling={"retry_count": True}), "retry_count"),
        (lambda d: d["steps"][0].update(timeout_seconds=0), "timeout_seconds"),
        (lambda d: d["steps"][0].update(depends_on="clean"), "depends_on"),
    ],
)
def test_invalid_definitions_name_the_problem(mutate: Any, fragment: str) -> None:
    document = json.loads(json.dumps(ETL))
    mutate(document)
    with pytest.raises(AAAFError) as caught:
        parse_definition(document, source="etl.json")
    assert caught.value.code == "INVALID_REQUEST"
    assert fragment in caught.value.message
    assert caught.value.message.startswith("etl.json: ")


def test_a_cycle_is_reported_with_its_path() -> None:
    document = json.loads(json.dumps(ETL))
    document["steps"][0]["depends_on"] = ["load"]  # extract → load → enrich → clean → extract
    with pytest.raises(AAAFError) as caught:
        parse_definition(document)
    assert "cycle: extract → load → enrich → clean → extract" in caught.value.message
    assert caught.value.details["cycle"] == ["extract", "load", "enrich", "clean", "extract"]
    self_loop = {"name": "x", "steps": [{"id": "a", "depends_on": ["a"]}]}
    with pytest.raises(AAAFError, match="cycle: a → a"):
        parse_definition(self_loop)


def test_load_directory_and_duplicate_names(tmp_path: Path) -> None:
    write(tmp_path, "etl.json", ETL)
    write(tmp_path, "triage.json", {"name": "triage", "steps": [{"id": "only"}]})
    (tmp_path / "notes.txt").write_text("ignored", encoding="utf-8")
    definitions = load_definitions(tmp_path)
    assert sorted(definitions) == ["etl", "triage"]
    assert definitions["triage"].dag_steps == 1 and definitions["triage"].declared_retry_budget == 0
    write(tmp_path, "etl-copy.json", ETL)
    with pytest.raises(AAAFError, match="defined twice"):
        load_definitions(tmp_path)


def test_bad_json_and_missing_directory(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(AAAFError, match="not valid JSON"):
        load_definition(tmp_path / "broken.json")
    with pytest.raises(AAAFError, match="not a directory"):
        load_definitions(tmp_path / "absent")


def test_yaml_definition_when_pyyaml_is_present(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = tmp_path / "etl.yaml"
    path.write_text(
        "name: etl\nsteps:\n  - id: a\n    error_handling: {retry_count: 2}\n  - id: b\n    depends_on: [a]\n",
        encoding="utf-8",
    )
    definition = load_definition(path)
    assert (definition.dag_steps, definition.declared_retry_budget) == (2, 2)


def test_resolve_run_fills_missing_fields() -> None:
    definitions = {"etl": parse_definition(ETL)}
    resolved = resolve_run({"task_id": "t", "workflow": "etl", "steps_completed": 3}, definitions)
    assert resolved["dag_steps"] == 4 and resolved["declared_retry_budget"] == 3
    # agreeing values are fine; nothing named → unchanged
    assert (
        resolve_run({"workflow": "etl", "dag_steps": 4, "declared_retry_budget": 3}, definitions)["dag_steps"]
        == 4
    )
    assert resolve_run({"task_id": "t"}, definitions) == {"task_id": "t"}


def test_resolve_run_disagreement_names_both_values() -> None:
    definitions = {"etl": parse_definition(ETL, source="defs/etl.json")}
    with pytest.raises(AAAFError) as caught:
        resolve_run({"workflow": "etl", "declared_retry_budget": 5}, definitions)
    assert "gives 5 but workflow 'etl' defines 3" in caught.value.message
    assert caught.value.details == {
        "field": "data.declared_retry_budget",
        "given": 5,
        "defined": 3,
        "workflow": "etl",
    }
    with pytest.raises(AAAFError, match="gives 3 but workflow 'etl' defines 4"):
        resolve_run({"workflow": "etl", "dag_steps": 3}, definitions)


def test_resolve_run_unknown_workflow() -> None:
    definitions = {"etl": parse_definition(ETL)}
    with pytest.raises(AAAFError, match=r"'report' is not defined \(known: etl\).*dag_steps"):
        resolve_run({"workflow": "report", "declared_retry_budget": 0}, definitions)
    # a run that carries both fields does not need its definition
    given = {"workflow": "report", "dag_steps": 2, "declared_retry_budget": 0}
    assert resolve_run(given, definitions) == given


def test_resolve_event_touches_only_workflow_runs() -> None:
    definitions = {"etl": parse_definition(ETL)}
    other = {"type": "task_completed", "data": {"workflow": "etl"}}
    assert resolve_event(other, definitions) is other
    event = {"type": "workflow_run", "agent": "a", "data": {"workflow": "etl"}}
    resolved = resolve_event(event, definitions)
    assert resolved["data"]["dag_steps"] == 4
    assert "dag_steps" not in event["data"]  # the input is not mutated
