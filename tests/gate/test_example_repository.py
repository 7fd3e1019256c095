"""The sample repository of examples/ci gates a change with `aaaf gate` (issue 20, "Done when"):
the regressed candidate exits 1 with failing JUnit test cases, the good one exits 0; every file
is written, and the summary goes to $GITHUB_STEP_SUMMARY when it is set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from junitparser import Failure, JUnitXml

from tests.gate.conftest import EXAMPLE, aaaf

EVALS = EXAMPLE / "evals"


def _gate(candidate: str, out: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return aaaf(
        "gate", str(EVALS / "baseline.jsonl"), str(EVALS / candidate),
        "--junit", str(out / "junit.xml"), "--summary", str(out / "summary.md"), "--html", str(out / "report.html"),
        *extra, cwd=out, env=env,
    )  # fmt: skip


def _failed_cases(path: Path) -> set[str]:
    return {
        case.name
        for suite in JUnitXml.fromfile(str(path))
        for case in suite
        if any(isinstance(result, Failure) for result in case.result)
    }


def test_the_regressed_candidate_fails_the_gate(tmp_path: Path) -> None:
    step_summary = tmp_path / "step-summary.md"
    step_summary.write_text("earlier step\n", encoding="utf-8")
    result = _gate("candidate-regressed.jsonl", tmp_path, env={"GITHUB_STEP_SUMMARY": str(step_summary)})
    assert result.returncode == 1, result.stderr
    assert "REGRESS · DO NOT SHIP" in result.stdout
    assert _failed_cases(tmp_path / "junit.xml") == {"composite", "fact", "behavior", "judge", "gate"}
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## AAAF gate ❌ failed: REGRESS · DO NOT SHIP")
    assert "regress: the verdict is REGRESS; tier-drop: behavior, judge" in summary
    # appended, not overwritten
    assert step_summary.read_text(encoding="utf-8") == "earlier step\n" + summary + "\n"
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.lower().startswith("<!doctype html>") and "REGRESS" in html and "<svg" in html


def test_the_good_candidate_passes_and_agrees_with_compare(tmp_path: Path) -> None:
    result = _gate("candidate-good.jsonl", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["passed"] is True and body["exit_code"] == 0 and body["failing"] == []
    compared = aaaf(
        "compare", str(EVALS / "baseline.jsonl"), str(EVALS / "candidate-good.jsonl"), "--json",
        "--html", str(tmp_path / "compare.html"), cwd=tmp_path,
    )  # fmt: skip
    verdict = json.loads(compared.stdout)
    assert body["verdict"] == verdict["verdict"] == "PROGRESS"
    assert body["comparison"]["composite"] == verdict["composite"]  # the same engine, the same numbers
    assert _failed_cases(tmp_path / "junit.xml") == set()
    # the HTML report is compare's own
    assert (tmp_path / "report.html").read_bytes() == (tmp_path / "compare.html").read_bytes()
    assert body["files"]["junit"] == str(tmp_path / "junit.xml") and body["files"]["step_summary"] is None
    assert (
        (tmp_path / "summary.md").read_text(encoding="utf-8").startswith("## AAAF gate ✅ passed: PROGRESS")
    )
    # --fail-on decides what fails: here, any PROGRESS
    strict = _gate("candidate-good.jsonl", tmp_path, "--fail-on", "progress")
    assert strict.returncode == 1


def test_bad_input_exits_2_with_a_message(tmp_path: Path) -> None:
    missing = aaaf("gate", str(EVALS / "baseline.jsonl"), str(tmp_path / "nope.jsonl"), cwd=tmp_path)
    assert missing.returncode == 2 and "nope.jsonl" in missing.stderr
    unknown = _gate("candidate-good.jsonl", tmp_path, "--fail-on", "regress,sometimes")
    assert unknown.returncode == 2 and "unknown condition(s) sometimes" in unknown.stderr
    unreadable = tmp_path / "garbage.json"
    unreadable.write_text("{not json", encoding="utf-8")
    garbage = aaaf("gate", str(unreadable), str(EVALS / "candidate-good.jsonl"), cwd=tmp_path)
    assert garbage.returncode == 2 and "garbage.json" in garbage.stderr
    neither = aaaf("gate", cwd=tmp_path)
    assert neither.returncode == 2 and "--agent" in neither.stderr
    both = aaaf("gate", str(EVALS / "baseline.jsonl"), "--agent", "x", "--agent-cmd", "true", cwd=tmp_path)
    assert both.returncode == 2 and "not both" in both.stderr
    assert not (tmp_path / "junit.xml").exists()  # nothing is written on bad input


def test_the_committed_data_is_what_the_script_makes(tmp_path: Path) -> None:
    before = {p.name: p.read_bytes() for p in EVALS.iterdir()}
    subprocess.run([sys.executable, str(EXAMPLE / "make_data.py")], check=True, timeout=60)
    assert {p.name: p.read_bytes() for p in EVALS.iterdir()} == before
