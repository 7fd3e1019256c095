"""promptfoo result JSON (``promptfoo eval -o results.json``) → eval runs of SCORING.md §4.

A promptfoo eval crosses tests with prompts and providers; each (provider, prompt)
column is one variant, so one file gives one run per column.  The variant is named by
what differs: the provider's label (or id) when there is one prompt, the prompt's label
when there is one provider, ``"{provider} | {prompt}"`` when both vary.  ``run_id`` is the
file's ``evalId``, suffixed ``/{variant}`` when the file holds several runs.

Per result (one test in one column):

* ``sample_id`` — the test's ``description`` when every test has a distinct one, else
  ``test-{testIdx}``; the same test gets the same id in every column, so runs pair by
  test.  Repeats (``--repeat``) are one sample recorded several times: ``epoch`` 1, 2, …
  in the order of their result ids (SCORING.md §4);
* ``input`` — the rendered prompt; ``vars`` kept as given; ``output`` — the provider's
  output (absent when the provider errored; the error is kept in ``error``, and the run
  did not finish: ``compare`` refuses it unless ``--allow-incomplete``);
* ``latency_ms`` — ``latencyMs``; ``cost_usd`` — ``cost`` when promptfoo recorded one;
* every grade promptfoo recorded (SCORING.md §4 'Importers', 2026-11-23) — each entry of
  ``gradingResult.componentResults``:

  - model-graded types (``llm-rubric``, ``g-eval``, ``model-graded-*``, ``factuality``,
    ``answer-relevance``, ``context-*``, ``select-best``) become judge scores
    1 + 4 × ``score`` (judge named by the type, ``#2``… for a second one in a test);
  - the others become assertions with promptfoo's ``pass`` and ``reason`` and the
    assertion's ``weight`` (default 1): AAAF's own type where there is one
    (:data:`PROMPTFOO_TYPES`; ``not-X`` maps like ``X``, except that a negated
    ``trajectory:tool-used`` is ``tool_not_called``), else promptfoo's type with its
    ``layer`` — behavior for types grading cost, latency, tool calls or trajectories,
    fact for every other (``javascript``, ``python``, ``levenshtein``, …).  promptfoo's
    ``value`` becomes ``value`` only where it means the same to AAAF's grader of that
    type, else ``source_value``;
  - a grader that errored (e.g. a missing API key) is not a failed assertion: it is left
    out and counted in the run's ``grading_errors`` and ``import_notes``.  When grading
    errored before promptfoo recorded any component, the assertions AAAF grades the same
    way (``contains``, ``icontains``, ``equals``, ``regex``, ``similar``, ``latency``,
    ``cost``) are imported ungraded, for AAAF's code graders to grade from the output,
    and the others are counted as grading errors.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError

PROMPTFOO_TYPES: Mapping[str, str] = {
    "contains": "contains",
    "contains-any": "contains",
    "contains-all": "contains",
    "starts-with": "contains",
    "icontains": "icontains",
    "icontains-any": "icontains",
    "icontains-all": "icontains",
    "equals": "equals",
    "regex": "regex",
    "is-json": "json_schema",
    "contains-json": "json_schema",
    "similar": "similar",
    "trajectory:tool-used": "tool_called",
    "trajectory:tool-sequence": "tool_order",
    "latency": "max_latency",
    "cost": "max_cost",
}
_THRESHOLD_TYPES = {"latency", "cost"}
# promptfoo types whose value means exactly what the AAAF type's `value` means; for the
# others (negations, -any/-all, starts-with, contains-json…) it is kept as `source_value`
# so that nobody re-grading the assertion reads it with the wrong meaning.
_SAME_MEANING = {"contains", "icontains", "equals", "regex", "similar", "latency", "cost"}


# SCORING.md §4 'Importers' (2026-11-23): model-graded types become judge scores 1 + 4 × score.
MODEL_GRADED_TYPES: tuple[str, ...] = (
    "llm-rubric",
    "g-eval",
    "factuality",
    "answer-relevance",
    "select-best",
)
MODEL_GRADED_PREFIXES: tuple[str, ...] = ("model-graded-", "context-")
# types that grade cost, latency, tool calls or trajectories count in the behavior layer
BEHAVIOR_TYPES: tuple[str, ...] = (
    "latency",
    "cost",
    "tool-call-f1",
    "is-valid-openai-tools-call",
    "is-valid-openai-function-call",
    "is-valid-function-call",
)
BEHAVIOR_PREFIXES: tuple[str, ...] = ("trajectory:",)


def _base_type(promptfoo_type: str) -> str:
    return promptfoo_type[4:] if promptfoo_type.startswith("not-") else promptfoo_type


def is_model_graded(promptfoo_type: str) -> bool:
    base = _base_type(promptfoo_type)
    return base in MODEL_GRADED_TYPES or base.startswith(MODEL_GRADED_PREFIXES)


def promptfoo_layer(promptfoo_type: str) -> str:
    """'behavior' for types grading cost, latency, tool calls or trajectories, else 'fact'."""
    base = _base_type(promptfoo_type)
    return "behavior" if base in BEHAVIOR_TYPES or base.startswith(BEHAVIOR_PREFIXES) else "fact"


def _aaaf_type(promptfoo_type: str) -> str | None:
    negated = promptfoo_type.startswith("not-")
    base = _base_type(promptfoo_type)
    if base.startswith("similar:"):  # similar:cosine, similar:dot, …
        base = "similar"
    mapped = PROMPTFOO_TYPES.get(base)
    if mapped == "tool_called" and negated:
        return "tool_not_called"
    return mapped


def _results(data: Any, source: str) -> tuple[str, list[dict[str, Any]]]:
    if not isinstance(data, Mapping):
        raise AAAFError("INVALID_REQUEST", f"{source}: a promptfoo result file is a JSON object.")
    block = data.get("results")
    rows = block.get("results") if isinstance(block, Mapping) else block
    if not isinstance(rows, list):
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source}: no `results.results` list; is this the output of `promptfoo eval -o FILE.json`?",
        )
    eval_id = str(data.get("evalId") or Path(source).stem)
    return eval_id, [dict(row) for row in rows if isinstance(row, Mapping)]


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _provider(row: Mapping[str, Any]) -> str:
    provider = row.get("provider")
    if isinstance(provider, Mapping):
        return str(provider.get("label") or provider.get("id") or "provider")
    return str(provider or "provider")


def _prompt(row: Mapping[str, Any]) -> str:
    prompt = row.get("prompt")
    if isinstance(prompt, Mapping) and prompt.get("label"):
        return str(prompt["label"])
    return str(row.get("promptId") or row.get("promptIdx") or "prompt")


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    return None


def _weight(spec: Mapping[str, Any]) -> float:
    weight = spec.get("weight", 1)
    return float(weight) if _number(weight) is not None else 1.0


def _assertion(spec: Mapping[str, Any], passed: bool | None, reason: str) -> dict[str, Any]:
    """One assertion: AAAF's own type where promptfoo's has one, else promptfoo's type and its layer."""
    promptfoo_type = str(spec.get("type"))
    mapped = _aaaf_type(promptfoo_type)
    value = (
        spec.get("threshold")
        if promptfoo_type.removeprefix("not-") in _THRESHOLD_TYPES
        else spec.get("value")
    )
    assertion: dict[str, Any] = {
        "type": mapped if mapped is not None else promptfoo_type,
        "weight": _weight(spec),
        "reason": reason,
        "source": f"promptfoo:{promptfoo_type}",
    }
    if passed is not None:
        assertion["passed"] = bool(passed)
    if mapped is None:
        assertion["layer"] = promptfoo_layer(promptfoo_type)
    same_meaning = mapped is not None and (
        promptfoo_type in _SAME_MEANING
        or (promptfoo_type == "is-json" and isinstance(value, Mapping))  # is-json with a schema
    )
    if value is not None:
        assertion["value" if same_meaning else "source_value"] = value
    if spec.get("threshold") is not None and (mapped == "similar" or mapped is None):
        assertion["threshold"] = spec["threshold"]
    return assertion


