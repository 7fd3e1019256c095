"""Eval-run files (SCORING.md §4): parsing, validation naming the field, grading, conversion, demo runs.

Grading is the one pass of ``aaaf.services.evals.grade_run`` (the real code graders); this
module checks that it fills exactly the ungraded assertions and that the result converts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aaaf.demo.evals import generate_runs
from aaaf.demo.evals import main as demo_main
from aaaf.errors import AAAFError
from aaaf.evals.models import EvalRun, load_run, parse_run, to_layered
from aaaf.scoring.layered import score_run
from aaaf.services.evals import grade_run

RUN = {
    "run_id": "r1",
    "variant": "baseline",
    "samples": [
        {
            "sample_id": 1,
            "output": "Paris is the capital.",
            "assertions": [
                {"type": "icontains", "value": "paris"},
                {"type": "json_schema", "passed": True, "weight": 2},
            ],
            "judges": [{"judge": "a", "score": 4}, {"judge": "b", "score": 5}],
            "human": 4,
        },
        {"sample_id": "2", "assertions": [{"type": "tool_called", "passed": False}], "judges": []},
    ],
}


def test_parse_run_coerces_ids_and_keeps_extra_fields() -> None:
    run = parse_run({**RUN, "eval_set": "geo"})
    assert run.samples[0].sample_id == "1"
    assert run.model_extra == {"eval_set": "geo"}
    assert [a.passed for a in run.samples[0].assertions] == [None, True]
    assert run.samples[0].assertions[1].weight == 2.0


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda r: r["samples"][0]["judges"][0].update(score=6), "samples[0].judges[0].score"),
        (
            # an unknown type without `passed` and `layer` (an imported grade names both)
            lambda r: r["samples"][0]["assertions"][0].update(type="llm-rubric"),
            "samples[0].assertions[0]",
        ),
        (lambda r: r["samples"][0]["assertions"][0].update(weight=-1), "samples[0].assertions[0].weight"),
        (lambda r: r["samples"][1].update(human=0), "samples[1].human"),
        (lambda r: r["samples"][1].update(latency_ms=-5), "samples[1].latency_ms"),
        (lambda r: r.pop("run_id"), "run_id"),
    ],
)
def test_validation_names_the_field(mutate: Any, field: str) -> None:
    data = json.loads(json.dumps(RUN))
    mutate(data)
    with pytest.raises(AAAFError) as excinfo:
        parse_run(data, source="run.json")
    assert excinfo.value.code == "INVALID_REQUEST"
    assert excinfo.value.message.startswith(f"run.json: {field}: ")


def test_duplicate_ids_are_rejected() -> None:
    data = json.loads(json.dumps(RUN))
    data["samples"][1]["sample_id"] = "1"
    with pytest.raises(AAAFError, match="duplicate sample_id"):
        parse_run(data)
    data = json.loads(json.dumps(RUN))
    data["samples"][0]["judges"][1]["judge"] = "a"
    with pytest.raises(AAAFError, match="more than once"):
        parse_run(data)


def test_file_formats(tmp_path: Path) -> None:
    (tmp_path / "whole.json").write_text(json.dumps(RUN))
    assert load_run(tmp_path / "whole.json").run_id == "r1"
    header = {"run_id": "r2", "variant": "candidate"}
    lines = [json.dumps(header)] + [json.dumps(s) for s in RUN["samples"]]  # type: ignore[attr-defined]
    (tmp_path / "lines.jsonl").write_text("\n".join(lines) + "\n\n")
    from_lines = load_run(tmp_path / "lines.jsonl")
    assert (from_lines.run_id, from_lines.variant, len(from_lines.samples)) == ("r2", "candidate", 2)
    (tmp_path / "bare.jsonl").write_text("\n".join(lines[1:]))
    bare = load_run(tmp_path / "bare.jsonl")
    assert (bare.run_id, bare.variant) == ("bare", "bare")
    (tmp_path / "list.json").write_text(json.dumps(RUN["samples"]))
    assert load_run(tmp_path / "list.json").run_id == "list"
    (tmp_path / "broken.jsonl").write_text(lines[1] + "\n{not json\n")
    with pytest.raises(AAAFError, match="line 2 is not valid JSON"):
        load_run(tmp_path / "broken.jsonl")
    (tmp_path / "two-headers.jsonl").write_text("\n".join([lines[0], lines[0], lines[1]]))
    with pytest.raises(AAAFError, match="header was already given"):
        load_run(tmp_path / "two-headers.jsonl")


def test_grading_fills_only_ungraded_assertions() -> None:
    graded = grade_run(parse_run(RUN))
    assert isinstance(graded, EvalRun)  # an EvalRun in, an EvalRun out
    first = graded.samples[0].assertions
    assert (first[0].passed, first[0].model_extra) == (True, {"grader": "code:icontains"})
    assert first[0].reason is not None and "paris" in first[0].reason
    assert (first[1].passed, first[1].reason) == (True, None)  # pre-graded: kept as given
    assert "grader" not in (first[1].model_extra or {})
    layered = to_layered(graded)
    scores = score_run(layered)
    # sample 1: fact weights 1 (passed) + 2 (passed) → 5.0; judge (4 + 5)/2 = 4.5 → composite 4.75
    assert scores.samples[0].fact == 5.0 and scores.samples[0].composite == pytest.approx(4.75)
    # sample 2: behavior 0 of 1 → 1.0, the only layer
    assert (scores.samples[1].behavior, scores.samples[1].layers_used) == (1.0, 1)


def test_missing_output_fails_with_the_graders_reason() -> None:
    data = json.loads(json.dumps(RUN))
    del data["samples"][0]["output"]
    graded = grade_run(parse_run(data))
    assertion = graded.samples[0].assertions[0]
    assert (assertion.passed, assertion.reason) == (False, "the sample has no output to grade")
    # fact: only the pre-graded weight 2 of 3 passes → 1 + 4 × 2/3
    assert score_run(to_layered(graded)).samples[0].fact == pytest.approx(1 + 8 / 3)


def test_conversion_requires_grading() -> None:
    with pytest.raises(AAAFError, match="not graded"):
        to_layered(parse_run(RUN))


def test_fully_pre_graded_runs_convert_without_grading(tmp_path: Path) -> None:
    data = json.loads(json.dumps(RUN))
    data["samples"][0]["assertions"][0]["passed"] = False
    (tmp_path / "graded.json").write_text(json.dumps(data))
    run = load_run(tmp_path / "graded.json")
    assert grade_run(run) == run  # nothing to grade, nothing changed
    # fact: weight 2 of 3 passed → 1 + 4 × 2/3
    assert score_run(to_layered(run)).samples[0].fact == pytest.approx(1 + 8 / 3)


def test_the_real_grader_grades_the_demo_runs(tmp_path: Path) -> None:
    demo_main(["--output", str(tmp_path), "--samples", "12"])
    run = grade_run(load_run(tmp_path / "control.json"))
    assert not run.ungraded()
    for sample in run.samples:
        by_type = {a.type: a for a in sample.assertions}
        answer_found = str(by_type["icontains"].value).lower() in str(sample.output).lower()
        assert by_type["icontains"].passed is answer_found
        tools = {call.name for call in sample.tool_calls or []}
        assert by_type["tool_called"].passed is (by_type["tool_called"].value in tools)
        assert by_type["max_turns"].passed is ((sample.turns or 0) <= by_type["max_turns"].value)


def test_demo_runs_are_deterministic_and_shaped_as_asked(tmp_path: Path) -> None:
    assert generate_runs() == generate_runs()
    demo_main(["--output", str(tmp_path)])
    control = load_run(tmp_path / "control.json")
    treatment = load_run(tmp_path / "treatment.json")
    assert len(control.samples) == len(treatment.samples) == 60
    assert [s.sample_id for s in control.samples] == [s.sample_id for s in treatment.samples]
    assertions = [a for s in control.samples for a in s.assertions]
    assert any(a.passed is None for a in assertions) and any(a.passed is not None for a in assertions)
    assert {j.judge for s in control.samples for j in s.judges} == {
        "judge-gpt",
        "judge-claude",
        "judge-llama",
    }
    labelled = sum(1 for s in control.samples if s.human is not None)
    assert 0 < labelled < 60
