"""Run files of every format and their columns, human labels and calibration (aaaf.services.evals)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.services.evals import (
    apply_human_labels,
    comparison_runs,
    detect_format,
    judge_calibrations,
    pick_column,
    read_human_labels,
    read_runs,
    run_file_name,
)

PROMPTFOO = Path(__file__).resolve().parents[1] / "fixtures" / "promptfoo" / "results.json"


def _run(run_id: str, n: int = 3) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "variant": run_id,
        "samples": [{"sample_id": f"s{i}", "assertions": [], "judges": []} for i in range(n)],
    }


def test_formats_are_detected_by_content(tmp_path: Path) -> None:
    assert detect_format(PROMPTFOO) == "promptfoo"
    files = {
        "ours.json": json.dumps(_run("r")),
        "list.json": json.dumps([{"sample_id": "a"}]),
        "lines.txt": '{"sample_id": "a"}\n{"sample_id": "b"}\n',
        "inspect.json": json.dumps({"version": 2, "status": "success", "eval": {"task": "t"}}),
        "zip.eval": "PK\x03\x04rest",
    }
    expected = {"ours.json": "aaaf", "list.json": "aaaf", "lines.txt": "aaaf"}
    expected |= {"inspect.json": "inspect_ai", "zip.eval": "inspect_ai"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        assert detect_format(tmp_path / name) == expected[name], name
    (tmp_path / "other.json").write_text('{"hello": 1}')
    with pytest.raises(AAAFError, match="cannot tell its format"):
        detect_format(tmp_path / "other.json")
    (tmp_path / "prose.txt").write_text("hello")
    with pytest.raises(AAAFError, match="not JSON"):
        detect_format(tmp_path / "prose.txt")
    with pytest.raises(AAAFError, match="no such run file"):
        detect_format(tmp_path / "missing.json")


def test_promptfoo_columns_by_name_or_number() -> None:
    runs = read_runs(PROMPTFOO)
    assert [r["variant"] for r in runs] == ["control", "treatment"]
    assert pick_column(runs, "treatment", source="f", option="--column") is runs[1]
    assert pick_column(runs, "1", source="f", option="--column") is runs[0]
    with pytest.raises(
        AAAFError, match=r"f has 2 columns \(1\. control, 2\. treatment\); choose one with --column"
    ):
        pick_column(runs, None, source="f", option="--column")
    with pytest.raises(AAAFError, match="no column '0'"):
        pick_column(runs, "0", source="f", option="--column")
    control, treatment = comparison_runs(PROMPTFOO, None)
    assert (control["variant"], treatment["variant"]) == ("control", "treatment")
    control, treatment = comparison_runs(PROMPTFOO, None, treatment_column="control")
    assert (control["variant"], treatment["variant"]) == ("treatment", "control")


def test_run_file_names_are_safe_and_distinct() -> None:
    taken: set[str] = set()
    assert run_file_name({"variant": "mockllm/model"}, taken) == "mockllm-model.json"
    assert run_file_name({"variant": "mockllm model"}, taken) == "mockllm-model-2.json"
    assert run_file_name({"variant": "../.."}, taken) == "run.json"


def test_human_labels_files(tmp_path: Path) -> None:
    (tmp_path / "map.json").write_text(json.dumps({"s0": 4, "s1": 2.5}))
    assert read_human_labels(tmp_path / "map.json") == [(None, "s0", 4.0), (None, "s1", 2.5)]
    (tmp_path / "lines.jsonl").write_text('{"sample_id": "s0", "score": 5, "run": "a"}\n')
    assert read_human_labels(tmp_path / "lines.jsonl") == [("a", "s0", 5.0)]
    (tmp_path / "bad.json").write_text(json.dumps([{"sample_id": "s0", "human": True}]))
    with pytest.raises(AAAFError, match="a label is a number from 1 to 5"):
        read_human_labels(tmp_path / "bad.json")


def test_labels_are_applied_and_contradictions_refused() -> None:
    run = _run("a")
    assert apply_human_labels([run], [(None, "s0", 4.0)]) == 1
    assert run["samples"][0]["human"] == 4.0
    assert apply_human_labels([run], [("a", "s0", 4.0)]) == 1  # the same value again is fine
    with pytest.raises(AAAFError, match=r"contradicts the run's own human score \(4\)"):
        apply_human_labels([run], [(None, "s0", 2.0)])
    with pytest.raises(AAAFError, match="names no run"):
        apply_human_labels([run, _run("b")], [(None, "s1", 2.0)])


def test_calibrations_from_recorded_scores() -> None:
    """Spearman of judge vs human over labelled samples; a failed judgement is dropped and counted."""
    run = _run("a", 12)
    for i, sample in enumerate(run["samples"]):
        sample["human"] = 1 + i % 5
        if i == 11:
            sample["judge_failures"] = [{"judge": "j", "reason": "unparseable"}]
        else:
            sample["judges"] = [{"judge": "j", "score": 1 + i % 5}]
    (calibration,) = judge_calibrations([run]).values()
    assert (calibration.n, calibration.dropped, calibration.accepted) == (11, 1, True)
    assert calibration.spearman == pytest.approx(1.0)
