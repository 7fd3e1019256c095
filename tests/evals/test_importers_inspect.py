"""inspect_ai importer on a real log, produced here by inspect_ai with its mock model (no network)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.evals.importers import inspect_ai as importer
from aaaf.evals.models import parse_run, to_layered
from aaaf.scoring.layered import score_run
from aaaf.services.evals import grade_run

MAKE_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "inspect" / "make_log.py"

pytest.importorskip("inspect_ai")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(.eval, .json) of one real inspect_ai run; made in a subprocess so inspect's global state stays there."""
    directory = tmp_path_factory.mktemp("inspect-logs")
    environment = {**os.environ, "XDG_DATA_HOME": str(directory / "data"), "INSPECT_DISPLAY": "none"}
    finished = subprocess.run(
        [sys.executable, str(MAKE_LOG), str(directory / "logs")],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    eval_path, json_path = (Path(line) for line in finished.stdout.strip().splitlines()[-2:])
    return eval_path, json_path


def test_the_eval_log_becomes_a_run_of_scoring_md(logs: tuple[Path, Path]) -> None:
    run = importer.load(logs[0])
    parse_run(run)  # valid run format
    assert run["variant"] == "mockllm/model"
    assert run["source"] == "inspect_ai" and run["task"] == "aaaf_importer_fixture"
    by_id = {sample["sample_id"]: sample for sample in run["samples"]}
    assert list(by_id) == ["add-1", "add-2", "capital"]
    add1, add2, capital = by_id["add-1"], by_id["add-2"], by_id["capital"]
    assert add1["input"] == "What is 1+1?" and add1["target"] == "2" and add1["output"] == "2"
    assert add1["tool_calls"] == [{"name": "add", "arguments": {"x": 1, "y": 1}}]
    assert capital["tool_calls"] == []
    assert (add1["turns"], capital["turns"]) == (2, 1)  # tool call + answer; answer only
    # cost: the tool-call reply (0.001) + the answer (0.002); the capital sample only answered
    assert add1["cost_usd"] == pytest.approx(0.003)
    assert capital["cost_usd"] == pytest.approx(0.002)
    assert add1["latency_ms"] > 0
    verdicts = {s["sample_id"]: {a["source"]: a["passed"] for a in s["assertions"]} for s in run["samples"]}
    assert verdicts == {
        "add-1": {"inspect_ai:exact": True, "inspect_ai:includes": True},
        "add-2": {"inspect_ai:exact": False, "inspect_ai:includes": False},
        "capital": {"inspect_ai:exact": True, "inspect_ai:includes": True},
    }
    types = {a["source"]: a["type"] for a in add2["assertions"]}
    assert types == {"inspect_ai:exact": "equals", "inspect_ai:includes": "contains"}
    assert all("value" not in a for s in run["samples"] for a in s["assertions"])
    reason = next(a["reason"] for a in add2["assertions"] if a["source"] == "inspect_ai:includes")
    assert reason.startswith('inspect_ai scorer includes scored "I"')


def test_an_unmapped_scorer_is_noted_not_guessed(logs: tuple[Path, Path]) -> None:
    run = importer.load(logs[0])
    assert run["import_notes"] == [
        f"sample {sid}: score of scorer 'answer_length' not imported (no assertion type)"
        for sid in ("add-1", "add-2", "capital")
    ]
    mapped = importer.load(logs[0], scorer_types={"answer_length": "max_turns"})
    assert "import_notes" not in mapped
    lengths = {
        s["sample_id"]: [a for a in s["assertions"] if a["source"] == "inspect_ai:answer_length"]
        for s in mapped["samples"]
    }
    assert all(len(found) == 1 and found[0]["passed"] for found in lengths.values())  # numeric ≥ 1 passes
    with pytest.raises(AAAFError, match="unknown assertion type"):
        importer.load(logs[0], scorer_types={"answer_length": "vibes"})


def test_the_json_log_imports_identically(logs: tuple[Path, Path]) -> None:
    assert importer.load(logs[1]) == importer.load(logs[0])


def test_the_importer_agrees_with_inspects_own_reader(logs: tuple[Path, Path]) -> None:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(logs[0]))
    run = importer.load(logs[0])
    assert run["run_id"] == log.eval.run_id
    assert len(run["samples"]) == len(log.samples or [])
    for sample, original in zip(
        run["samples"], sorted(log.samples or [], key=lambda s: str(s.id)), strict=True
    ):
        assert sample["sample_id"] == original.id
        assert sample["output"] == original.output.completion
        assert sample["latency_ms"] == pytest.approx((original.total_time or 0) * 1000)