def _grading_error(component: Mapping[str, Any]) -> str | None:
    """The error of a grader that did not grade (e.g. a missing API key), or None."""
    error = component.get("error")
    if isinstance(error, str) and error:
        return error
    reason = str(component.get("reason") or "")
    if not component.get("pass") and (reason.startswith("Error") or "API key is not set" in reason):
        return reason
    return None


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 200 else line[:199] + "…"


def _judge(
    spec: Mapping[str, Any], component: Mapping[str, Any], taken: Counter[str]
) -> tuple[dict[str, Any] | None, str | None]:
    """A model-graded component as a judge score 1 + 4 × score, or the reason it cannot be one."""
    promptfoo_type = str(spec.get("type"))
    score = component.get("score")
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0.0 <= score <= 1.0:
        return None, f"score {json.dumps(score)} is not in [0, 1]"
    taken[promptfoo_type] += 1
    name = promptfoo_type if taken[promptfoo_type] == 1 else f"{promptfoo_type}#{taken[promptfoo_type]}"
    provider = spec.get("provider")
    model = provider.get("id") if isinstance(provider, Mapping) else provider
    entry: dict[str, Any] = {
        "judge": name,
        "score": 1.0 + 4.0 * float(score),
        "reason": str(component.get("reason") or ""),
        "source": f"promptfoo:{promptfoo_type}",
        "source_score": score,
    }
    if isinstance(model, str):
        entry["model"] = model
    return entry, None


