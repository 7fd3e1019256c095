"""promptfoo importer on a real result file made by the promptfoo CLI (echo provider, no network).

The committed fixture ``tests/fixtures/promptfoo/results.json`` was written by
``tests/fixtures/promptfoo/make_fixture.sh`` (promptfoo 0.121.20).  When Node and that
promptfoo are installed, the test runs the script again and checks that a fresh file
imports to the same runs.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.evals.importers import promptfoo as importer
from aaaf.evals.models import parse_run, to_layered
from aaaf.graders import grade_assertion
from aaaf.scoring.layered import score_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "promptfoo"
RESULTS = FIXTURES / "results.json"
MAKE_FIXTURE = FIXTURES / "make_fixture.sh"
PROMPTFOO_HOME = Path(
    os.environ.get("AAAF_PROMPTFOO_HOME")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aaaf-promptfoo-0.121.20"
)


def runs() -> list[dict[str, Any]]:
    return importer.load_runs(RESULTS)


def verdicts(run: dict[str, Any]) -> dict[str, list[tuple[str, str, bool, float]]]:
    return {
        s["sample_id"]: [(a["source"], a["type"], a["passed"], a["weight"]) for a in s["assertions"]]
        for s in run["samples"]
    }


def test_one_run_per_prompt_column_paired_by_test() -> None:
    control, treatment = runs()
    for run in (control, treatment):
        parse_run(run)
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert (control["variant"], treatment["variant"]) == ("control", "treatment")
    assert control["run_id"] == f"{data['evalId']}/control"
    assert [s["sample_id"] for s in control["samples"]] == ["capital-of-france", "two-plus-two", "json-shape"]
    assert [s["sample_id"] for s in treatment["samples"]] == [
        "capital-of-france",
        "two-plus-two",
        "json-shape",
    ]
    first = control["samples"][0]
    assert first["input"] == "Answer: Paris" and first["output"] == "Answer: Paris"
    assert first["vars"] == {"answer": "Paris", "reason": "it is the seat of government"}
    assert first["cost_usd"] == 0.0 and first["latency_ms"] >= 0
    assert isinstance(importer.load(RESULTS), list)


def test_verdicts_types_and_weights_are_promptfoos() -> None:
    control, treatment = runs()
    assert verdicts(control) == {
        "capital-of-france": [
            ("promptfoo:contains", "contains", True, 1.0),
            (
                "promptfoo:icontains",
                "icontains",
                False,
                2.0,
            ),  # "final ANSWER" is only in the treatment prompt
            ("promptfoo:regex", "regex", True, 1.0),
            ("promptfoo:not-contains", "contains", True, 1.0),
        ],
        "two-plus-two": [
            ("promptfoo:equals", "equals", True, 1.0),
            ("promptfoo:contains-any", "contains", True, 1.0),
            ("promptfoo:latency", "max_latency", True, 1.0),
        ],
        "json-shape": [
            ("promptfoo:contains-json", "json_schema", True, 1.0),
            ("promptfoo:starts-with", "contains", True, 1.0),
            ("promptfoo:icontains-all", "icontains", True, 1.0),
        ],
    }
    changed = {
        sample: [passed for _, _, passed, _ in checks] for sample, checks in verdicts(treatment).items()
    }
    assert changed == {
        "capital-of-france": [True, True, True, True],
        "two-plus-two": [False, True, True],  # "Final answer: 4. Reason: arithmetic" ≠ "Answer: 4"
        "json-shape": [True, False, True],  # does not start with "Answer"
    }


def test_values_are_kept_only_where_they_mean_the_same_to_aaaf() -> None:
    control, _ = runs()
    checks = {a["source"]: a for s in control["samples"] for a in s["assertions"]}
    assert checks["promptfoo:contains"]["value"] == "Paris"
    assert checks["promptfoo:latency"]["value"] == 60000  # promptfoo's threshold, in ms
    assert "value" not in checks["promptfoo:not-contains"]
    assert checks["promptfoo:not-contains"]["source_value"] == "London"
    assert checks["promptfoo:contains-any"]["source_value"] == ["4", "four"]


def test_aaafs_graders_agree_with_promptfoo_wherever_the_meaning_is_the_same() -> None:
    compared = 0
    for run in runs():
        for sample in run["samples"]:
            for assertion in sample["assertions"]:
                if "value" not in assertion:
                    continue
                regraded = grade_assertion({k: v for k, v in assertion.items() if k != "passed"}, sample)
                assert regraded.passed is assertion["passed"], (
                    sample["sample_id"],
                    assertion,
                    regraded.reason,
                )
                compared += 1
    # per run: contains, icontains, regex (capital-of-france) + equals, latency (two-plus-two) = 5; two runs
    assert compared == 10


def test_the_layered_scores_by_hand() -> None:
    control, treatment = (score_run(to_layered(parse_run(run))) for run in runs())
    c = {s.sample_id: s for s in control.samples}
    t = {s.sample_id: s for s in treatment.samples}
    # control capital-of-france, fact: contains 1 + regex 1 + not-contains 1 pass, icontains 2 fails
    #   → 1 + 4·3/5 = 3.4
    assert c["capital-of-france"].fact == pytest.approx(3.4)
    assert t["capital-of-france"].fact == 5.0
    # two-plus-two: behavior is the latency check alone (passes in both) → 5
    assert c["two-plus-two"].behavior == t["two-plus-two"].behavior == 5.0
    # treatment two-plus-two, fact: equals fails, contains-any passes → 1 + 4·1/2 = 3
    assert t["two-plus-two"].fact == 3.0
    assert t["two-plus-two"].composite == 4.0  # (3 + 5) / 2


def _with_rows(keep: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RESULTS.read_text(encoding="utf-8"))
    data["results"]["results"] = [row for row in data["results"]["results"] if keep(row)]
    return data


def test_a_single_column_is_one_run_named_by_its_provider() -> None:
    data = _with_rows(lambda row: row["promptIdx"] == 0)
    (run,) = importer.runs_from_results(data)
    assert run["variant"] == "echo" and run["run_id"] == data["evalId"]


def test_providers_and_prompts_both_varying_name_both() -> None:
    data = _with_rows(lambda row: True)
    extra = copy.deepcopy(data["results"]["results"])
    for row in extra:
        row["provider"] = {"id": "echo", "label": "echo-2"}
    data["results"]["results"] += extra
    variants = [run["variant"] for run in importer.runs_from_results(data)]
    assert variants == ["echo | control", "echo-2 | control", "echo | treatment", "echo-2 | treatment"]


def test_repeats_and_missing_descriptions_get_distinct_ids() -> None:
    data = _with_rows(lambda row: row["promptIdx"] == 0)
    data["results"]["results"] += copy.deepcopy(data["results"]["results"][:1])
    for row in data["results"]["results"]:
        row["testCase"].pop("description", None)
    (run,) = importer.runs_from_results(data)
    # repeats are one sample recorded several times (SCORING.md §4): same id, epochs 1, 2
    assert sorted((s["sample_id"], s.get("epoch")) for s in run["samples"]) == [
        ("test-0", 1),
        ("test-0", 2),
        ("test-1", None),
        ("test-2", None),
    ]


def test_a_provider_error_is_an_errored_test_not_failed_assertions() -> None:
    data = _with_rows(lambda row: row["promptIdx"] == 0)
    row = data["results"]["results"][0]
    row["gradingResult"] = None
    row["response"] = {"error": "API error: 503"}
    row["error"] = "API error: 503"
    (run,) = importer.runs_from_results(data)
    broken = next(s for s in run["samples"] if s["sample_id"] == row["testCase"]["description"])
    assert "output" not in broken and broken["error"] == "API error: 503"
    # nothing was graded: no assertion is made up as failed; the run did not finish
    assert broken["assertions"] == [] and broken["judges"] == []
    assert "1 errored test(s): the run did not finish" in run["import_notes"]


def test_a_model_graded_component_becomes_a_judge_score() -> None:
    data = _with_rows(lambda row: row["promptIdx"] == 0)
    component = {
        "pass": True,
        "score": 0.9,
        "reason": "rubric met",
        "assertion": {"type": "llm-rubric", "value": "x"},
    }
    data["results"]["results"][0]["gradingResult"]["componentResults"].append(component)
    (run,) = importer.runs_from_results(data)
    judges = run["samples"][0]["judges"]
    # 1 + 4 × 0.9 = 4.6
    assert [(j["judge"], j["score"]) for j in judges] == [("llm-rubric", pytest.approx(4.6))]
    assert "import_notes" not in run


def test_files_that_are_not_promptfoo_results_are_refused(tmp_path: Path) -> None:
    with pytest.raises(AAAFError, match="no such promptfoo result file"):
        importer.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(AAAFError, match="JSON object"):
        importer.load(bad)
    bad.write_text('{"results": {"table": []}}', encoding="utf-8")
    with pytest.raises(AAAFError, match=r"results\.results"):
        importer.load(bad)


def _promptfoo_installed() -> bool:
    return (
        shutil.which("node") is not None and (PROMPTFOO_HOME / "node_modules" / ".bin" / "promptfoo").exists()
    )


@pytest.mark.skipif(
    not _promptfoo_installed(),
    reason="node or promptfoo 0.121.20 not installed; the committed fixture is used",
)
def test_a_freshly_made_fixture_imports_to_the_same_runs(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    finished = subprocess.run(
        ["bash", str(MAKE_FIXTURE), str(output)],
        capture_output=True,
        text=True,
        env={**os.environ, "AAAF_PROMPTFOO_NO_INSTALL": "1", "AAAF_PROMPTFOO_HOME": str(PROMPTFOO_HOME)},
        timeout=300,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    fresh = importer.load_runs(output)
    committed = runs()
    assert [r["variant"] for r in fresh] == [r["variant"] for r in committed]
    for new, old in zip(fresh, committed, strict=True):
        assert verdicts(new) == verdicts(old)
        assert [s["output"] for s in new["samples"]] == [s["output"] for s in old["samples"]]
    assert json.loads(output.read_text())["metadata"]["promptfooVersion"] == "0.121.20"
