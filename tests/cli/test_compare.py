"""`aaaf compare` and `aaaf eval score` end to end (issue 6 §6, §8): line, JSON, HTML, exit codes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.settings import get_settings
from tests.graders.conftest import ChatServer, chat_server, completion  # noqa: F401

runner = CliRunner()


def _sample(
    sid: str, fact: int, behavior: int, judges: list[int], human: int | None = None
) -> dict[str, Any]:
    """fact=k: k of 4 fact assertions pass (score 1 + k); behavior likewise; all pre-graded."""
    sample: dict[str, Any] = {
        "sample_id": sid,
        "assertions": [{"type": "contains", "passed": i < fact} for i in range(4)]
        + [{"type": "tool_called", "passed": i < behavior} for i in range(4)],
        "judges": [{"judge": f"j{n}", "score": s} for n, s in enumerate(judges)],
    }
    if human is not None:
        sample["human"] = human
    return sample


def _write(path: Path, run_id: str, samples: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"run_id": run_id, "variant": run_id, "samples": samples}))
    return path


@pytest.fixture()
def runs(tmp_path: Path) -> dict[str, Path]:
    """better/worse than base on every layer (PROGRESS / REGRESS), and an equal copy (NOISE)."""
    base, better = [], []
    for i in range(30):
        q = i % 3
        judges = [2 + q, min(5, 2 + q + (i % 4 == 0)), 2 + q]
        base.append(_sample(f"s{i}", 2 + q, 2 + (i + 1) % 3, judges, human=2 + q))
        better.append(
            _sample(
                f"s{i}",
                min(4, 2 + q + (i % 2 == 0)),
                min(4, 2 + (i + 1) % 3 + (i % 3 == 0)),
                [min(5, s + 1) for s in judges],
                human=3 + q,
            )
        )
    flat = [_sample(f"s{i}", 3, 3, [4, 4, 5]) for i in range(200)]
    wobble = [_sample(f"s{i}", 4 if i % 2 == 0 else 2, 3, [4, 4, 5]) for i in range(200)]
    return {
        "base": _write(tmp_path / "base.json", "base", base),
        "better": _write(tmp_path / "better.json", "better", better),
        "flat": _write(tmp_path / "flat.json", "flat", flat),
        "wobble": _write(tmp_path / "wobble.json", "wobble", wobble),
    }


def compare(*args: str) -> Any:
    return runner.invoke(app, ["compare", *args])


def test_progress_line_table_and_exit_zero(runs: dict[str, Path]) -> None:
    result = compare(str(runs["base"]), str(runs["better"]))
    assert result.exit_code == 0, result.output
    first, second = result.stdout.splitlines()[:2]
    assert first.startswith("PROGRESS · SHIP — composite +")
    assert first.endswith("3/3 layers pass, judges agree")
    assert second.startswith("reason (rule 5): composite CI [")
    for name in ("composite", "fact", "behavior", "judge"):
        assert name in result.stdout


def test_json_agrees_with_the_line(runs: dict[str, Path]) -> None:
    line = compare(str(runs["base"]), str(runs["better"])).stdout.splitlines()[0]
    result = compare(str(runs["base"]), str(runs["better"]), "--json")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["verdict"] == "PROGRESS" and line.startswith(payload["verdict"])
    assert payload["headline"] == line
    assert payload["n_paired"] == 30 and payload["unpaired"]["control_only"] == []
    assert set(payload["composite"]) >= {"control", "treatment", "diff", "ci"}
    lo, hi = payload["composite"]["ci"]
    assert 0 < lo < payload["composite"]["diff"] < hi
    assert set(payload["layers"]["fact"]["gate"]) == {"control", "treatment"}
    assert set(payload["judges"]) >= {"pearson", "krippendorff_alpha", "agree"}
    assert payload["badges"]["difference_significant"]["value"] is True


def test_regress_fails_by_default(runs: dict[str, Path]) -> None:
    result = compare(str(runs["better"]), str(runs["base"]))
    assert result.exit_code == 1
    assert result.stdout.startswith("REGRESS · DO NOT SHIP")


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [("progress", 1), ("PROGRESS,cautious", 1), ("regress", 0), ("Noise, Regress", 0), ("none", 0)],
)
def test_fail_on_list(runs: dict[str, Path], fail_on: str, expected: int) -> None:
    result = compare(str(runs["base"]), str(runs["better"]), "--fail-on", fail_on)
    assert result.exit_code == expected, result.output


def test_noise_exit_codes(runs: dict[str, Path]) -> None:
    # 200 pairs, fact ±1 alternately, nothing else moves: composite diffs ±1/3, mean 0 → NOISE
    result = compare(str(runs["flat"]), str(runs["wobble"]), "--json")
    assert json.loads(result.stdout)["verdict"] == "NOISE" and result.exit_code == 0
    assert compare(str(runs["flat"]), str(runs["wobble"]), "--fail-on", "noise").exit_code == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fail-on", "bogus"], "unknown verdict"),
        (["--weights", "fact=0.5,behavior=0.6,judge=0.2"], "sum to 1.3"),
        (["--weights", "speed=1"], "unknown layer"),
        (["--weights", "fact"], "layer=weight"),
        (["--confidence", "1.5"], "confidence"),
        (["--resamples", "0"], "resamples"),
    ],
)
def test_bad_input_exits_2(runs: dict[str, Path], args: list[str], message: str) -> None:
    result = compare(str(runs["base"]), str(runs["better"]), *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_bad_files_exit_2(runs: dict[str, Path], tmp_path: Path) -> None:
    missing = compare(str(tmp_path / "nope.json"), str(runs["better"]))
    assert missing.exit_code == 2
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps({"run_id": "x", "variant": "x", "samples": [{"sample_id": "a", "human": 9}]})
    )
    result = compare(str(broken), str(runs["better"]))
    assert result.exit_code == 2 and "samples[0].human" in result.stderr


def test_v1_options(runs: dict[str, Path]) -> None:
    result = compare(
        str(runs["base"]),
        str(runs["better"]),
        "--json",
        "--weights",
        "fact=0.5,behavior=0.3,judge=0.2",
        "--standardize",
        "--hotelling",
        "--resamples",
        "2000",
        "--seed",
        "4",
        "--confidence",
        "0.9",
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["method"]["weights"] == {"fact": 0.5, "behavior": 0.3, "judge": 0.2}
    assert payload["method"]["significance_test"] == "hotelling_t2"
    assert payload["method"]["resamples"] == 2000 and payload["method"]["confidence"] == 0.9
    assert payload["composite"]["scale"] == "z"
    assert payload["hotelling"]["p_value"] < 0.1
    assert payload["verdict"] == "PROGRESS"


def test_html_report(runs: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.html"
    result = compare(str(runs["base"]), str(runs["better"]), "--html", str(target))
    assert result.exit_code == 0
    html = target.read_text()
    line = result.stdout.splitlines()[0]
    assert line in html.replace("&amp;", "&")  # the same headline as the CLI
    assert '<span class="pill">PROGRESS · SHIP</span>' in html
    # self-contained: the plot is inline SVG, nothing is linked or fetched
    assert "<svg" in html
    for fetch in ("<script", "<link", 'src="http', "url(http", "@import"):
        assert fetch not in html
    for label in ("judges agree", "difference significant", "saturated", "human-aligned"):
        assert label in html
    assert "30 × 3 layers" in html  # each composite's layer count


def test_eval_score_is_solo(runs: dict[str, Path]) -> None:
    result = runner.invoke(app, ["eval", "score", str(runs["base"])])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("SOLO · ADD A CONTROL — composite ")
    payload = json.loads(runner.invoke(app, ["eval", "score", str(runs["base"]), "--json"]).stdout)
    assert payload["verdict"] == "SOLO" and payload["n_samples"] == 30
    assert payload["composite"]["layers_used"] == {"3": 30}
    lo, hi = payload["composite"]["ci"]
    assert lo <= payload["composite"]["score"] <= hi


def test_html_report_is_deterministic(runs: dict[str, Path], tmp_path: Path) -> None:
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    compare(str(runs["better"]), str(runs["base"]), "--html", str(first), "--fail-on", "none")
    compare(str(runs["better"]), str(runs["base"]), "--html", str(second), "--fail-on", "none")
    assert first.read_bytes() == second.read_bytes()
    assert '<span class="pill">REGRESS · DO NOT SHIP</span>' in first.read_text()


# --------------------------------------------------------------------------- importers on the CLI

REPO = Path(__file__).resolve().parents[2]
PROMPTFOO = REPO / "tests" / "fixtures" / "promptfoo" / "results.json"
MAKE_INSPECT_LOG = REPO / "tests" / "fixtures" / "inspect" / "make_log.py"


@pytest.fixture(scope="module")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(.eval, .json) of a real inspect_ai run with its mock model, made in a subprocess."""
    pytest.importorskip("inspect_ai")
    directory = tmp_path_factory.mktemp("inspect-logs")
    environment = {**os.environ, "XDG_DATA_HOME": str(directory / "data"), "INSPECT_DISPLAY": "none"}
    finished = subprocess.run(
        [sys.executable, str(MAKE_INSPECT_LOG), str(directory / "logs")],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    eval_path, json_path = (Path(line) for line in finished.stdout.strip().splitlines()[-2:])
    return eval_path, json_path


def test_one_promptfoo_file_with_two_columns_compares_column_1_with_2() -> None:
    result = compare(str(PROMPTFOO), "--json", "--resamples", "500")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    eval_id = json.loads(PROMPTFOO.read_text())["evalId"]
    assert payload["grading"]["control"]["run_id"] == f"{eval_id}/control"
    assert payload["grading"]["treatment"]["run_id"] == f"{eval_id}/treatment"
    # three tests in each column, paired by description: fewer than 5 pairs → rule 2
    assert payload["n_paired"] == 3 and payload["verdict"] == "UNDERPOWERED"
    # promptfoo graded every assertion itself: nothing graded again here (10 per column)
    assert payload["grading"]["control"]["assertions"] == 10
    assert payload["grading"]["control"]["assertions_graded_here"] == 0
    # the same comparison named explicitly, by name and by number, and from two files
    same = [
        compare(str(PROMPTFOO), "--json", "--resamples", "500", "--control-column", "control"),
        compare(str(PROMPTFOO), "--json", "--resamples", "500", "--treatment-column", "2"),
        compare(
            str(PROMPTFOO),
            str(PROMPTFOO),
            "--json",
            "--resamples",
            "500",
            "--from",
            "promptfoo",
            "--control-column",
            "1",
            "--treatment-column",
            "treatment",
        ),
    ]
    for other in same:
        assert other.exit_code == 0, other.output
        assert json.loads(other.stdout)["composite"] == payload["composite"]
    swapped = json.loads(
        compare(
            str(PROMPTFOO),
            "--json",
            "--resamples",
            "500",
            "--control-column",
            "treatment",
            "--fail-on",
            "none",
        ).stdout
    )
    assert swapped["grading"]["control"]["run_id"] == f"{eval_id}/treatment"
    assert swapped["composite"]["diff"] == pytest.approx(-payload["composite"]["diff"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # two files, each with two columns: which one is the control?
        ([str(PROMPTFOO)], "has 2 columns (1. control, 2. treatment); choose one with --control-column"),
        (
            [str(PROMPTFOO), "--control-column", "control"],
            "has 2 columns (1. control, 2. treatment); choose one with --treatment-column",
        ),
        (
            [str(PROMPTFOO), "--control-column", "3", "--treatment-column", "1"],
            "--control-column: "
            + str(PROMPTFOO)
            + " has no column '3'; its columns are 1. control, 2. treatment",
        ),
    ],
)
def test_column_errors_name_the_columns(args: list[str], message: str) -> None:
    result = compare(str(PROMPTFOO), *args)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())


