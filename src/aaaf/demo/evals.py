"""Two sample eval runs for `make demo`: a control and an improved treatment (seeded, no clock).

``python -m aaaf.demo.evals --output DIR [--now 2026-11-20T12:00:00Z] [--seed 0] [--samples 60]``
writes ``DIR/control.json`` and ``DIR/treatment.json`` in the run format of SCORING.md §4,
for ``aaaf compare DIR/control.json DIR/treatment.json --html report.html``.

Every sample is a small support-agent task (look up an order, convert a unit, answer a
policy question, …) with both kinds of assertion: some ungraded, carrying the output,
tool calls, turns, cost and latency the grader needs (``icontains``, ``regex``,
``tool_called``, ``tool_not_called``, ``max_turns``, ``max_latency``, ``max_cost``), some
pre-graded (``json_schema``, ``similar``, given with ``passed``).  Three judges score
every sample; a human labelled every third one.  The treatment variant (a better prompt
and a search tool it uses more reliably) answers correctly more often and wastes fewer
turns, so the demo shows a comparison whose every layer moves up.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aaaf.demo.clock import demo_now

DEFAULT_NOW = "2026-11-20T12:00:00Z"
JUDGES = ("judge-gpt", "judge-claude", "judge-llama")

# (task template, correct answer, a plausible wrong answer, tool the task needs)
TASKS: tuple[tuple[str, str, str, str], ...] = (
    ("What is the status of order #{n}?", "shipped", "processing", "order_lookup"),
    ("Convert {n} kilometres to miles.", "miles", "metres", "calculator"),
    ("What is the refund window for plan {n}?", "30 days", "60 days", "policy_search"),
    ("Which warehouse ships order #{n}?", "Rotterdam", "Hamburg", "order_lookup"),
    ("Summarise ticket {n} in one sentence.", "customer", "unrelated", "ticket_fetch"),
    ("Is coupon SAVE{n} still valid?", "expired", "valid", "coupon_check"),
)


@dataclass(frozen=True)
class Variant:
    """How a variant behaves: chance of a correct answer, tool discipline, turns, speed."""

    name: str
    correct_shift: float  # added to each sample's base probability of a correct answer
    tool_reliability: float  # probability it calls the tool the task needs
    stray_tool_rate: float  # probability it calls the forbidden 'delete_record' tool
    extra_turns: float  # mean turns beyond the minimum
    latency_ms: float  # mean latency
    cost_usd: float  # mean cost
    judge_bias: float  # judges' view of its style beyond correctness


CONTROL = Variant("control", 0.0, 0.78, 0.08, 2.2, 2600.0, 0.011, 0.0)
TREATMENT = Variant("treatment", 0.22, 0.95, 0.02, 1.0, 2100.0, 0.009, 0.25)


def _clip(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def _sample(index: int, base: float, variant: Variant, rng: random.Random) -> dict[str, Any]:
    template, answer, wrong, tool = TASKS[index % len(TASKS)]
    question = template.format(n=1000 + index)
    correct = rng.random() < _clip(base + variant.correct_shift, 0.02, 0.98)
    called = [tool] if rng.random() < variant.tool_reliability else []
    if rng.random() < variant.stray_tool_rate:
        called.append("delete_record")
    turns = 1 + max(0, round(rng.expovariate(1.0 / variant.extra_turns)))
    latency = round(variant.latency_ms * math.exp(rng.gauss(0.0, 0.35)), 1)
    cost = round(variant.cost_usd * math.exp(rng.gauss(0.0, 0.3)), 5)
    output = f"The answer is {answer if correct else wrong}." + (" Reference: " + tool if called else "")
    well_formed = rng.random() < (0.92 if correct else 0.6)
    quality = 1.6 + 2.6 * (1.0 if correct else 0.0) + 0.9 * base + variant.judge_bias
    judges = [
        {"judge": judge, "score": int(_clip(round(quality + rng.gauss(0.0, 0.45)), 1, 5))} for judge in JUDGES
    ]
    sample: dict[str, Any] = {
        "sample_id": f"support-{index:03d}",
        "input": question,
        "output": output,
        "tool_calls": [{"name": name, "arguments": {"query": question}} for name in called],
        "turns": turns,
        "cost_usd": cost,
        "latency_ms": latency,
        "assertions": [
            {"type": "icontains", "value": answer},
            {"type": "regex", "value": r"^The answer is [A-Za-z0-9 ]+\."},
            {"type": "json_schema", "passed": well_formed, "weight": 0.5},
            {
                "type": "similar",
                "passed": correct and rng.random() < 0.9,
                "value": f"The answer is {answer}.",
            },
            {"type": "tool_called", "value": tool, "weight": 2},
            {"type": "tool_not_called", "value": "delete_record"},
            {"type": "max_turns", "value": 4},
            {"type": "max_latency", "value": 4000},
            {"type": "max_cost", "value": 0.02},
        ],
        "judges": judges,
    }
    if index % 3 == 0:
        sample["human"] = int(_clip(round(quality + rng.gauss(0.0, 0.25)), 1, 5))
    return sample


def generate_runs(*, samples: int = 60, seed: int = 0, now: str = DEFAULT_NOW) -> dict[str, dict[str, Any]]:
    """The control and treatment runs over the same samples (paired by sample_id)."""
    difficulty = random.Random(seed)
    bases = [_clip(difficulty.betavariate(4.0, 2.0), 0.15, 0.95) for _ in range(samples)]
    runs: dict[str, dict[str, Any]] = {}
    for offset, variant in enumerate((CONTROL, TREATMENT)):
        rng = random.Random(seed * 1000 + offset + 1)
        runs[variant.name] = {
            "run_id": f"support-agent-{variant.name}",
            "variant": variant.name,
            "created_at": now,
            "eval_set": "support-agent-smoke",
            "samples": [_sample(index, bases[index], variant, rng) for index in range(samples)],
        }
    return runs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--output", required=True, type=Path, help="Directory for control.json and treatment.json."
    )
    parser.add_argument(
        "--now", default=demo_now(), help="Timestamp recorded in the runs (default: now, or AAAF_DEMO_NOW)."
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args(argv)
    runs = generate_runs(samples=args.samples, seed=args.seed, now=args.now)
    args.output.mkdir(parents=True, exist_ok=True)
    for name, run in runs.items():
        (args.output / f"{name}.json").write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
