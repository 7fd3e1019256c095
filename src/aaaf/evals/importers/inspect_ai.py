"""inspect_ai eval logs → an eval run of SCORING.md §4.

One log (one task × one model) is one run: ``run_id`` is the log's ``eval.run_id``
(``eval.eval_id`` when absent), ``variant`` the model (``eval.model``).  Per sample
(and epoch):

* ``sample_id`` — the sample's ``id``; with several epochs each record also carries
  ``epoch`` (SCORING.md §4: the records of one sample are one unit, averaged and
  resampled together — never ``id#epochN`` as independent samples);
* ``input``, ``target`` (kept as the judge's reference), ``output`` — the final
  completion (``output.completion``);
* ``tool_calls`` — every assistant tool call in message order, ``{name, arguments}``;
* ``turns`` — ``turn_count`` when the log has it, else the number of assistant messages;
* ``cost_usd`` — the sum of ``model_usage[*].total_cost`` when the log records costs;
* ``latency_ms`` — ``total_time`` × 1000;
* ``assertions`` — one already-graded assertion per score of a scorer with a known
  assertion type (:data:`SCORER_TYPES`, extendable with ``scorer_types``).  inspect's
  value ``"C"`` (CORRECT) or ``true`` passes; ``"I"``, ``"P"`` (partial: not a full pass)
  and ``"N"`` fail; a number passes when ≥ 1 (≥ the ``similar`` threshold 0.8 for scorers
  mapped to ``similar``, such as ``f1``).  The reason gives the scorer, its value and
  its explanation; ``source`` names the scorer.  No ``value`` is given: inspect's scorers normalise text in
  their own ways, so AAAF's grader of the same type could disagree with the verdict.

* ``judges`` — model-graded scorers (``model_graded_qa``, ``model_graded_fact``, any
  scorer whose options or score metadata name a grader model) are judges, not
  assertions (SCORING.md §4 'Importers'): ``C`` 5, ``P`` 3, ``I`` 1, a number in [0, 1]
  as 1 + 4 × value; the judge is named by the scorer.

A score that cannot be mapped (an unknown scorer, a dict-valued score, a value of
another kind) is not guessed into the run: it is listed in the run's ``import_notes``.
The log's ``status`` is kept as the run's ``status``; a sample that errored is imported
with its ``error`` and whatever it produced.  A run whose status is not ``success`` or
with an errored sample did not finish: ``compare`` refuses it unless told
``--allow-incomplete``, and then leaves the errored samples out.

``.json`` logs are read as JSON directly; ``.eval`` logs (a zip with zstd members) are
read with inspect_ai's own reader, so inspect_ai must be installed for them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.graders.assertions import ASSERTION_TYPES, DEFAULT_SIMILAR_THRESHOLD
from aaaf.inflation import check_archive

# inspect_ai's built-in scorers and the assertion type each is closest to.  The verdict
# is inspect's; the type decides the layer (fact or behavior) it counts in.
SCORER_TYPES: Mapping[str, str] = {
    "includes": "contains",
    "match": "contains",
    "exact": "equals",
    "answer": "equals",
    "choice": "equals",
    "pattern": "regex",
    "f1": "similar",
}
# SCORING.md §4: model-graded scorers are judges; a grade letter or a number in [0, 1] maps to 1-5.
MODEL_GRADED_SCORERS: tuple[str, ...] = ("model_graded_qa", "model_graded_fact")
JUDGE_GRADES: Mapping[str, float] = {"C": 5.0, "P": 3.0, "I": 1.0}
_MODEL_KEYS = ("model", "grader_model", "grader")


def _names_model(options: Any) -> bool:
    return isinstance(options, Mapping) and any(options.get(key) for key in _MODEL_KEYS)


def model_graded_scorers(spec: Mapping[str, Any]) -> set[str]:
    """Scorers of the log's header that are model-graded: by name, or whose options name a model."""
    names = set(MODEL_GRADED_SCORERS)
    for scorer in spec.get("scorers") or []:
        if isinstance(scorer, Mapping) and (
            _names_model(scorer.get("options")) or _names_model(scorer.get("metadata"))
        ):
            names.add(str(scorer.get("name")))
    return names