def test_one_file_column_errors(runs: dict[str, Path]) -> None:
    same = compare(str(PROMPTFOO), "--control-column", "2", "--treatment-column", "treatment")
    assert same.exit_code == 2 and "name the same column (treatment)" in same.stderr
    alone = compare(str(runs["base"]))
    assert alone.exit_code == 2
    assert "holds one run (1. base); give a TREATMENT run file too" in " ".join(alone.stderr.split())


def test_formats_are_told_by_content_or_named(runs: dict[str, Path], tmp_path: Path) -> None:
    # a promptfoo file against one of our run files: auto detection reads each correctly
    mixed = compare(str(runs["base"]), str(PROMPTFOO), "--treatment-column", "control", "--json")
    assert mixed.exit_code == 0, mixed.output
    assert json.loads(mixed.stdout)["n_paired"] == 0  # no common sample ids
    wrong = compare(str(runs["base"]), str(runs["better"]), "--from", "promptfoo")
    assert wrong.exit_code == 2 and "results.results" in wrong.stderr
    unknown = compare(str(runs["base"]), str(runs["better"]), "--from", "csv")
    assert unknown.exit_code == 2 and "Unknown run format 'csv'" in unknown.stderr
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"hello": "world"}))
    undetected = compare(str(odd), str(runs["better"]))
    assert undetected.exit_code == 2 and "cannot tell its format" in undetected.stderr
    assert "--from aaaf|inspect_ai|promptfoo" in " ".join(undetected.stderr.split())