def _graded(row: Mapping[str, Any], sample: dict[str, Any], notes: list[str], errors: Counter[str]) -> None:
    """Every grade promptfoo recorded for one test, into the sample's assertions and judges."""
    sample_id = sample["sample_id"]
    grading = row.get("gradingResult")
    test = _mapping(row.get("testCase"))
    declared = [a for a in test.get("assert") or [] if isinstance(a, Mapping)]
    assertions: list[dict[str, Any]] = []
    judges: list[dict[str, Any]] = []
    taken: Counter[str] = Counter()
    components: list[Mapping[str, Any]] | None = None
    if isinstance(grading, Mapping) and isinstance(grading.get("componentResults"), list):
        components = [c for c in grading["componentResults"] if isinstance(c, Mapping)]
    elif isinstance(grading, Mapping) and len(declared) == 1:
        components = [{**grading, "assertion": declared[0]}]
    if components is None:
        sample["assertions"], sample["judges"] = [], []
        if "error" in sample or not declared:
            return  # the provider errored: an errored test, nothing was graded
        # the output exists but promptfoo's grading errored (e.g. a grader without an API key):
        # it recorded no grade at all.  Assertions AAAF can grade the same way are left for
        # AAAF's code graders (from the output); the others are grading errors, left out.
        error = _first_line(str(row.get("error") or "promptfoo recorded no grade"))
        for spec in declared:
            promptfoo_type = str(spec.get("type"))
            mapped = _aaaf_type(promptfoo_type)
            assertion = _assertion(spec, None, "")
            if mapped is not None and "value" in assertion:  # AAAF's grader reads it the same way
                assertion.pop("reason")
                assertion["note"] = f"promptfoo recorded no grade ({error}); graded by AAAF from the output"
                assertions.append(assertion)
            else:
                errors[sample_id] += 1
                notes.append(
                    f"sample {sample_id}: promptfoo {promptfoo_type!r} not graded (grading error: {error})"
                )
        sample["assertions"], sample["judges"] = assertions, judges
        return
    for component in components:
        component_spec = component.get("assertion")
        if not isinstance(component_spec, Mapping):
            continue
        promptfoo_type = str(component_spec.get("type"))
        spec = component_spec
        grader_error = _grading_error(component)
        if grader_error is not None:
            errors[sample_id] += 1
            notes.append(
                f"sample {sample_id}: promptfoo {promptfoo_type!r} not graded "
                f"(grading error: {_first_line(grader_error)})"
            )
            continue
        if is_model_graded(promptfoo_type):
            judge, why = _judge(spec, component, taken)
            if judge is None:
                notes.append(f"sample {sample_id}: promptfoo {promptfoo_type!r} not imported ({why})")
            else:
                judges.append(judge)
            continue
        assertions.append(_assertion(spec, bool(component.get("pass")), str(component.get("reason") or "")))
    sample["assertions"], sample["judges"] = assertions, judges


def _sample_ids(rows: list[dict[str, Any]]) -> dict[int, str]:
    descriptions: dict[int, str] = {}
    for row in rows:
        test = _mapping(row.get("testCase"))
        description = test.get("description")
        descriptions.setdefault(
            int(row.get("testIdx", 0)), description if isinstance(description, str) else ""
        )
    names = list(descriptions.values())
    if all(names) and len(set(names)) == len(names):
        return descriptions
    return {index: f"test-{index}" for index in descriptions}


