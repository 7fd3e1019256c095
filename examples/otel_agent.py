"""An agent loop instrumented only with the OpenTelemetry SDK — no AAAF code (issue 19).

It works through a queue of small arithmetic and text tasks with two tools, retrying a tool
that fails, and records its work under the OpenTelemetry GenAI semantic conventions: an
``invoke_agent`` span per task, an ``execute_tool`` span per tool call, and a
``gen_ai.evaluation.result`` event grading each answer.  Point the standard exporter
environment at ``aaaf serve`` and AAAF turns the traces into evidence it can assess::

    export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:8000
    export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20ak_..."
    python examples/otel_agent.py --agent otel-demo --tasks 40
    aaaf assess otel-demo          # on the server's database

The ``aaaf.task.*`` attributes are plain span attributes: they tell AAAF each task's domain
and complexity (document 004's ``task_assigned`` needs both); without them the tasks still
count, but not for speed or consistency (docs/opentelemetry.md).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Status, StatusCode, Tracer


class ToolFailed(Exception):
    """A tool call that did not work (the agent retries it)."""


def calculator(expression: str, rng: random.Random) -> str:
    if rng.random() < 0.15:  # a flaky dependency: the agent has to recover
        raise ToolFailed("calculator backend timed out")
    left, operator, right = expression.split()
    ops: dict[str, Callable[[int, int], int]] = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}
    return str(ops[operator](int(left), int(right)))


def reverse(text: str, rng: random.Random) -> str:
    if rng.random() < 0.10:
        raise ToolFailed("text service unavailable")
    return text[::-1]


TOOLS: dict[str, Callable[[str, random.Random], str]] = {"calculator": calculator, "reverse": reverse}


def call_tool(tracer: Tracer, name: str, argument: str, rng: random.Random, attempts: int = 3) -> str | None:
    """Call a tool, retrying on failure; each attempt is an ``execute_tool`` span."""
    for _ in range(attempts):
        attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name}
        with tracer.start_as_current_span(f"execute_tool {name}", attributes=attributes) as span:
            try:
                return TOOLS[name](argument, rng)
            except ToolFailed as problem:
                span.set_status(Status(StatusCode.ERROR, str(problem)))
    return None


def run_task(tracer: Tracer, agent: str, number: int, rng: random.Random) -> None:
    """One task: an ``invoke_agent`` span, its tool calls, and a graded answer."""
    if number % 2 == 0:
        left, right = rng.randint(2, 99), rng.randint(2, 99)
        domain, level, tool, argument, expected = (
            "data_analysis",
            1 + number % 3,
            "calculator",
            f"{left} * {right}",
            str(left * right),
        )
    else:
        word = rng.choice(["agent", "trace", "span", "evidence", "badge"])
        domain, level, tool, argument, expected = "writing", 1 + number % 2, "reverse", word, word[::-1]
    attributes = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": agent,
        "aaaf.task.domain": domain,
        "aaaf.task.complexity_level": level,
        "aaaf.task.autonomy_level": 2,
    }
    with tracer.start_as_current_span(f"invoke_agent {agent}", attributes=attributes) as span:
        answer = call_tool(tracer, tool, argument, rng)
        correct = answer == expected
        span.add_event(
            "gen_ai.evaluation.result",
            {
                "gen_ai.evaluation.name": "accuracy",
                "gen_ai.evaluation.score.value": 1.0 if correct else 0.0,
                "gen_ai.evaluation.score.label": "pass" if correct else "fail",
            },
        )
        if answer is None:
            span.set_status(Status(StatusCode.ERROR, f"{tool} kept failing"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="otel-demo", help="the agent's name (gen_ai.agent.name)")
    parser.add_argument("--tasks", type=int, default=40, help="how many tasks to work through")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    # the exporter reads OTEL_EXPORTER_OTLP_ENDPOINT / _HEADERS (and _TRACES_ variants) itself
    provider = TracerProvider(resource=Resource.create({"service.name": args.agent}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    tracer = provider.get_tracer("examples.otel_agent")
    rng = random.Random(args.seed)
    for number in range(args.tasks):
        run_task(tracer, args.agent, number, rng)
    provider.shutdown()  # flushes the last batch
    print(f"{args.agent}: {args.tasks} tasks traced")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