def test_inspect_logs_on_the_cli(inspect_logs: tuple[Path, Path], tmp_path: Path) -> None:
    eval_log, json_log = inspect_logs
    solo = runner.invoke(app, ["eval", "score", str(eval_log), "--json", "--resamples", "500"])
    assert solo.exit_code == 0, solo.output
    payload = json.loads(solo.stdout)
    # the mock model answers 2 of 3 questions right; inspect's includes and exact agree:
    # fact per sample 5, 1, 5 (both pass / both fail) → mean 11/3
    assert payload["layers"]["fact"]["score"] == pytest.approx(11 / 3)
    assert payload["grading"]["assertions"] == 6 and payload["grading"]["assertions_graded_here"] == 0
    # the .eval log against its own .json conversion (auto-detected): the same run, paired
    both = compare(str(eval_log), str(json_log), "--json", "--resamples", "500")
    assert both.exit_code == 0, both.output
    paired = json.loads(both.stdout)
    assert paired["n_paired"] == 3 and paired["composite"]["diff"] == 0.0
    # import to our format, then compare the imported file with the original log
    imported = runner.invoke(
        app, ["eval", "import", str(eval_log), "--output", str(tmp_path / "runs"), "--json"]
    )
    assert imported.exit_code == 0, imported.output
    (written,) = json.loads(imported.stdout)["runs"]
    assert Path(written["path"]) == tmp_path / "runs" / "mockllm-model.json"
    assert written["variant"] == "mockllm/model" and written["samples"] == 3
    assert written["import_notes"][0].startswith("sample add-1: score of scorer 'answer_length'")
    again = compare(written["path"], str(eval_log), "--json", "--resamples", "500")
    assert json.loads(again.stdout)["composite"] == paired["composite"]
    explicit = compare(str(json_log), str(json_log), "--from", "inspect_ai", "--json", "--resamples", "500")
    assert json.loads(explicit.stdout)["composite"] == paired["composite"]


