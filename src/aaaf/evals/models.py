"""Eval runs at the edge: the run format of SCORING.md §4, its validation, loading and grading.

::

    {run_id, variant, status?, samples: [{sample_id, epoch?, error?, input?, output?,
      tool_calls?: [{name, arguments?}], turns?, assertions: [{type, passed?, weight=1, value?,
      layer?}], judges: [{judge, score 1-5}], human?: 1-5, cost_usd?, latency_ms?}]}

A sample recorded several times (epochs, repeats) carries ``epoch`` (≥ 1) on every
record, ``(sample_id, epoch)`` unique.  ``status`` (the source's, e.g. inspect_ai's
``success`` / ``error``) and a sample's ``error`` say the run did not finish; ``compare``
refuses such a run unless told ``--allow-incomplete`` (SCORING.md §4).  An already graded
assertion of another tool's type names its ``layer`` (``fact`` or ``behavior``).

A run file is either one JSON object of that shape, or JSON Lines: one sample object per
line, optionally preceded by a header line without ``sample_id`` carrying ``run_id`` and
``variant`` (both default to the file's stem).  A JSON list of samples is read the same
way.  Fields beyond the table are kept (graders may read them, importers may add them).

An assertion with ``passed`` is taken as already graded.  One without it is graded by
the one grading pass, ``aaaf.services.evals.grade_run`` (code graders, model judges,
calibration), which records each grade's method and reason; this module only reads,
validates and converts.  :func:`to_layered` turns a fully graded run into the core's
:class:`LayeredRun` and refuses a run with an ungraded assertion.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from aaaf.errors import AAAFError
from aaaf.scoring.layered import (
    ASSERTION_LAYERS,
    GradedAssertion,
    JudgeScore,
    LayeredRun,
    LayeredSample,
)


def _identifier(value: Any) -> Any:
    """Ids may be given as integers in JSON; they are compared as strings."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _finite(value: float | None, name: str) -> float | None:
    if value is not None and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number")
    return value


class ToolCall(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str
    arguments: Any = None


class Assertion(BaseModel):
    """One assertion; ``passed`` present means already graded."""

    model_config = ConfigDict(extra="allow")

    type: str
    passed: bool | None = None
    weight: float = Field(default=1.0, ge=0.0)
    value: Any = None
    reason: str | None = None
    layer: Literal["fact", "behavior"] | None = None

    @model_validator(mode="after")
    def _known_type(self) -> Assertion:
        known = ASSERTION_LAYERS.get(self.type)
        if known is not None:
            if self.layer is not None and self.layer != known:
                raise ValueError(
                    f"assertion type {self.type!r} counts in the {known} layer, not {self.layer!r}"
                )
            return self
        if self.layer is None or self.passed is None:
            raise ValueError(
                f"unknown assertion type {self.type!r}; known types: {', '.join(ASSERTION_LAYERS)} "
                "(another tool's grade is accepted with `passed` and its `layer`)"
            )
        return self

    @field_validator("weight")
    @classmethod
    def _finite_weight(cls, value: float) -> float:
        _finite(value, "weight")
        return value


class JudgeEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    judge: str
    score: float = Field(ge=1.0, le=5.0)

    @field_validator("judge", mode="before")
    @classmethod
    def _judge_name(cls, value: Any) -> Any:
        return _identifier(value)


class EvalSample(BaseModel):
    model_config = ConfigDict(extra="allow")

    sample_id: str
    epoch: int | None = Field(default=None, ge=1)
    error: Any = None
    input: Any = None
    output: Any = None
    tool_calls: list[ToolCall] | None = None
    turns: int | None = Field(default=None, ge=0)
    assertions: list[Assertion] = Field(default_factory=list)
    judges: list[JudgeEntry] = Field(default_factory=list)
    human: float | None = Field(default=None, ge=1.0, le=5.0)
    cost_usd: float | None = Field(default=None, ge=0.0)
    latency_ms: float | None = Field(default=None, ge=0.0)

    @field_validator("sample_id", mode="before")
    @classmethod
    def _sample_id(cls, value: Any) -> Any:
        return _identifier(value)

    @field_validator("human", "cost_usd", "latency_ms")
    @classmethod
    def _finite_numbers(cls, value: float | None) -> float | None:
        return _finite(value, "value")

    @model_validator(mode="after")
    def _one_score_per_judge(self) -> EvalSample:
        names = [entry.judge for entry in self.judges]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"judge(s) {', '.join(duplicates)} scored this sample more than once")
        return self


