"""Issue 11 end to end on real tool output: epochs, unfinished runs, every grade kept, several treatments.

The inspect_ai logs (tests/fixtures/inspect/issue11/*.eval) were written by inspect_ai
itself (tests/fixtures/inspect/make_issue11_logs.py); the promptfoo result
(tests/fixtures/promptfoo/graders_results.json) by promptfoo 0.121.20
(tests/fixtures/promptfoo/make_graders_fixture.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.evals.importers import promptfoo
from aaaf.services.evals import grade_run, read_runs
from tests.cli.test_compare import runs  # noqa: F401  (the fixture of base/better/flat/wobble runs)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
INSPECT = FIXTURES / "inspect" / "issue11"
PROMPTFOO = FIXTURES / "promptfoo" / "graders_results.json"
runner = CliRunner()

pytest.importorskip("inspect_ai")


def compare(*args: str) -> Any:
    return runner.invoke(app, ["compare", *args])


# ---- 4. epochs: five questions are five samples, not ten -----------------------------------


def test_inspect_epochs_import_as_epochs_of_one_sample() -> None:
    (run,) = read_runs(INSPECT / "control_epochs.eval")
    assert [(s["sample_id"], s["epoch"]) for s in run["samples"]][:4] == [
        ("q0", 1),
        ("q0", 2),
        ("q1", 1),
        ("q1", 2),
    ]
    assert not any("#epoch" in s["sample_id"] for s in run["samples"])
    # model_graded_qa is a judge (C 5, I 1), includes() a fact assertion
    q0 = run["samples"][0]
    assert [(j["judge"], j["score"]) for j in q0["judges"]] == [("model_graded_qa", 5.0)]
    assert [(a["type"], a["passed"]) for a in q0["assertions"]] == [("contains", True)]
    assert run["status"] == "success"


def test_compare_counts_sample_ids_not_records() -> None:
    result = compare(str(INSPECT / "control_epochs.eval"), str(INSPECT / "treatment_epochs.eval"), "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    # before: q0#epoch1 … q4#epoch2, 10 "paired samples" and a CI twice too narrow
    assert payload["n_paired"] == 5
    # per question: control composite 5 (q0, q1) or 1, treatment 5 → diffs 0, 0, 4, 4, 4
    assert payload["composite"]["diff"] == pytest.approx(2.4)
    assert payload["layers"]["judge"]["present"] and payload["layers"]["fact"]["present"]


# ---- 5. an unfinished run is refused, or compared with its errored samples named -----------


def test_an_errored_inspect_log_is_refused_with_its_status_and_count() -> None:
    result = compare(str(INSPECT / "control_epochs.eval"), str(INSPECT / "errored.eval"))
    assert result.exit_code == 2
    message = result.output
    assert (
        "treatment run" in message and "did not finish (status 'error', 2 errored sample(s) of 5)" in message
    )
    assert "--allow-incomplete" in message


def test_allow_incomplete_leaves_errored_samples_out_and_says_so(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    args = [str(INSPECT / "control_epochs.eval"), str(INSPECT / "errored.eval"), "--allow-incomplete"]
    result = compare(*args, "--json", "--html", str(html))
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["n_paired"] == 3
    assert payload["unpaired"]["errored"] == ["q3", "q4"]
    assert payload["reason"].endswith("did not finish (status 'error'): 2 errored sample(s) left out")
    (incomplete,) = payload["incomplete"]
    assert (incomplete["role"], incomplete["status"], incomplete["left_out"]) == ("treatment", "error", 2)
    text = html.read_text(encoding="utf-8")
    assert "Incomplete run: treatment run" in text and "2 errored (q3, q4)" in text
    line = compare(*args)
    assert "did not finish (status 'error'): 2 errored sample(s) left out" in line.stdout
    assert "incomplete: treatment run" in line.stdout


# ---- 6. every grade promptfoo recorded is kept -------------------------------------------


def test_promptfoo_javascript_levenshtein_and_llm_rubric_are_kept() -> None:
    control, treatment = promptfoo.load_runs(PROMPTFOO)
    capital = {r["variant"]: r["samples"][0] for r in (control, treatment)}
    types = [(a["type"], a.get("layer"), a["passed"]) for a in capital["control"]["assertions"]]
    # before: javascript, levenshtein and llm-rubric were dropped — the three that differ
    assert types == [("icontains", None, True), ("javascript", "fact", False), ("levenshtein", "fact", False)]
    assert [(a["type"], a["passed"]) for a in capital["treatment"]["assertions"]][1:] == [
        ("javascript", True),
        ("levenshtein", True),
    ]
    # llm-rubric: the loopback grader scored 0.4 (no reason given) and 0.9 → 1 + 4 × score
    assert [(j["judge"], j["score"]) for j in capital["control"]["judges"]] == [
        ("llm-rubric", pytest.approx(2.6))
    ]
    assert [(j["judge"], j["score"]) for j in capital["treatment"]["judges"]] == [
        ("llm-rubric", pytest.approx(4.6))
    ]


def test_a_grader_error_is_left_out_and_does_not_wipe_a_passing_icontains() -> None:
    control, _ = promptfoo.load_runs(PROMPTFOO)
    assert control["grading_errors"] == 1
    assert any(
        "not graded (grading error: Error: API key is not set." in note for note in control["import_notes"]
    )
    sample = next(s for s in control["samples"] if s["sample_id"] == "grader-error")
    assert "error" not in sample  # the provider answered; only the grader failed
    graded = grade_run(control)
    icontains = next(s for s in graded["samples"] if s["sample_id"] == "grader-error")["assertions"]
    # before: imported as failed "not graded by promptfoo: Error: API key is not set"
    assert [(a["type"], a["passed"]) for a in icontains] == [("icontains", True)]


def test_promptfoo_errored_test_makes_the_run_unfinished() -> None:
    refused = compare(str(PROMPTFOO))
    assert refused.exit_code == 2
    assert "treatment run" in refused.output and "1 errored sample(s) of 4" in refused.output
    allowed = compare(str(PROMPTFOO), "--allow-incomplete", "--json")
    assert allowed.exit_code == 0, allowed.output
    payload = json.loads(allowed.stdout)
    assert payload["n_paired"] == 3 and payload["unpaired"]["errored"] == ["provider-error"]
    # the fact layer now includes javascript and levenshtein: control 3.4/3.0/5.0 vs treatment 5.0
    assert payload["layers"]["fact"]["diff"] > 0


# ---- several treatments from the CLI -----------------------------------------------------


def test_three_treatments_one_table_roll_up_json_and_html(runs: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    files = [str(runs["base"]), str(runs["better"]), str(runs["base"]), str(runs["better"])]
    line = compare(*files, "--fail-on", "none")
    assert line.exit_code == 0, line.output
    first = line.stdout.splitlines()[0]
    assert first.startswith("NOISE · INCONCLUSIVE — worst of 3 treatments (base: NOISE)")
    assert "Bonferroni across treatments: composite CI at 98.33 %" in line.stdout
    html = tmp_path / "several.html"
    result = compare(*files, "--json", "--html", str(html))
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["verdict"] == "NOISE" and payload["control"]["run_id"] == "base"
    assert [c["treatment"] for c in payload["comparisons"]] == ["better/better", "base/base", "better/better"]
    assert [c["verdict"] for c in payload["comparisons"]] == ["PROGRESS", "NOISE", "PROGRESS"]
    assert payload["comparisons"][0]["method"]["confidence"] == pytest.approx(1 - 0.05 / 3)
    assert len(payload["grading"]["treatments"]) == 3
    text = html.read_text(encoding="utf-8")
    assert text.count('<section id="t') == 3 and "Overview" in text and text.count("<svg") == 4
    # the roll-up drives --fail-on
    assert compare(*files, "--fail-on", "noise").exit_code == 1
    assert compare(*files, "--fail-on", "progress").exit_code == 0


def test_one_treatment_output_is_the_two_run_output(runs: dict[str, Path]) -> None:  # noqa: F811
    single = compare(str(runs["base"]), str(runs["better"]), "--json")
    payload = json.loads(single.stdout)
    assert "comparisons" not in payload and payload["verdict"] == "PROGRESS"
    assert "treatments" not in payload["method"]


def test_bad_ci_method_is_exit_2(runs: dict[str, Path]) -> None:  # noqa: F811
    result = compare(str(runs["base"]), str(runs["better"]), "--ci-method", "studentized")
    assert result.exit_code == 2 and "--ci-method" in result.output
    bca = compare(str(runs["base"]), str(runs["better"]), "--ci-method", "bca", "--json")
    assert bca.exit_code == 0 and json.loads(bca.stdout)["method"]["ci_method"] == "bca"


def test_a_human_label_goes_on_every_record_of_a_sample() -> None:
    from aaaf.services.evals import apply_human_labels

    (run,) = read_runs(INSPECT / "control_epochs.eval")
    assert apply_human_labels([run], [(None, "q0", 4.0)]) == 1
    assert [s.get("human") for s in run["samples"] if s["sample_id"] == "q0"] == [4.0, 4.0]