def test_eval_import_of_promptfoo_writes_one_run_per_column(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["eval", "import", str(PROMPTFOO), "--from", "promptfoo", "--output", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["control.json", "treatment.json"]
    control = json.loads((tmp_path / "control.json").read_text())
    assert control["variant"] == "control" and control["source"] == "promptfoo"
    assert [s["sample_id"] for s in control["samples"]] == ["capital-of-france", "two-plus-two", "json-shape"]
    # the imported files compare exactly like the two columns of the original file
    from_files = compare(str(tmp_path / "control.json"), str(tmp_path / "treatment.json"), "--json")
    from_columns = compare(str(PROMPTFOO), "--json")
    assert json.loads(from_files.stdout)["composite"] == json.loads(from_columns.stdout)["composite"]
    assert (
        runner.invoke(
            app, ["eval", "import", str(PROMPTFOO), "--from", "inspect_ai", "--output", str(tmp_path)]
        ).exit_code
        == 2
    )


# --------------------------------------------------------------------------- model judges on the CLI


def _judged_run(run_id: str, qualities: list[int]) -> dict[str, Any]:
    """Samples whose output states a quality q; one ungraded contains assertion each, no judges."""
    return {
        "run_id": run_id,
        "variant": run_id,
        "samples": [
            {
                "sample_id": f"s{i}",
                "input": f"question {i}",
                "output": f"answer quality {q}",
                "assertions": [{"type": "contains", "value": "answer"}],
                "judges": [],
            }
            for i, q in enumerate(qualities)
        ],
    }


QUALITY = re.compile(r"<response>\nanswer quality (\d)\n</response>")


def quality_judge(body: dict[str, Any]) -> tuple[int, Any]:
    """judge-good reads the quality; judge-bad reads it too but cannot answer quality 1."""
    quality = int(QUALITY.search(body["messages"][0]["content"]).group(1))  # type: ignore[union-attr]
    if body["model"] == "model-bad" and quality == 1:
        return 200, completion("I would say about a one.")  # malformed: never guessed
    return 200, completion(json.dumps({"score": quality, "reason": f"quality {quality}"}))


@pytest.fixture()
def judged_runs(tmp_path: Path) -> dict[str, Path]:
    control = [1 + i % 5 for i in range(12)]
    treatment = [min(5, q + 1) for q in control]
    paths = {}
    for name, qualities in (("control", control), ("treatment", treatment)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(_judged_run(name, qualities)))
        paths[name] = path
    return paths


def test_judges_grade_both_runs_and_failures_are_reported_not_scored(
    chat_server: ChatServer,  # noqa: F811
    judged_runs: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AAAF_JUDGE_API_KEY", "sk-test-123")
    get_settings.cache_clear()
    chat_server.responder = quality_judge
    try:
        result = compare(
            str(judged_runs["control"]),
            str(judged_runs["treatment"]),
            "--judge",
            "good=model-good",
            "--judge",
            "bad=model-bad",
            "--judge-url",
            chat_server.base_url,
            "--json",
            "--resamples",
            "1000",
        )
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    # 12 samples × 2 runs × 2 judges, each asked once, with the key from the settings
    assert len(chat_server.requests) == 48
    assert {r["headers"]["Authorization"] for r in chat_server.requests} == {"Bearer sk-test-123"}
    control, treatment = payload["grading"]["control"], payload["grading"]["treatment"]
    # control qualities 1,2,3,4,5 repeating: quality 1 at s0, s5, s10 → 3 failed judgements by 'bad'
    assert (control["assertions_graded_here"], control["judge_scores"], control["judge_failures"]) == (
        12,
        21,
        3,
    )
    assert control["failure_reasons"][0].startswith("bad: unparseable judge reply")
    assert len(control["failure_reasons"]) == 3
    # treatment qualities are q + 1 ≥ 2: no failure
    assert (treatment["judge_scores"], treatment["judge_failures"]) == (24, 0)
    # control q = 1,2,3,4,5,1,2,3,4,5,1,2; treatment min(5, q + 1): the judge layer moves +1
    # except where q = 5 (s4, s9: 5 → 5).  Where 'bad' failed (q = 1) the control's judge
    # layer is good's 1 alone, the treatment's (2 + 2)/2 = 2: still +1.  Mean 10/12.
    assert payload["layers"]["judge"]["diff"] == pytest.approx(10 / 12)
    text = compare(
        str(judged_runs["control"]),
        str(judged_runs["treatment"]),
        "--judge",
        "bad=model-bad",
        "--judge-url",
        chat_server.base_url,
        "--resamples",
        "1000",
    )
    assert (
        "grading control control: 12 of 12 assertions graded here, 9 judge scores, 3 failed judgements"
        in text.stdout
    )
    assert "(not scored): bad: unparseable judge reply" in text.stdout


def test_judge_endpoint_from_settings_and_option_errors(
    chat_server: ChatServer,  # noqa: F811
    judged_runs: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AAAF_JUDGE_BASE_URL", chat_server.base_url)
    monkeypatch.delenv("AAAF_JUDGE_API_KEY", raising=False)
    get_settings.cache_clear()
    chat_server.responder = quality_judge
    try:
        result = runner.invoke(
            app,
            [
                "eval",
                "score",
                str(judged_runs["treatment"]),
                "--judge",
                "model-good",
                "--rubric",
                "synthesis_quality",
                "--json",
            ],
        )
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["grading"]["judge_scores"] == 12
        body = chat_server.requests[0]["body"]
        assert body["model"] == "model-good"
        assert "synthesis" in body["messages"][0]["content"].lower()
        assert "Authorization" not in chat_server.requests[0]["headers"]
        bad_rubric = runner.invoke(
            app, ["eval", "score", str(judged_runs["treatment"]), "--judge", "m", "--rubric", "vibes"]
        )
        assert bad_rubric.exit_code == 2 and "Unknown rubric 'vibes'" in bad_rubric.stderr
        empty = runner.invoke(app, ["eval", "score", str(judged_runs["treatment"]), "--judge", "name="])
        assert empty.exit_code == 2 and "expected NAME=MODEL" in empty.stderr
        lonely = runner.invoke(
            app, ["eval", "score", str(judged_runs["treatment"]), "--rubric", "synthesis_quality"]
        )
        assert lonely.exit_code == 2 and "no --judge given" in lonely.stderr
        monkeypatch.delenv("AAAF_JUDGE_BASE_URL")
        get_settings.cache_clear()
        nowhere = runner.invoke(app, ["eval", "score", str(judged_runs["treatment"]), "--judge", "m"])
        assert nowhere.exit_code == 2 and "--judge-url or set AAAF_JUDGE_BASE_URL" in nowhere.stderr
    finally:
        get_settings.cache_clear()


def _labels(path: Path, runs: dict[str, Path], flip: bool) -> Path:
    """Human labels equal to each output's quality (or reversed: 6 - q) on every sample of both runs."""
    labels = []
    for name, file in runs.items():
        for sample in json.loads(file.read_text())["samples"]:
            quality = int(sample["output"].rsplit(" ", 1)[1])
            labels.append(
                {"run": name, "sample_id": sample["sample_id"], "human": 6 - quality if flip else quality}
            )
    path.write_text("\n".join(json.dumps(label) for label in labels))
    return path


def test_calibration_accepts_an_aligned_judge(
    chat_server: ChatServer,  # noqa: F811
    judged_runs: dict[str, Path],
    tmp_path: Path,
) -> None:
    chat_server.responder = quality_judge
    labels = _labels(tmp_path / "labels.jsonl", judged_runs, flip=False)
    result = compare(
        str(judged_runs["control"]),
        str(judged_runs["treatment"]),
        "--judge",
        "good=model-good",
        "--judge-url",
        chat_server.base_url,
        "--require-calibration",
        "--human-labels",
        str(labels),
        "--json",
        "--resamples",
        "1000",
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    # the judge says exactly the label on all 24 labelled samples: ρ = 1
    assert payload["calibration"]["good"]["accepted"] is True
    assert payload["calibration"]["good"]["spearman"] == pytest.approx(1.0)
    assert payload["calibration"]["good"]["n"] == 24
    assert payload["calibration"]["good"]["dimension"] == "default"
    assert len(chat_server.requests) == 24  # calibration scores are kept, not asked again
    assert payload["badges"]["human_aligned"]["value"] is True


def test_calibration_refuses_a_misaligned_judge_before_grading(
    chat_server: ChatServer,  # noqa: F811
    judged_runs: dict[str, Path],
    tmp_path: Path,
) -> None:
    chat_server.responder = quality_judge
    labels = _labels(tmp_path / "labels.jsonl", judged_runs, flip=True)
    result = compare(
        str(judged_runs["control"]),
        str(judged_runs["treatment"]),
        "--judge",
        "good=model-good",
        "--judge-url",
        chat_server.base_url,
        "--require-calibration",
        "--human-labels",
        str(labels),
    )
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "judge 'good' is refused for 'default': Spearman ρ = -1.0000 < 0.8 on 24 items" in message
    assert result.stdout == ""  # no verdict from a refused judge


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (None, "needs human labels"),
        ({"s0": 3}, "names no run; with several runs each label needs `run`"),
        (
            [{"run": "elsewhere", "sample_id": "s0", "human": 3}],
            "names run 'elsewhere', which is not graded here",
        ),
        ([{"run": "control", "sample_id": "s99", "human": 3}], "run control has no such sample"),
        ([{"run": "control", "sample_id": "s0", "human": 7}], "a label is a number from 1 to 5"),
    ],
)
def test_human_label_errors(
    chat_server: ChatServer,  # noqa: F811
    judged_runs: dict[str, Path],
    tmp_path: Path,
    labels: Any,
    message: str,
) -> None:
    args = [
        str(judged_runs["control"]),
        str(judged_runs["treatment"]),
        "--judge",
        "good=model-good",
        "--judge-url",
        chat_server.base_url,
        "--require-calibration",
    ]
    if labels is not None:
        (tmp_path / "labels.json").write_text(json.dumps(labels))
        args += ["--human-labels", str(tmp_path / "labels.json")]
    result = compare(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert chat_server.requests == []  # bad labels are found before any judge is asked


# --------------------------------------------------------------------------- grade once, compare later


def test_eval_grade_writes_the_graded_run_for_a_later_compare(
    chat_server: ChatServer,  # noqa: F811
    judged_runs: dict[str, Path],
    tmp_path: Path,
) -> None:
    chat_server.responder = quality_judge
    graded = {}
    for name in ("control", "treatment"):
        output = tmp_path / "graded" / f"{name}.json"
        result = runner.invoke(
            app,
            [
                "eval",
                "grade",
                str(judged_runs[name]),
                "--judge",
                "good=model-good",
                "--judge-url",
                chat_server.base_url,
                "--output",
                str(output),
                "--json",
            ],
        )
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["grading"]["judge_scores"] == 12
        graded[name] = output
    run = json.loads(graded["control"].read_text())
    first = run["samples"][0]
    assert first["assertions"][0] == {
        "type": "contains",
        "passed": True,
        "weight": 1.0,
        "value": "answer",
        "reason": first["assertions"][0]["reason"],
        "grader": "code:contains",
    }
    (entry,) = first["judges"]
    assert (entry["judge"], entry["score"], entry["model"]) == ("good", 1.0, "model-good")
    assert entry["prompt_sha256"] == "28bbf322d65334eebada23cb9c8a8c96fd265537d0d42cbdd1627b2fe16cbdbc"
    asked = len(chat_server.requests)
    assert asked == 24
    # later, without the endpoint: the recorded grades and judge scores are used as they are
    later = compare(str(graded["control"]), str(graded["treatment"]), "--json")
    assert later.exit_code == 0, later.output
    payload = json.loads(later.stdout)
    assert payload["layers"]["judge"]["diff"] == pytest.approx(10 / 12)  # +1 except q = 5 (s4, s9)
    assert payload["grading"]["control"]["assertions_graded_here"] == 12  # the recorded method
    # naming the same judge again asks nothing: every sample already has its score
    compare(
        str(graded["control"]),
        str(graded["treatment"]),
        "--judge",
        "good=model-good",
        "--judge-url",
        chat_server.base_url,
    )
    assert len(chat_server.requests) == asked
    # without --output the graded run goes to stdout
    piped = runner.invoke(app, ["eval", "grade", str(judged_runs["control"])])
    assert piped.exit_code == 0
    assert json.loads(piped.stdout)["samples"][0]["assertions"][0]["grader"] == "code:contains"


def test_every_compare_and_eval_option_is_documented() -> None:
    import typer.main

    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    command = typer.main.get_command(app)
    commands = [command.commands["compare"], *command.commands["eval"].commands.values()]  # type: ignore[attr-defined]
    missing = [
        f"{c.name} {opt}"
        for c in commands
        for param in c.params
        if param.param_type_name == "option"
        for opt in param.opts
        if opt != "--help" and f"`{opt}" not in text
    ]
    assert not missing, f"docs/cli.md does not document {missing}"


def test_malformed_assertion_exits_2_while_missing_input_fails_the_assertion(tmp_path: Path) -> None:
    samples = [
        {"sample_id": f"s{i}", "output": "Paris", "assertions": [{"type": "regex", "value": "^Par"}]}
        for i in range(6)
    ]
    samples[5] = {"sample_id": "s5", "assertions": [{"type": "regex", "value": "^Par"}]}  # no output
    good = _write(tmp_path / "good.json", "good", samples)
    payload = json.loads(runner.invoke(app, ["eval", "score", str(good), "--json"]).stdout)
    # 5 samples pass (fact 5), the one without output fails (fact 1): (5 × 5 + 1) / 6
    assert payload["layers"]["fact"]["score"] == pytest.approx(26 / 6)
    graded = json.loads(runner.invoke(app, ["eval", "grade", str(good)]).stdout)
    assert graded["samples"][5]["assertions"][0]["passed"] is False
    assert graded["samples"][5]["assertions"][0]["reason"] == "the sample has no output to grade"
    broken = [dict(s) for s in samples]
    broken[2] = {**samples[2], "assertions": [{"type": "regex", "value": "(unclosed"}]}
    bad = _write(tmp_path / "bad.json", "bad", broken)
    for args in (["eval", "score", str(bad)], ["compare", str(good), str(bad)], ["eval", "grade", str(bad)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert "Sample s2:" in result.stderr
