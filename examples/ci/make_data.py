"""Writes the sample repository's eval runs (issue 20 §1): a baseline, a "good" candidate and a
"regressed" candidate in AAAF's JSON Lines run format (``aaaf.evals.models``, what ``aaaf compare`` reads).

Deterministic (one seeded generator per run); run it again and the files come out
byte-identical::

    python examples/ci/make_data.py

Each of the 40 samples is one support question answered by the agent: two fact assertions
(the answer names the right product and the right fix), one behaviour assertion (the agent
searched the knowledge base before answering) and two model-judge scores (1-5), already
graded, as a pipeline would store them after ``aaaf eval grade``.  The regressed candidate
is the baseline's agent after a prompt change that stopped it from searching: it misses the
fix more often and its judges score it lower.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent / "evals"
SAMPLES = 40


def _run(run_id: str, variant: str, seed: int, *, p_product: float, p_fix: float, p_search: float, judge: float) -> dict:  # fmt: skip
    rng = random.Random(seed)
    samples = []
    for index in range(1, SAMPLES + 1):
        searched = rng.random() < p_search
        fix = rng.random() < (p_fix if searched else p_fix - 0.25)
        quality = judge + (0.6 if fix else -0.9) + rng.uniform(-0.6, 0.6)  # what both judges see
        scores = [min(5, max(1, round(quality + rng.uniform(-0.3, 0.3)))) for _ in range(2)]
        samples.append(
            {
                "sample_id": f"q{index:02d}",
                "input": f"support question {index}",
                "tool_calls": [{"name": "kb_search"}] if searched else [],
                "assertions": [
                    {"type": "contains", "passed": rng.random() < p_product, "value": "product name"},
                    {"type": "contains", "passed": fix, "value": "the documented fix"},
                    {"type": "tool_called", "passed": searched, "value": "kb_search"},
                ],
                "judges": [
                    {"judge": "judge-a", "score": scores[0]},
                    {"judge": "judge-b", "score": scores[1]},
                ],
            }
        )
    return {"run_id": run_id, "variant": variant, "status": "success", "samples": samples}


def _improved(baseline: dict, run_id: str) -> dict:
    """The baseline's answers with the fix now found where the knowledge base was searched and
    the fix missed (a prompt that reads the search results more carefully): same questions,
    mostly the same answers, as a real "good" change looks."""
    samples = json.loads(json.dumps(baseline["samples"]))
    for sample in samples:
        _product, fix, searched = (a["passed"] for a in sample["assertions"])
        if searched and not fix:
            sample["assertions"][1]["passed"] = True
            sample["judges"] = [{**j, "score": 5} for j in sample["judges"]]
    return {**baseline, "run_id": run_id, "variant": run_id, "samples": samples}


BASELINE = _run("main-2026-11-20", "main", 1, p_product=0.95, p_fix=0.85, p_search=0.9, judge=4.0)
RUNS = {
    "baseline.jsonl": BASELINE,
    "candidate-good.jsonl": _improved(BASELINE, "pr-41"),
    "candidate-regressed.jsonl": _run("pr-42", "pr-42", 3, p_product=0.9, p_fix=0.6, p_search=0.3, judge=3.4),
}


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for name, run in RUNS.items():
        header = {"run_id": run["run_id"], "variant": run["variant"], "status": run["status"]}
        lines = [header, *run["samples"]]
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
