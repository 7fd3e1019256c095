"""The model judge: a rubric prompt sent to an OpenAI-compatible chat-completions endpoint.

Document 002 §1: the judge layer is the judge's raw 1-5 reading, no post-processing;
document 002 §6: the judge prompt is a measurement invariant, frozen by a hash test,
and a change to it breaks comparability with earlier runs.  So:

* the prompt is a fixed frame (``judge_prompt.txt``) with a rubric's criteria
  (``rubric_*.txt``) filled in; the SHA-256 of that template — before any sample is
  filled in — is :attr:`Rubric.sha256` and is recorded with every judgement, so two
  scores can be compared only when their hashes agree;
* the frame tells the judge that length is not a quality signal: LLM judges
  over-reward verbosity (document 002 lists a length-debias among its invariants);
* the reply is asked for as JSON ``{"score": int, "reason": str}`` and parsed strictly
  (:func:`parse_judge_reply`): one JSON object with exactly those two keys, ``score``
  an integer 1-5 (not ``4.0``, not ``"4"``, not ``true``), ``reason`` a non-empty
  string.  Anything else is a *failed* judgement that keeps the raw reply; a score is
  never guessed from prose;
* HTTP is bounded: a timeout per request and at most ``max_retries`` retries, with
  exponential back-off, on transport errors, 429 and 5xx; other statuses fail at once.
  A judge that cannot be reached yields failed judgements, not an exception, so one
  outage does not lose a run's other grades.

Document 004 §3.4: a judge whose calibration against human labels was refused for a
dimension (Spearman < 0.80, :mod:`aaaf.graders.calibration`) cannot be built for it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from string import Template
from typing import TYPE_CHECKING, Any

import httpx

from aaaf.errors import AAAFError
from aaaf.graders.calibration import Calibration

if TYPE_CHECKING:
    from aaaf.settings import Settings

logger = logging.getLogger(__name__)

DEFAULT_RUBRIC = "default"
BUILT_IN_RUBRICS: tuple[str, ...] = (
    "default",
    "communication_clarity",
    "synthesis_quality",
    "delegation_prompt_quality",
)
SCORE_MIN = 1
SCORE_MAX = 5
_NOT_GIVEN = "(none given)"


def _package_text(name: str) -> str:
    return resources.files("aaaf.graders").joinpath(name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Rubric:
    """A named set of criteria inside the fixed judge frame.

    ``template`` is the whole prompt with ``$input``, ``$reference`` and ``$output``
    still to fill; its SHA-256 identifies the measurement instrument.
    """

    name: str
    criteria: str
    template: str = field(init=False, repr=False)
    sha256: str = field(init=False)

    def __post_init__(self) -> None:
        if not self.name.strip() or not self.criteria.strip():
            raise AAAFError("INVALID_REQUEST", "A rubric needs a name and criteria.")
        frame = Template(_package_text("judge_prompt.txt"))
        template = frame.safe_substitute(rubric_name=self.name, criteria=self.criteria.strip())
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "sha256", hashlib.sha256(template.encode("utf-8")).hexdigest())

    @classmethod
    def built_in(cls, name: str = DEFAULT_RUBRIC) -> Rubric:
        """One of the rubric templates shipped with AAAF (``BUILT_IN_RUBRICS``)."""
        if name not in BUILT_IN_RUBRICS:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Unknown rubric {name!r}; built-in rubrics: {', '.join(BUILT_IN_RUBRICS)}.",
                {"field": "rubric", "value": name},
            )
        return cls(name, _package_text(f"rubric_{name}.txt"))

    def render(self, sample: Mapping[str, Any]) -> str:
        """The prompt for one sample: its input, reference (``reference`` or ``target``) and output."""
        reference = sample.get("reference")
        if reference is None:
            reference = sample.get("target")
        return Template(self.template).safe_substitute(
            input=_as_text(sample.get("input")),
            reference=_as_text(reference),
            output=_as_text(sample.get("output")),
        )


def _as_text(value: Any) -> str:
    if value is None:
        return _NOT_GIVEN
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def default_rubric() -> Rubric:
    return Rubric.built_in(DEFAULT_RUBRIC)


@dataclass(frozen=True)
class Judgement:
    """One judge's reading of one sample; ``failed`` judgements carry ``score`` None and the raw reply."""

    score: int | None
    reason: str
    prompt_sha256: str
    raw: str
    failed: bool
    judge: str = ""
    model: str = ""