def runs_from_results(data: Any, *, source: str = "promptfoo") -> list[dict[str, Any]]:
    """One run per (provider, prompt) column of a promptfoo result object, in column order."""
    eval_id, rows = _results(data, source)
    providers = sorted({_provider(row) for row in rows})
    prompts = sorted({_prompt(row) for row in rows})

    def variant_of(row: Mapping[str, Any]) -> str:
        if len(prompts) <= 1:
            return _provider(row)
        if len(providers) <= 1:
            return _prompt(row)
        return f"{_provider(row)} | {_prompt(row)}"

    ids = _sample_ids(rows)
    columns: dict[str, list[dict[str, Any]]] = defaultdict(list)
    order: dict[str, tuple[int, str]] = {}
    for row in rows:
        variant = variant_of(row)
        columns[variant].append(row)
        key = (int(row.get("promptIdx", 0)), _provider(row))
        order[variant] = min(order.get(variant, key), key)
    runs: list[dict[str, Any]] = []
    for variant in sorted(columns, key=lambda v: (order[v], v)):
        notes: list[str] = []
        grading_errors: Counter[str] = Counter()
        seen: Counter[str] = Counter()
        samples: list[dict[str, Any]] = []
        column = sorted(columns[variant], key=lambda r: (int(r.get("testIdx", 0)), str(r.get("id", ""))))
        repeats = Counter(ids[int(row.get("testIdx", 0))] for row in column)
        for row in column:
            sample_id = ids[int(row.get("testIdx", 0))]
            seen[sample_id] += 1
            response = _mapping(row.get("response"))
            prompt = _mapping(row.get("prompt"))
            sample: dict[str, Any] = {"sample_id": sample_id}
            if repeats[sample_id] > 1:  # --repeat: one sample recorded several times
                sample["epoch"] = seen[sample_id]
            sample.update({"input": prompt.get("raw"), "vars": row.get("vars") or {}})
            if response.get("error") or (not response and row.get("error")):
                sample["error"] = str(response.get("error") or row.get("error"))
            elif "output" in response and response["output"] is not None:
                sample["output"] = response["output"]
            latency = _number(row.get("latencyMs"))
            if latency is not None:
                sample["latency_ms"] = latency
            cost = _number(row.get("cost", response.get("cost")))
            if cost is not None:
                sample["cost_usd"] = cost
            _graded(row, sample, notes, grading_errors)
            samples.append(sample)
        run: dict[str, Any] = {
            "run_id": eval_id if len(columns) == 1 else f"{eval_id}/{variant}",
            "variant": variant,
            "samples": samples,
            "source": "promptfoo",
        }
        errored = sum(1 for sample in samples if "error" in sample)
        if errored:
            notes.insert(0, f"{errored} errored test(s): the run did not finish")
        if grading_errors:
            notes.insert(
                0,
                f"{sum(grading_errors.values())} grading error(s) in {len(grading_errors)} sample(s): "
                "left out, not counted as failed assertions",
            )
            run["grading_errors"] = sum(grading_errors.values())
        if notes:
            run["import_notes"] = notes
        runs.append(run)
    return runs


def _read(path: str | Path) -> tuple[Any, str]:
    file = Path(path)
    if not file.is_file():
        raise AAAFError("INVALID_REQUEST", f"{file}: no such promptfoo result file.")
    try:
        return json.loads(file.read_text(encoding="utf-8")), str(file)
    except json.JSONDecodeError as error:
        raise AAAFError("INVALID_REQUEST", f"{file}: not valid JSON: {error.msg}.") from None


def load_runs(path: str | Path) -> list[dict[str, Any]]:
    """Every run (one per provider/prompt column) of a promptfoo result file."""
    data, source = _read(path)
    return runs_from_results(data, source=source)


def load(path: str | Path) -> dict[str, Any] | list[dict[str, Any]]:
    """The run of a one-column promptfoo result file; a list of runs (by column) otherwise."""
    runs = load_runs(path)
    return runs[0] if len(runs) == 1 else runs