def test_the_imported_run_scores_in_the_layered_scheme(logs: tuple[Path, Path]) -> None:
    scores = score_run(to_layered(grade_run(parse_run(importer.load(logs[0])))))
    by_id = {s.sample_id: s for s in scores.samples}
    # add-1 and capital: both fact assertions pass → 1 + 4·2/2 = 5; add-2: none passes → 1
    assert (by_id["add-1"].fact, by_id["add-2"].fact, by_id["capital"].fact) == (5.0, 1.0, 5.0)
    assert by_id["add-1"].behavior is None and by_id["add-1"].layers_used == 1


def test_code_graders_can_add_behavior_checks_on_the_imported_trace(logs: tuple[Path, Path]) -> None:
    run = importer.load(logs[0])
    for sample in run["samples"]:
        sample["assertions"] += [{"type": "tool_called", "value": "add"}, {"type": "max_turns", "value": 1}]
    graded = grade_run(run)
    behavior = {s["sample_id"]: [a["passed"] for a in s["assertions"][-2:]] for s in graded["samples"]}
    assert behavior == {"add-1": [True, False], "add-2": [True, False], "capital": [False, True]}


def _log_dict(logs: tuple[Path, Path]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(logs[1].read_text(encoding="utf-8"))
    return data


def test_epochs_map_to_epoch_not_to_new_sample_ids(logs: tuple[Path, Path]) -> None:
    # SCORING.md §4 (2026-11-23): the records of one sample keep its id and carry `epoch`
    log = _log_dict(logs)
    second = copy.deepcopy(log["samples"])
    for sample in second:
        sample["epoch"] = 2
    log["samples"] += second
    run = importer.run_from_log(log)
    assert [(s["sample_id"], s["epoch"]) for s in run["samples"]] == [
        ("add-1", 1),
        ("add-1", 2),
        ("add-2", 1),
        ("add-2", 2),
        ("capital", 1),
        ("capital", 2),
    ]
    parse_run(run)  # (sample_id, epoch) unique: a valid run


def test_score_values_map_to_verdicts(logs: tuple[Path, Path]) -> None:
    log = _log_dict(logs)
    values: list[Any] = ["C", "I", "P", "N", True, 1, 0.5, {"a": 1}]
    template = log["samples"][0]
    log["samples"] = []
    for index, value in enumerate(values):
        sample = copy.deepcopy(template)
        sample["id"] = index
        sample["scores"] = {"exact": {"value": value}, "f1": {"value": 0.8 if index % 2 else 0.79}}
        log["samples"].append(sample)
    run = importer.run_from_log(log)
    exact = [
        next((a["passed"] for a in s["assertions"] if a["source"] == "inspect_ai:exact"), None)
        for s in run["samples"]
    ]
    assert exact == [True, False, False, False, True, True, False, None]  # the dict value is noted instead
    f1 = [next(a for a in s["assertions"] if a["source"] == "inspect_ai:f1") for s in run["samples"]]
    assert [a["passed"] for a in f1] == [False, True] * 4  # similar threshold 0.8
    assert {a["type"] for a in f1} == {"similar"}
    assert any('value {"a": 1} is not a verdict' in note for note in run["import_notes"])
    assert [s["sample_id"] for s in run["samples"]] == [
        str(i) for i in range(8)
    ]  # integer ids in numeric order


def test_an_errored_sample_keeps_its_error_and_fails_its_ungraded_checks(logs: tuple[Path, Path]) -> None:
    log = _log_dict(logs)
    broken = log["samples"][0]
    broken["error"] = {"message": "RuntimeError: sandbox died", "traceback": "", "traceback_ansi": ""}
    broken["output"] = {"model": "mockllm/model", "choices": [], "completion": ""}
    broken["scores"] = {}
    log["status"] = "error"
    run = importer.run_from_log(log)
    sample = run["samples"][0]
    assert sample["error"] == "RuntimeError: sandbox died" and "output" not in sample
    assert run["status"] == "error"
    assert "the log's status is 'error': the run did not finish" in run["import_notes"]
    sample["assertions"] = [{"type": "contains", "value": "2"}]
    graded = grade_run(run)
    assert graded["samples"][0]["assertions"][0]["passed"] is False


def test_files_that_are_not_logs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(AAAFError, match="no such log file"):
        importer.load(tmp_path / "missing.eval")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(AAAFError, match="not valid JSON"):
        importer.load(bad)
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(AAAFError, match="no `eval` header"):
        importer.load(bad)
    junk = tmp_path / "junk.eval"
    junk.write_bytes(b"not a zip")
    with pytest.raises(AAAFError, match="not a readable inspect_ai log"):
        importer.load(junk)