class _Unparseable(ValueError):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        raise _Unparseable(f"the reply repeats the key(s) {', '.join(duplicates)}")
    return dict(pairs)


def _reject_constant(name: str) -> Any:
    raise _Unparseable(f"the reply contains {name}, which is not JSON")


def parse_judge_reply(content: str) -> tuple[int, str]:
    """(score, reason) from a judge's reply, or ValueError saying why the reply is refused."""
    try:
        reply = json.loads(content, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)
    except _Unparseable:
        raise
    except (json.JSONDecodeError, RecursionError) as error:
        raise _Unparseable(f"the reply is not one JSON object ({error})") from None
    if not isinstance(reply, dict):
        raise _Unparseable(f"the reply is JSON {type(reply).__name__}, not an object")
    keys = set(reply)
    if keys != {"score", "reason"}:
        missing = sorted({"score", "reason"} - keys)
        extra = sorted(keys - {"score", "reason"})
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else []
        )
        raise _Unparseable("the reply must have exactly the keys score and reason: " + "; ".join(parts))
    score = reply["score"]
    if isinstance(score, bool) or not isinstance(score, int):
        raise _Unparseable(f"score must be an integer, got {json.dumps(score)}")
    if not SCORE_MIN <= score <= SCORE_MAX:
        raise _Unparseable(f"score must be between {SCORE_MIN} and {SCORE_MAX}, got {score}")
    reason = reply["reason"]
    if not isinstance(reason, str) or not reason.strip():
        raise _Unparseable("reason must be a non-empty string")
    return score, reason.strip()


