"""The model judge against an OpenAI-compatible server on loopback (document 002, 004 §3.4)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.graders import Judge, JudgeEnsemble, Rubric, calibrate, parse_judge_reply
from aaaf.graders.judge import BUILT_IN_RUBRICS
from aaaf.settings import Settings
from tests.graders.conftest import ChatServer, completion

SAMPLE: dict[str, Any] = {
    "sample_id": "s1",
    "input": "What is the capital of France?",
    "output": "Paris.",
    "target": "Paris",
}

# Frozen: changing the judge prompt breaks comparability with every earlier judge score
# (document 002 §6).  Update these literals only together with a note in the changelog.
FROZEN_PROMPT_SHA256 = {
    "default": "28bbf322d65334eebada23cb9c8a8c96fd265537d0d42cbdd1627b2fe16cbdbc",
    "communication_clarity": "672d4e4a2ccac1cd3cb3e40176e9448390849ac32ee9a6eca8ddcbf63a831b80",
    "synthesis_quality": "542de00ca2cc57bcd34d7fb380a19e2c1205ce12c740aa8b05c6280f1dcd0417",
    "delegation_prompt_quality": "8c96a2de9d01d7557610402e49e2ab61b8541ccf377f4a74d1ec47e03e6a62a2",
}


def judge(server: ChatServer, **options: Any) -> Judge:
    options.setdefault("backoff_seconds", 0.0)
    options.setdefault("timeout_seconds", 10.0)
    return Judge(
        server.base_url, options.pop("model", "judge-model"), options.pop("api_key", "k-123"), **options
    )


def test_the_default_rubric_prompt_hash_is_frozen() -> None:
    rubric = Rubric.built_in()
    assert rubric.sha256 == "28bbf322d65334eebada23cb9c8a8c96fd265537d0d42cbdd1627b2fe16cbdbc"
    assert rubric.sha256 == hashlib.sha256(rubric.template.encode("utf-8")).hexdigest()
    assert {name: Rubric.built_in(name).sha256 for name in BUILT_IN_RUBRICS} == FROZEN_PROMPT_SHA256


def test_the_prompt_says_length_is_not_quality_and_asks_for_json() -> None:
    template = Rubric.built_in().template
    assert "Length is not a quality signal" in template
    assert "over-reward verbosity" in template
    assert '{"score": <an integer from 1 to 5>, "reason":' in template
    prompt = Rubric.built_in().render(SAMPLE)
    assert "<response>\nParis.\n</response>" in prompt
    assert "<reference>\nParis\n</reference>" in prompt
    assert "$" not in prompt.replace("$input", "")  # every placeholder filled


def test_a_sample_cannot_inject_placeholders() -> None:
    prompt = Rubric.built_in().render({"input": "$output", "output": "$reference", "reference": None})
    assert "<task>\n$output\n</task>" in prompt
    assert "<reference>\n(none given)\n</reference>" in prompt


def test_a_valid_reply_is_a_score_with_its_reason_and_the_prompt_hash(chat_server: ChatServer) -> None:
    chat_server.reply_with('{"score": 4, "reason": "Correct and complete; terse."}')
    with judge(chat_server) as j:
        judgement = j.score(SAMPLE)
    assert judgement.failed is False
    assert judgement.score == 4
    assert judgement.reason == "Correct and complete; terse."
    assert judgement.prompt_sha256 == FROZEN_PROMPT_SHA256["default"]
    assert judgement.judge == "judge-model"
    request = chat_server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer k-123"
    body = request["body"]
    assert body["model"] == "judge-model"
    assert body["temperature"] == 0.0
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"] == [{"role": "user", "content": Rubric.built_in().render(SAMPLE)}]


MALFORMED = [
    "4",
    "Score: 4. Good answer.",
    '```json\n{"score": 4, "reason": "fenced"}\n```',
    '{"score": 4.0, "reason": "a float is not an integer"}',
    '{"score": 4.5, "reason": "half"}',
    '{"score": "4", "reason": "a string"}',
    '{"score": true, "reason": "a boolean"}',
    '{"score": 0, "reason": "below the scale"}',
    '{"score": 6, "reason": "above the scale"}',
    '{"score": 4}',
    '{"score": 4, "reason": ""}',
    '{"score": 4, "reason": "two scores", "score": 5}',
    '{"score": 4, "reason": "ok", "confidence": 0.9}',
    '{"scores": [4, 5], "reason": "a list"}',
    '[{"score": 4, "reason": "in a list"}]',
    '{"score": NaN, "reason": "not JSON"}',
    "",
]


@pytest.mark.parametrize("content", MALFORMED)
def test_a_reply_without_exactly_one_valid_score_is_a_failed_judgement(
    chat_server: ChatServer, content: str
) -> None:
    chat_server.reply_with(content)
    judgement = judge(chat_server).score(SAMPLE)
    assert judgement.failed is True
    assert judgement.score is None
    assert judgement.raw == content  # kept for the record
    assert judgement.reason.startswith("unparseable judge reply: ")
    assert judgement.prompt_sha256 == FROZEN_PROMPT_SHA256["default"]
    with pytest.raises(ValueError):
        parse_judge_reply(content)


def test_parse_accepts_whitespace_around_the_object() -> None:
    assert parse_judge_reply('\n  {"reason": " fine ", "score": 5}\n') == (5, "fine")


def test_a_response_that_is_not_chat_completions_is_a_failed_judgement(chat_server: ChatServer) -> None:
    chat_server.responder = lambda body: (200, "<html>gateway</html>")
    judgement = judge(chat_server).score(SAMPLE)
    assert judgement.failed and judgement.raw == "<html>gateway</html>"
    chat_server.responder = lambda body: (200, {"choices": []})
    assert (
        judge(chat_server).score(SAMPLE).reason == "the endpoint's answer is not a chat-completions response"
    )
    chat_server.responder = lambda body: (200, {"choices": [{"message": {"content": None}}]})
    assert judge(chat_server).score(SAMPLE).reason == "the judge's reply has no text content"


def test_server_errors_are_retried_a_bounded_number_of_times(chat_server: ChatServer) -> None:
    statuses = iter([503, 429, 200])
    chat_server.responder = lambda body: (
        (status, completion('{"score": 2, "reason": "partly"}'))
        if (status := next(statuses)) == 200
        else (status, "busy")
    )
    judgement = judge(chat_server, max_retries=2).score(SAMPLE)
    assert judgement.score == 2 and not judgement.failed
    assert len(chat_server.requests) == 3


def test_a_judge_that_stays_down_yields_a_failed_judgement_not_an_exception(chat_server: ChatServer) -> None:
    chat_server.responder = lambda body: (500, "down")
    judgement = judge(chat_server, max_retries=1).score(SAMPLE)
    assert judgement.failed and judgement.reason == "the judge endpoint answered HTTP 500 after 2 attempt(s)"
    assert len(chat_server.requests) == 2


def test_client_errors_are_not_retried(chat_server: ChatServer) -> None:
    chat_server.responder = lambda body: (401, {"error": {"message": "bad key"}})
    judgement = judge(chat_server, max_retries=3).score(SAMPLE)
    assert judgement.failed and judgement.reason == "the judge endpoint answered HTTP 401"
    assert "bad key" in judgement.raw
    assert len(chat_server.requests) == 1


def test_an_unreachable_endpoint_is_a_failed_judgement() -> None:
    # port 9 on loopback: nothing listens, the connection is refused at once
    j = Judge("http://127.0.0.1:9/v1", "m", max_retries=1, backoff_seconds=0.0, timeout_seconds=2.0)
    judgement = j.score(SAMPLE)
    assert judgement.failed and "could not be reached after 2 attempt(s)" in judgement.reason


def test_an_ensemble_scores_with_every_judge_and_averages_the_valid_scores(chat_server: ChatServer) -> None:
    replies = {
        "judge-a": '{"score": 5, "reason": "a"}',
        "judge-b": '{"score": 2, "reason": "b"}',
        "judge-c": "I would say 4",
    }
    chat_server.responder = lambda body: (200, completion(replies[body["model"]]))
    ensemble = JudgeEnsemble([judge(chat_server, model=name) for name in replies])
    judgements = ensemble.score(SAMPLE)
    assert [(j.judge, j.score, j.failed) for j in judgements] == [
        ("judge-a", 5, False),
        ("judge-b", 2, False),
        ("judge-c", None, True),
    ]
    assert JudgeEnsemble.mean(judgements) == 3.5  # (5 + 2) / 2: the failed one is not a score
    assert JudgeEnsemble.mean(judgements[2:]) is None


def test_ensemble_judges_need_distinct_names(chat_server: ChatServer) -> None:
    with pytest.raises(AAAFError, match="distinct names"):
        JudgeEnsemble([judge(chat_server), judge(chat_server)])
    JudgeEnsemble([judge(chat_server), judge(chat_server, name="second")])  # same model, two names: fine
    with pytest.raises(AAAFError):
        JudgeEnsemble([])


def test_a_custom_rubric_has_its_own_hash(chat_server: ChatServer) -> None:
    rubric = Rubric("brevity", "The response is as short as it can be while complete.")
    assert rubric.sha256 != FROZEN_PROMPT_SHA256["default"]
    chat_server.reply_with('{"score": 3, "reason": "fine"}')
    judgement = judge(chat_server, rubric=rubric).score(SAMPLE)
    assert judgement.prompt_sha256 == rubric.sha256
    assert "Rubric: brevity" in chat_server.requests[0]["body"]["messages"][0]["content"]
    with pytest.raises(AAAFError):
        Rubric.built_in("no-such-rubric")


def test_a_judge_refused_by_calibration_cannot_be_built_for_that_dimension(chat_server: ChatServer) -> None:
    human = list(range(1, 16))
    poor = [7, 5, 3, 4, 2, 6, 1, 13, 9, 10, 11, 12, 8, 14, 15]  # ρ = 0.75 (see test_calibration)
    refused = calibrate(poor, human, dimension="default", judge="judge-model")
    assert not refused.accepted
    with pytest.raises(AAAFError) as raised:
        judge(chat_server, calibration=refused)
    assert "refused for 'default'" in raised.value.message and "0.7500" in raised.value.message
    # calibrated on another dimension: this rubric is not covered by the refusal
    other = calibrate(poor, human, dimension="synthesis_quality")
    assert judge(chat_server, calibration=other).calibrated is False
    good = calibrate(human, human, dimension="default")
    assert judge(chat_server, calibration=good).calibrated is True


def test_from_settings(chat_server: ChatServer) -> None:
    settings = Settings(
        judge_base_url=chat_server.base_url, judge_model="settings-model", judge_api_key="sk-x"
    )
    chat_server.reply_with('{"score": 1, "reason": "wrong"}')
    with Judge.from_settings(settings=settings, backoff_seconds=0.0) as j:
        assert j.score(SAMPLE).score == 1
    assert chat_server.requests[0]["body"]["model"] == "settings-model"
    assert chat_server.requests[0]["headers"]["Authorization"] == "Bearer sk-x"
    with pytest.raises(AAAFError, match="AAAF_JUDGE_BASE_URL"):
        Judge.from_settings(settings=Settings(judge_base_url=None, judge_model=None))


def test_judge_settings_are_bounded() -> None:
    with pytest.raises(AAAFError):
        Judge("http://127.0.0.1:1/v1", "m", max_retries=50)
    with pytest.raises(AAAFError):
        Judge("http://127.0.0.1:1/v1", "m", timeout_seconds=0)
    with pytest.raises(AAAFError):
        Judge("", "m")


def test_judge_request_is_json_serialisable_for_structured_samples(chat_server: ChatServer) -> None:
    chat_server.reply_with('{"score": 5, "reason": "ok"}')
    structured = {"input": [{"role": "user", "content": "hi"}], "output": {"answer": 42}}
    assert judge(chat_server).score(structured).score == 5
    content = chat_server.requests[0]["body"]["messages"][0]["content"]
    assert json.dumps({"answer": 42}, indent=1) in content