def _judge_score(value: Any) -> float | None:
    """A model-graded score on the 1-5 scale: C 5, P 3, I 1, a number v in [0, 1] as 1 + 4v."""
    if isinstance(value, str):
        return JUDGE_GRADES.get(value.strip().upper())
    if isinstance(value, bool):
        return 5.0 if value else 1.0
    if isinstance(value, int | float) and math.isfinite(value) and 0.0 <= value <= 1.0:
        return 1.0 + 4.0 * float(value)
    return None


def read_log(path: Path) -> dict[str, Any]:
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise AAAFError("INVALID_REQUEST", f"{path}: not valid JSON: {error.msg}.") from None
        if not isinstance(data, dict):
            raise AAAFError("INVALID_REQUEST", f"{path}: an inspect_ai log is a JSON object.")
        return data
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{path}: reading .eval logs needs the inspect_ai package; install it or convert the "
            "log to JSON (`inspect log convert --to json`).",
        ) from None
    check_archive(path, what=f"{path.name}")
    try:
        log = read_eval_log(str(path))
    except Exception as error:  # inspect's reader raises many kinds for a bad file
        raise AAAFError("INVALID_REQUEST", f"{path}: not a readable inspect_ai log: {error}.") from None
    dumped: dict[str, Any] = log.model_dump(mode="json", exclude_none=True)
    return dumped


def _text(content: Any) -> str | None:
    """Message content as text: a string, or the text parts of a content list."""
    if content is None:
        return None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            part.get("text", "")
            for part in content
            if isinstance(part, Mapping)
            and part.get("type") in ("text", None)
            and isinstance(part.get("text"), str)
        ]
        return "".join(parts)
    return None


def _input(value: Any) -> Any:
    if isinstance(value, list):  # a list of chat messages
        return [
            {"role": m.get("role"), "content": _text(m.get("content"))}
            for m in value
            if isinstance(m, Mapping)
        ]
    return value


def _tool_calls(messages: list[Any]) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    for message in messages:
        if not isinstance(message, Mapping) or message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            if isinstance(call, Mapping) and isinstance(call.get("function"), str):
                calls.append({"name": call["function"], "arguments": call.get("arguments")})
    return calls


