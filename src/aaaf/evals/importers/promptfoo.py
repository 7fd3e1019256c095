"""promptfoo result JSON (``promptfoo eval -o results.json``) → eval runs of SCORING.md §4.

A promptfoo eval crosses tests with prompts and providers; each (provider, prompt)
column is one variant, so one file gives one run per column.  The variant is named by
what differs: the provider's label (or id) when there is one prompt, the prompt's label
when there is one provider, ``"{provider} | {prompt}"`` when both vary.  ``run_id`` is the
file's ``evalId``, suffixed ``/{variant}`` when the file holds several runs.

Per result (one test in one column):

* ``sample_id`` — the test's ``description`` when every test has a distinct one, else
  ``test-{testIdx}``; the same test gets the same id in every column, so runs pair by
  test.  Repeats (``--repeat``) get ``#2``, ``#3``… in the order of their result ids;
* ``input`` — the rendered prompt; ``vars`` kept as given; ``output`` — the provider's
  output (absent when the provider errored; the error is kept in ``error``);
* ``latency_ms`` — ``latencyMs``; ``cost_usd`` — ``cost`` when promptfoo recorded one;
* ``assertions`` — promptfoo's graded component results, its ``pass`` as ``passed``, its
  ``reason``, the assertion's ``weight`` (default 1).  promptfoo's type is mapped to the
  closest AAAF type (:data:`PROMPTFOO_TYPES`; ``not-X`` maps like ``X``, except that a
  negated ``trajectory:tool-used`` is ``tool_not_called``), and kept in ``source``.  The
  verdict is promptfoo's; the type decides the layer (fact or behavior) it counts in.
  promptfoo's ``value`` (``threshold`` for ``latency``/``cost``) becomes the assertion's
  ``value`` only where it means the same thing to AAAF's grader of that type, else
  ``source_value``.

Types without an AAAF counterpart (``llm-rubric``, ``javascript``, ``python``, model-graded
scores on promptfoo's 0-1 scale…) are not guessed into the run: each is listed in the
run's ``import_notes``.  When promptfoo errored before grading a test, its mapped
assertions are imported as failed with promptfoo's error as the reason.
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


def _aaaf_type(promptfoo_type: str) -> str | None:
    negated = promptfoo_type.startswith("not-")
    base = promptfoo_type[4:] if negated else promptfoo_type
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


def _assertion(spec: Mapping[str, Any], passed: bool, reason: str) -> dict[str, Any] | None:
    promptfoo_type = str(spec.get("type"))
    mapped = _aaaf_type(promptfoo_type)
    if mapped is None:
        return None
    weight = spec.get("weight", 1)
    value = (
        spec.get("threshold")
        if promptfoo_type.removeprefix("not-") in _THRESHOLD_TYPES
        else spec.get("value")
    )
    assertion: dict[str, Any] = {
        "type": mapped,
        "passed": bool(passed),
        "weight": float(weight) if _number(weight) is not None else 1.0,
        "reason": reason,
        "source": f"promptfoo:{promptfoo_type}",
    }
    same_meaning = promptfoo_type in _SAME_MEANING or (
        promptfoo_type == "is-json" and isinstance(value, Mapping)  # is-json with a schema
    )
    if value is not None:
        assertion["value" if same_meaning else "source_value"] = value
    if mapped == "similar" and spec.get("threshold") is not None:
        assertion["threshold"] = spec["threshold"]
    return assertion


def _graded(row: Mapping[str, Any], sample_id: str, notes: list[str]) -> list[dict[str, Any]]:
    grading = row.get("gradingResult")
    test = _mapping(row.get("testCase"))
    declared = [a for a in test.get("assert") or [] if isinstance(a, Mapping)]
    components: list[Mapping[str, Any]]
    if isinstance(grading, Mapping) and isinstance(grading.get("componentResults"), list):
        components = [c for c in grading["componentResults"] if isinstance(c, Mapping)]
    elif isinstance(grading, Mapping) and len(declared) == 1:
        components = [{**grading, "assertion": declared[0]}]
    else:
        error = row.get("error") or "promptfoo did not grade this test"
        components = [
            {"assertion": a, "pass": False, "reason": f"not graded by promptfoo: {error}"} for a in declared
        ]
    assertions: list[dict[str, Any]] = []
    for component in components:
        spec = component.get("assertion")
        if not isinstance(spec, Mapping):
            continue
        assertion = _assertion(spec, bool(component.get("pass")), str(component.get("reason") or ""))
        if assertion is None:
            notes.append(
                f"sample {sample_id}: promptfoo assertion {spec.get('type')!r} has no AAAF type; not imported"
            )
            continue
        assertions.append(assertion)
    return assertions


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
        seen: Counter[str] = Counter()
        samples: list[dict[str, Any]] = []
        column = sorted(columns[variant], key=lambda r: (int(r.get("testIdx", 0)), str(r.get("id", ""))))
        for row in column:
            base = ids[int(row.get("testIdx", 0))]
            seen[base] += 1
            sample_id = base if seen[base] == 1 else f"{base}#{seen[base]}"
            response = _mapping(row.get("response"))
            prompt = _mapping(row.get("prompt"))
            sample: dict[str, Any] = {
                "sample_id": sample_id,
                "input": prompt.get("raw"),
                "vars": row.get("vars") or {},
            }
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
            sample["assertions"] = _graded(row, sample_id, notes)
            sample["judges"] = []
            samples.append(sample)
        run: dict[str, Any] = {
            "run_id": eval_id if len(columns) == 1 else f"{eval_id}/{variant}",
            "variant": variant,
            "samples": samples,
            "source": "promptfoo",
        }
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