class Judge:
    """One judge: an endpoint, a model and a rubric; :meth:`score` reads one sample.

    ``base_url`` is the API root (``https://api.example.com/v1``); requests go to
    ``{base_url}/chat/completions``.  ``name`` (default: the model) is how its scores
    are labelled in a run's ``judges``; judges in an ensemble must have distinct names.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        rubric: Rubric | str | None = None,
        *,
        name: str | None = None,
        calibration: Calibration | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 2,
        backoff_seconds: float = 0.5,
        temperature: float = 0.0,
        client: httpx.Client | None = None,
    ) -> None:
        if not base_url or not model:
            raise AAAFError("INVALID_REQUEST", "A judge needs a base URL and a model.")
        if not (0 <= max_retries <= 10) or not (timeout_seconds > 0 and math.isfinite(timeout_seconds)):
            raise AAAFError(
                "INVALID_REQUEST",
                f"Judge retries must be 0-10 and its timeout a positive number; got {max_retries}, {timeout_seconds}.",
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.rubric = rubric if isinstance(rubric, Rubric) else Rubric.built_in(rubric or DEFAULT_RUBRIC)
        self.name = name or model
        self.calibration = calibration
        self.max_retries = max_retries
        self.backoff_seconds = max(0.0, backoff_seconds)
        self.temperature = temperature
        if calibration is not None and calibration.applies_to(self.rubric.name) and not calibration.accepted:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Judge {self.name!r} is refused for {self.rubric.name!r}: {calibration.reason}.",
                {"judge": self.name, "dimension": self.rubric.name, "spearman": calibration.spearman},
            )
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._headers = headers
        self._owns_client = client is None
        self._client = client or httpx.Client(timeout=httpx.Timeout(timeout_seconds))

    @classmethod
    def from_settings(
        cls, rubric: Rubric | str | None = None, *, settings: Settings, **options: Any
    ) -> Judge:
        """The judge configured by ``AAAF_JUDGE_BASE_URL`` / ``AAAF_JUDGE_MODEL`` / ``AAAF_JUDGE_API_KEY``
        of the ``settings`` the front end hands in (issue 10 §4: never read here)."""
        if not settings.judge_base_url or not settings.judge_model:
            raise AAAFError(
                "INVALID_REQUEST",
                "No model judge is configured: set AAAF_JUDGE_BASE_URL and AAAF_JUDGE_MODEL "
                "(and AAAF_JUDGE_API_KEY if the endpoint needs one).",
            )
        return cls(settings.judge_base_url, settings.judge_model, settings.judge_api_key, rubric, **options)

    @property
    def prompt_sha256(self) -> str:
        return self.rubric.sha256

    @property
    def calibrated(self) -> bool:
        """True when an accepted calibration covers this judge's rubric."""
        return (
            self.calibration is not None
            and self.calibration.accepted
            and self.calibration.applies_to(self.rubric.name)
        )

    def close(self) -> None:
        if self._owns_client:
            self._client.close()

    def __enter__(self) -> Judge:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def request_body(self, sample: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [{"role": "user", "content": self.rubric.render(sample)}],
            "temperature": self.temperature,
            "response_format": {"type": "json_object"},
        }

    def _failed(self, reason: str, raw: str) -> Judgement:
        logger.warning("judge %s: failed judgement: %s", self.name, reason)
        return Judgement(None, reason, self.prompt_sha256, raw, True, self.name, self.model)

    def _post(self, body: dict[str, Any]) -> tuple[httpx.Response | None, str]:
        """The endpoint's final response (None after transport failures) and what went wrong last."""
        url = f"{self.base_url}/chat/completions"
        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self.backoff_seconds * 2 ** (attempt - 1))
            try:
                response = self._client.post(url, json=body, headers=self._headers)
            except httpx.HTTPError as error:
                problem = f"{type(error).__name__}: {error}"
                continue
            if response.status_code == 429 or response.status_code >= 500:
                problem = f"HTTP {response.status_code}"
                if attempt == self.max_retries:
                    return response, problem
                continue
            return response, ""
        return None, problem

    def score(self, sample: Mapping[str, Any]) -> Judgement:
        """Ask the judge about one sample; a reply without a valid 1-5 score is a failed judgement."""
        response, problem = self._post(self.request_body(sample))
        attempts = self.max_retries + 1
        if response is None:
            return self._failed(
                f"the judge endpoint could not be reached after {attempts} attempt(s): {problem}", problem
            )
        if response.status_code != 200:
            return self._failed(
                f"the judge endpoint answered HTTP {response.status_code}"
                + (f" after {attempts} attempt(s)" if problem else ""),
                response.text,
            )
        try:
            body = response.json()
            content = body["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return self._failed("the endpoint's answer is not a chat-completions response", response.text)
        if not isinstance(content, str):
            return self._failed("the judge's reply has no text content", response.text)
        try:
            score, reason = parse_judge_reply(content)
        except ValueError as error:
            return self._failed(f"unparseable judge reply: {error}", content)
        return Judgement(score, reason, self.prompt_sha256, content, False, self.name, self.model)


class JudgeEnsemble:
    """Several judges reading the same samples (document 002: judge agreement is checked later).

    Names must be distinct: a run's ``judges`` entries are keyed by judge name.
    """

    def __init__(self, judges: Sequence[Judge]) -> None:
        if not judges:
            raise AAAFError("INVALID_REQUEST", "A judge ensemble needs at least one judge.")
        names = [judge.name for judge in judges]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Judges in an ensemble need distinct names; repeated: {', '.join(duplicates)}.",
            )
        self.judges: tuple[Judge, ...] = tuple(judges)

    def __iter__(self) -> Any:
        return iter(self.judges)

    def __len__(self) -> int:
        return len(self.judges)

    def score(self, sample: Mapping[str, Any]) -> list[Judgement]:
        """Every judge's judgement of the sample, in the ensemble's order."""
        return [judge.score(sample) for judge in self.judges]

    @staticmethod
    def mean(judgements: Sequence[Judgement]) -> float | None:
        """The judge layer of SCORING.md §4: mean of the valid scores (None when none is valid)."""
        scores = [j.score for j in judgements if not j.failed and j.score is not None]
        return math.fsum(scores) / len(scores) if scores else None

    def close(self) -> None:
        for judge in self.judges:
            judge.close()