def _passed(value: Any, assertion_type: str) -> bool | None:
    """inspect's score value as a verdict; None when it is not a verdict."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        verdicts = {"C": True, "I": False, "P": False, "N": False}
        return verdicts.get(value.strip().upper())
    if isinstance(value, int | float) and math.isfinite(value):
        threshold = DEFAULT_SIMILAR_THRESHOLD if assertion_type == "similar" else 1.0
        return value >= threshold
    return None


def _reason(scorer: str, value: Any, explanation: Any) -> str:
    reason = f"inspect_ai scorer {scorer} scored {json.dumps(value)}"
    if isinstance(explanation, str) and explanation.strip():
        shown = explanation.strip()
        reason += f": {shown if len(shown) <= 200 else shown[:199] + '…'}"
    return reason


def _id_order(sample_id: Any) -> tuple[int, int, str]:
    """Integer ids in numeric order, then string ids: the run's order does not depend on the log's."""
    if isinstance(sample_id, int) and not isinstance(sample_id, bool):
        return (0, sample_id, "")
    return (1, 0, str(sample_id))


def _cost(model_usage: Any) -> float | None:
    if not isinstance(model_usage, Mapping):
        return None
    costs = [
        usage["total_cost"]
        for usage in model_usage.values()
        if isinstance(usage, Mapping) and isinstance(usage.get("total_cost"), int | float)
    ]
    return math.fsum(costs) if costs else None


def run_from_log(log: Mapping[str, Any], *, scorer_types: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The run of one inspect_ai log, given as its JSON object (see the module docstring)."""
    types = {**SCORER_TYPES, **(scorer_types or {})}
    unknown = sorted(t for t in types.values() if t not in ASSERTION_TYPES)
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST", f"scorer_types maps to unknown assertion type(s): {', '.join(unknown)}."
        )
    spec = log.get("eval")
    if not isinstance(spec, Mapping):
        raise AAAFError("INVALID_REQUEST", "Not an inspect_ai log: it has no `eval` header.")
    raw_samples = log.get("samples") or []
    epochs = {s.get("epoch", 1) for s in raw_samples if isinstance(s, Mapping)}
    judged = model_graded_scorers(spec)
    notes: list[str] = []
    status = log.get("status")
    if status not in (None, "success"):
        notes.append(f"the log's status is {status!r}: the run did not finish")
    samples: list[dict[str, Any]] = []
    for raw in sorted(
        (s for s in raw_samples if isinstance(s, Mapping)),
        key=lambda s: (_id_order(s.get("id")), s.get("epoch", 1)),
    ):
        sample_id = str(raw.get("id"))
        messages = raw.get("messages") or []
        output: Mapping[str, Any] = raw["output"] if isinstance(raw.get("output"), Mapping) else {}
        sample: dict[str, Any] = {"sample_id": sample_id}
        if len(epochs) > 1:
            sample["epoch"] = int(raw.get("epoch", 1))
        sample["input"] = _input(raw.get("input"))
        if raw.get("target") not in (None, "", []):
            sample["target"] = raw["target"]
        completion = output.get("completion")
        if isinstance(completion, str) and not (completion == "" and raw.get("error")):
            sample["output"] = completion
        sample["tool_calls"] = _tool_calls(messages)
        turns = raw.get("turn_count")
        if not isinstance(turns, int):
            turns = sum(1 for m in messages if isinstance(m, Mapping) and m.get("role") == "assistant")
        sample["turns"] = turns
        cost = _cost(raw.get("model_usage"))
        if cost is not None:
            sample["cost_usd"] = cost
        total_time = raw.get("total_time")
        if isinstance(total_time, int | float) and math.isfinite(total_time) and total_time >= 0:
            sample["latency_ms"] = total_time * 1000.0
        if raw.get("error"):
            error = raw["error"]
            sample["error"] = error.get("message") if isinstance(error, Mapping) else str(error)
        where = sample_id if len(epochs) <= 1 else f"{sample_id} (epoch {sample['epoch']})"
        assertions: list[dict[str, Any]] = []
        judges: list[dict[str, Any]] = []
        for scorer, score in sorted((raw.get("scores") or {}).items()):
            value = score.get("value") if isinstance(score, Mapping) else None
            metadata = score.get("metadata") if isinstance(score, Mapping) else None
            if scorer in judged or _names_model(metadata):
                judge = _judge_score(value)
                if judge is None:
                    notes.append(
                        f"sample {where}: score of model-graded scorer {scorer!r} not imported "
                        f"(value {json.dumps(value)} is not a grade)"
                    )
                    continue
                explanation = score.get("explanation") if isinstance(score, Mapping) else None
                judges.append(
                    {
                        "judge": scorer,
                        "score": judge,
                        "reason": _reason(scorer, value, explanation),
                        "source": f"inspect_ai:{scorer}",
                    }
                )
                continue
            assertion_type = types.get(scorer)
            passed = _passed(value, assertion_type or "")
            if assertion_type is None or passed is None:
                why = (
                    "no assertion type"
                    if assertion_type is None
                    else f"value {json.dumps(value)} is not a verdict"
                )
                notes.append(f"sample {where}: score of scorer {scorer!r} not imported ({why})")
                continue
            explanation = score.get("explanation") if isinstance(score, Mapping) else None
            assertions.append(
                {
                    "type": assertion_type,
                    "passed": passed,
                    "weight": 1.0,
                    "reason": _reason(scorer, value, explanation),
                    "source": f"inspect_ai:{scorer}",
                }
            )
        sample["assertions"] = assertions
        sample["judges"] = judges
        samples.append(sample)
    run: dict[str, Any] = {
        "run_id": str(spec.get("run_id") or spec.get("eval_id") or spec.get("task_id") or "inspect"),
        "variant": str(spec.get("model") or "unknown-model"),
        "samples": samples,
        "source": "inspect_ai",
        "task": spec.get("task"),
    }
    if isinstance(status, str):
        run["status"] = status
    errored = sum(1 for sample in samples if sample.get("error"))
    if errored:
        notes.append(f"{errored} errored sample record(s)")
    if notes:
        run["import_notes"] = notes
    return run


def load(path: str | Path, *, scorer_types: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Read an inspect_ai log file (``.eval`` or ``.json``) as a run of SCORING.md §4."""
    file = Path(path)
    if not file.is_file():
        raise AAAFError("INVALID_REQUEST", f"{file}: no such log file.")
    return run_from_log(read_log(file), scorer_types=scorer_types)
