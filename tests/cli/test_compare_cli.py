"""`aaaf compare` and `aaaf eval score` end to end (issue 6 §6, §8): line, JSON, HTML, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app

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