class EvalRun(BaseModel):
    model_config = ConfigDict(extra="allow")

    run_id: str
    variant: str
    samples: list[EvalSample]
    status: str | None = None

    @field_validator("run_id", "variant", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> Any:
        return _identifier(value)

    @model_validator(mode="after")
    def _unique_samples(self) -> EvalRun:
        """SCORING.md §4: (sample_id, epoch) unique; a repeated sample_id needs `epoch` on every record."""
        records: dict[str, list[int | None]] = {}
        for sample in self.samples:
            records.setdefault(sample.sample_id, []).append(sample.epoch)
        duplicates = sorted(
            sid
            for sid, epochs in records.items()
            if len(epochs) > 1 and (None in epochs or len(set(epochs)) < len(epochs))
        )
        if duplicates:
            raise ValueError(
                f"duplicate sample_id(s) {', '.join(duplicates)}: pairing needs unique ids "
                "(records of one sample need distinct `epoch` numbers)"
            )
        return self

    def ungraded(self) -> list[tuple[EvalSample, Assertion]]:
        return [(sample, a) for sample in self.samples for a in sample.assertions if a.passed is None]


def _location(error: Mapping[str, Any]) -> str:
    parts: list[str] = []
    for item in error.get("loc", ()):
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "run"


def parse_run(data: Any, *, source: str = "run") -> EvalRun:
    """Validate a run object; INVALID_REQUEST naming the first offending field otherwise."""
    if not isinstance(data, Mapping):
        raise AAAFError(
            "INVALID_REQUEST", f"{source}: an eval run must be a JSON object, got {type(data).__name__}."
        )
    try:
        return EvalRun.model_validate(dict(data))
    except ValidationError as error:
        problems = error.errors(include_url=False, include_input=False)
        first = problems[0]
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source}: {_location(first)}: {first['msg']}.",
            {
                "source": source,
                "errors": [{"field": _location(p), "message": p["msg"]} for p in problems],
            },
        ) from None


def _read_json_lines(text: str, source: str) -> list[Any]:
    records: list[Any] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise AAAFError(
                "INVALID_REQUEST",
                f"{source}: line {number} is not valid JSON: {error.msg}.",
                {"line": number},
            ) from None
    return records


def _run_from_records(records: list[Any], *, default_id: str, source: str) -> EvalRun:
    """Samples (objects with sample_id) plus at most one header object (without it)."""
    header: dict[str, Any] = {}
    samples: list[Any] = []
    for position, record in enumerate(records):
        if isinstance(record, Mapping) and "sample_id" not in record:
            if header:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"{source}: record {position + 1} has no sample_id and a header was already given.",
                )
            header = dict(record)
        else:
            samples.append(record)
    body = {"run_id": default_id, "variant": default_id, **header, "samples": samples}
    return parse_run(body, source=source)


def load_run(path: str | Path) -> EvalRun:
    """Read a run file (JSON object, JSON list of samples, or JSON Lines); INVALID_REQUEST if malformed."""
    file = Path(path)
    source = str(file)
    text = file.read_text(encoding="utf-8")
    stripped = text.lstrip()
    if file.suffix.lower() == ".jsonl":
        return _run_from_records(_read_json_lines(text, source), default_id=file.stem, source=source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if stripped.startswith("{") and "\n" in stripped.strip():
            # a .json file holding JSON Lines
            return _run_from_records(_read_json_lines(text, source), default_id=file.stem, source=source)
        raise AAAFError("INVALID_REQUEST", f"{source}: not valid JSON: {error.msg}.") from None
    if isinstance(data, list):
        return _run_from_records(data, default_id=file.stem, source=source)
    if isinstance(data, Mapping) and "samples" not in data and "sample_id" in data:
        return _run_from_records([data], default_id=file.stem, source=source)
    if isinstance(data, Mapping) and "samples" in data:
        body = {"run_id": file.stem, "variant": file.stem, **data}
        return parse_run(body, source=source)
    return parse_run(data, source=source)


def to_layered(run: EvalRun) -> LayeredRun:
    """The core's view of a fully graded run (ungraded assertions are a programming error here)."""
    pending = run.ungraded()
    if pending:
        sample, assertion = pending[0]
        raise AAAFError(
            "INVALID_REQUEST",
            f"Sample {sample.sample_id}: assertion {assertion.type!r} is not graded; grade the run first.",
            {"ungraded": len(pending)},
        )
    return LayeredRun(
        run_id=run.run_id,
        variant=run.variant,
        samples=tuple(
            LayeredSample(
                sample_id=sample.sample_id,
                assertions=tuple(
                    GradedAssertion(a.type, bool(a.passed), float(a.weight), a.reason, a.layer)
                    for a in sample.assertions
                ),
                judges=tuple(JudgeScore(j.judge, float(j.score)) for j in sample.judges),
                human=sample.human,
                epoch=sample.epoch,
                error=_error_text(sample.error),
            )
            for sample in run.samples
        ),
        status=run.status,
    )


def _error_text(error: Any) -> str | None:
    """A sample's recorded error as text (None when it has none)."""
    if error is None or error == "" or error == {}:
        return None
    if isinstance(error, Mapping) and isinstance(error.get("message"), str):
        return str(error["message"])
    return error if isinstance(error, str) else json.dumps(error, sort_keys=True)
