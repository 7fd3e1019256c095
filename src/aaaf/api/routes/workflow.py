"""Workflow runs and scores over HTTP (document 003; SCORING.md §5; issue 13).

The same services as ``aaaf collect --workflows DIR`` and ``aaaf workflow``:

* ``POST /api/v1/workflow-runs`` (``events:write``) — ``workflow_run`` events, and
  optionally the workflow definitions they name (``workflows``: definition objects, as the
  files of ``--workflows DIR`` hold), stored through the collect service: a run naming a
  definition takes ``dag_steps`` and ``declared_retry_budget`` from it; each invalid run is
  rejected with its index, code and field, as the events batch answers;
* ``GET /api/v1/agents/{agent_id}/workflow-score[?window=]`` (``read``) — every stored run
  of the agent with S and its four parts, and the agent's window mean, as
  ``aaaf workflow score --agent NAME --json`` (with the RFC 8785 digest);
* ``GET /api/v1/workflow-weights[?window=&cap=]`` (``read``) — each agent's window mean
  turned into a capped weight, as ``aaaf workflow weights --json``.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query
from pydantic import Field

from aaaf.api.deps import EventWriter, NowDep, Reader
from aaaf.api.limits import MAX_BATCH_EVENTS
from aaaf.api.models import BatchResult, Request
from aaaf.api.routes.events import batch_answer
from aaaf.errors import AAAFError
from aaaf.evidence.models import EventError
from aaaf.evidence.workflow_definition import WorkflowDefinition, parse_definition
from aaaf.models.workflow import WorkflowScore, WorkflowWeights
from aaaf.scoring.workflow import WORKFLOW_CAP, WORKFLOW_WINDOW, DigestedResult
from aaaf.services import workflow as workflow_service
from aaaf.services.collect import collect as collect_events

router = APIRouter(tags=["workflow"])

AnswerT = TypeVar("AnswerT", WorkflowScore, WorkflowWeights)


def _answer(result: DigestedResult, shape: type[AnswerT]) -> AnswerT:
    """The result's JSON with its RFC 8785 digest; stored runs holding a number RFC 8785
    cannot write (an integer beyond ±(2^53 − 1) in a derived figure) have no digest: 422."""
    try:
        out = result.to_dict()
    except ValueError as error:
        raise AAAFError(
            "INSUFFICIENT_EVIDENCE",
            "The stored workflow runs hold a number the result's RFC 8785 digest cannot carry "
            f"({str(error)[:120]}); correct those runs.",
            {"reason": "digest"},
        ) from None
    return shape.model_validate(out)


WindowQuery = Annotated[
    int,
    Query(ge=1, le=1_000_000, description="Most recent tasks per agent in its mean (docs/scoring.md §6)."),
]


class WorkflowRunsIn(Request):
    """Workflow runs to store (``workflow_run`` events) and the definitions they may name."""

    runs: list[Any] = Field(description="Up to 1 000 `workflow_run` events (docs/scoring.md §2, §6).")
    workflows: list[Any] = Field(
        default_factory=list,
        description="Workflow definitions ({name, steps: [{id, depends_on, retry_count, timeout_seconds}]}) "
        "the runs may name (docs/scoring.md §6).",
    )


def _definitions(raw: list[Any]) -> dict[str, WorkflowDefinition]:
    definitions: dict[str, WorkflowDefinition] = {}
    for index, item in enumerate(raw):
        try:
            definition = parse_definition(item, source=f"workflows[{index}]")
        except AAAFError as error:
            field = error.details.get("field")
            raise AAAFError(
                error.code,
                error.message,
                {**error.details, "field": f"body.workflows[{index}]" + (f".{field}" if field else "")},
            ) from None
        if definition.name in definitions:
            raise AAAFError(
                "INVALID_REQUEST",
                f"workflows[{index}]: a second definition of workflow {definition.name!r}.",
                {"field": f"body.workflows[{index}].name"},
            )
        definitions[definition.name] = definition
    return definitions


@router.post(
    "/api/v1/workflow-runs", status_code=201, response_model=BatchResult, operation_id="create_workflow_runs"
)
def create_workflow_runs(body: WorkflowRunsIn, org: EventWriter, now: NowDep) -> BatchResult:
    """Store up to 1 000 workflow runs (each accepted, a duplicate, or rejected with its index,
    code and field); runs naming a definition of ``workflows`` are completed from it."""
    if len(body.runs) > MAX_BATCH_EVENTS:
        raise AAAFError(
            "PAYLOAD_TOO_LARGE",
            f"A request holds at most {MAX_BATCH_EVENTS} runs; this one has {len(body.runs)}.",
            {"limit_events": MAX_BATCH_EVENTS, "events": len(body.runs)},
        )
    definitions = _definitions(body.workflows)
    # only workflow runs: any other type (a task_audited finding included) is rejected here
    items: list[tuple[int | None, Any]] = []
    for index, raw in enumerate(body.runs):
        if isinstance(raw, dict) and raw.get("type") not in (None, workflow_service.RUN_TYPE):
            items.append(
                (
                    None,
                    EventError(
                        index=index,
                        line=None,
                        code="INVALID_EVENT_TYPE",
                        field="type",
                        message=f"type: this route takes {workflow_service.RUN_TYPE} events only",
                    ),
                )
            )
        else:
            items.append((None, raw))
    report = collect_events(org, items, now=now, workflow_definitions=definitions)
    return batch_answer(report, body.runs)


@router.get(
    "/api/v1/agents/{agent_id}/workflow-score",
    response_model=WorkflowScore,
    operation_id="get_workflow_score",
)
def get_workflow_score(agent_id: str, org: Reader, window: WindowQuery = WORKFLOW_WINDOW) -> WorkflowScore:
    """Every stored run of the agent with S and its four parts, and the agent's window mean."""
    return _answer(workflow_service.score_stored(org, agent_id, window=window), WorkflowScore)


@router.get("/api/v1/workflow-weights", response_model=WorkflowWeights, operation_id="get_workflow_weights")
def get_workflow_weights(
    org: Reader,
    window: WindowQuery = WORKFLOW_WINDOW,
    cap: Annotated[
        float, Query(gt=0.0, le=1.0, description="Largest weight any agent may get.")
    ] = WORKFLOW_CAP,
) -> WorkflowWeights:
    """Each agent's window mean turned into a weight, normalised to 1 and capped (default 15 %)."""
    return _answer(workflow_service.weights_for_org(org, window=window, cap=cap), WorkflowWeights)
