"""The grading pass (aaaf.services.evals.grade_run): grade, judge, then the pure layered scoring."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.evals.models import EvalRun, parse_run, to_layered
from aaaf.graders import Judge, JudgeEnsemble, calibrate
from aaaf.graders.similarity import LEXICAL_METHOD
from aaaf.scoring.layered import score_run
from aaaf.services.evals import grade_run
from tests.graders.conftest import ChatServer, completion

DEFAULT_HASH = "28bbf322d65334eebada23cb9c8a8c96fd265537d0d42cbdd1627b2fe16cbdbc"


def make_run() -> dict[str, Any]:
    return {
        "run_id": "r1",
        "variant": "treatment",
        "samples": [
            {
                "sample_id": "s1",
                "input": "Capital of France?",
                "output": "Paris is the capital of France.",
                "tool_calls": [{"name": "search", "arguments": {"q": "France"}}, {"name": "answer"}],
                "turns": 3,
                "cost_usd": 0.02,
                "latency_ms": 900,
                "assertions": [
                    {"type": "contains", "value": "Paris", "weight": 2},
                    {"type": "regex", "value": "^London"},
                    {"type": "json_schema", "passed": True, "reason": "checked upstream"},  # pre-graded: kept
                    {"type": "tool_called", "value": "search"},
                    {"type": "max_turns", "value": 2},
                    {"type": "max_latency", "value": 1000},
                ],
                "judges": [],
            },
            {
                "sample_id": "s2",
                "input": "Capital of Spain?",
                "assertions": [{"type": "contains", "value": "Madrid"}],
                "judges": [],
            },
        ],
    }


def responder(body: dict[str, Any]) -> tuple[int, Any]:
    prompt = body["messages"][0]["content"]
    first = "<response>\nParis" in prompt
    replies = {
        ("judge-a", True): '{"score": 5, "reason": "correct"}',
        ("judge-b", True): '{"score": 2, "reason": "too terse"}',
        ("judge-a", False): "no answer to grade, so 1?",  # malformed: a failed judgement
        ("judge-b", False): '{"score": 4, "reason": "fine"}',
    }
    return 200, completion(replies[(body["model"], first)])


def ensemble(server: ChatServer) -> JudgeEnsemble:
    return JudgeEnsemble(
        [Judge(server.base_url, name, backoff_seconds=0.0) for name in ("judge-a", "judge-b")]
    )


def test_assertions_are_graded_with_reason_and_method_and_pre_graded_ones_kept() -> None:
    graded = grade_run(make_run())
    s1, s2 = graded["samples"]
    verdicts = [(a["type"], a["passed"]) for a in s1["assertions"]]
    assert verdicts == [
        ("contains", True),
        ("regex", False),
        ("json_schema", True),
        ("tool_called", True),
        ("max_turns", False),
        ("max_latency", True),
    ]
    assert s1["assertions"][0]["grader"] == "code:contains"
    assert s1["assertions"][1]["reason"] == "output does not match /^London/"
    assert s1["assertions"][2] == {
        "type": "json_schema",
        "passed": True,
        "weight": 1.0,
        "reason": "checked upstream",
    }
    assert s1["assertions"][4]["measured"] == 3.0
    assert s2["assertions"][0]["passed"] is False
    assert s2["assertions"][0]["reason"] == "the sample has no output to grade"


def test_the_input_run_is_not_modified() -> None:
    run = make_run()
    before = copy.deepcopy(run)
    grade_run(run)
    assert run == before


def test_judges_score_every_sample_and_failures_are_recorded_not_scored(chat_server: ChatServer) -> None:
    chat_server.responder = responder
    graded = grade_run(make_run(), judges=ensemble(chat_server))
    s1, s2 = graded["samples"]
    assert [(j["judge"], j["score"]) for j in s1["judges"]] == [("judge-a", 5.0), ("judge-b", 2.0)]
    assert s1["judges"][0]["reason"] == "correct"
    assert {j["prompt_sha256"] for j in s1["judges"] + s2["judges"]} == {DEFAULT_HASH}
    assert s1["judges"][0]["calibrated"] is False
    assert [(j["judge"], j["score"]) for j in s2["judges"]] == [("judge-b", 4.0)]
    (failure,) = s2["judge_failures"]
    assert failure["judge"] == "judge-a"
    assert failure["raw"] == "no answer to grade, so 1?"
    assert failure["reason"].startswith("unparseable judge reply")
    assert failure["prompt_sha256"] == DEFAULT_HASH
    assert len(chat_server.requests) == 4


def test_then_the_pure_layered_scoring_reads_the_graded_run(chat_server: ChatServer) -> None:
    chat_server.responder = responder
    graded = grade_run(make_run(), judges=ensemble(chat_server), concurrency=1)
    scores = score_run(to_layered(parse_run(graded)))
    s1, s2 = scores.samples
    # s1 fact: contains (w2) pass, regex (w1) fail, json_schema (w1) pass → 1 + 4·3/4 = 4.0
    assert s1.fact == 4.0
    # s1 behavior: tool_called pass, max_turns fail, max_latency pass (w1 each) → 1 + 4·2/3
    assert s1.behavior == pytest.approx(1 + 8 / 3)
    # s1 judge: mean(5, 2) = 3.5;  composite = (4 + 11/3 + 3.5) / 3
    assert s1.judge == 3.5
    assert s1.composite == pytest.approx((4.0 + 11 / 3 + 3.5) / 3)
    # s2: fact 1 + 4·0/1 = 1; no behavior; judge 4 (judge-a failed) → composite (1 + 4) / 2 = 2.5
    assert (s2.fact, s2.behavior, s2.judge, s2.composite, s2.layers_used) == (1.0, None, 4.0, 2.5, 2)


def test_grading_again_asks_only_the_judges_that_have_not_scored(chat_server: ChatServer) -> None:
    chat_server.responder = responder
    judges = ensemble(chat_server)
    once = grade_run(make_run(), judges=judges)
    assert len(chat_server.requests) == 4
    twice = grade_run(once, judges=judges)
    assert len(chat_server.requests) == 5  # only judge-a on s2, which failed the first time
    assert twice["samples"][0] == once["samples"][0]
    assert len(twice["samples"][1]["judge_failures"]) == 2


def test_an_eval_run_model_comes_back_as_a_model() -> None:
    graded = grade_run(parse_run(make_run()))
    assert isinstance(graded, EvalRun)
    assert not graded.ungraded()


def test_a_malformed_assertion_names_its_sample() -> None:
    run = make_run()
    run["samples"][1]["assertions"] = [{"type": "regex", "value": "("}]
    with pytest.raises(AAAFError) as raised:
        grade_run(run)
    assert raised.value.code == "INVALID_REQUEST"
    assert raised.value.message.startswith("Sample s2: Assertion 'regex'")
    assert raised.value.details["sample_id"] == "s2"


def test_an_invalid_run_is_refused_naming_the_field() -> None:
    run = make_run()
    run["samples"][0]["assertions"][0]["type"] = "contains_maybe"
    with pytest.raises(AAAFError) as raised:
        grade_run(run)
    # an unknown type is accepted only as another tool's grade (with `passed` and `layer`), so the
    # error names the assertion and its type
    assert "samples[0].assertions[0]: " in raised.value.message
    assert "unknown assertion type 'contains_maybe'" in raised.value.message


def test_the_similarity_method_can_be_chosen_for_the_run() -> None:
    run = make_run()
    run["samples"][0]["assertions"] = [{"type": "similar", "value": "Paris is the capital of France"}]
    graded = grade_run(run, similarity_method="lexical")
    assertion = graded["samples"][0]["assertions"][0]
    assert assertion["passed"] is True
    assert assertion["grader"] == f"code:similar:{LEXICAL_METHOD}"
    assert assertion["measured"] == 1.0


def test_calibration_can_be_required(chat_server: ChatServer) -> None:
    with pytest.raises(AAAFError, match="without an accepted calibration"):
        grade_run(make_run(), judges=ensemble(chat_server), require_calibration=True)
    assert chat_server.requests == []
    human = list(range(1, 16))
    accepted = calibrate(human, human, dimension="default", judge="judge-a")
    chat_server.reply_with('{"score": 3, "reason": "ok"}')
    graded = grade_run(
        make_run(),
        judges=Judge(chat_server.base_url, "judge-a", calibration=accepted, backoff_seconds=0.0),
        require_calibration=True,
    )
    assert graded["samples"][0]["judges"][0]["calibrated"] is True
