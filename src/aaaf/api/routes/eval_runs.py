"""Eval runs and their comparison over HTTP (SCORING.md §4; document 002; issue 13).

The same services as ``aaaf compare`` (:mod:`aaaf.services.eval_runs`):

* ``POST /api/v1/eval-runs[?from=auto|aaaf|inspect_ai|promptfoo]`` (``assessments:write``)
  — upload a run file in any format ``aaaf compare`` reads, either as the JSON body itself
  (our run object, an inspect_ai JSON log, a promptfoo result file) or as the ``file`` part
  of a ``multipart/form-data`` body (also JSON Lines and inspect_ai ``.eval`` archives; the
  file name's suffix counts as a file's does for the CLI).  Each run — each column of a
  promptfoo file — is stored: 201 ``{"items": [run summaries]}``.  The 1 MiB body limit
  applies;
* ``GET /api/v1/eval-runs`` (``read``) — the stored runs, newest first (a §7 page);
* ``GET /api/v1/eval-runs/{run_id}`` (``read``) — one run: its summary and the run object;
* ``POST /api/v1/eval-runs/compare`` (``read``: it stores nothing) — a control and one or
  several treatments by id, with ``aaaf compare``'s options: the verdict JSON of
  ``aaaf compare CONTROL T1 [T2 …] --json`` (several treatments: Bonferroni across them, the
  worst verdict rolled up).  An unfinished run is 400 unless ``allow_incomplete``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from aaaf.api.deps import AssessmentWriter, NowDep, Reader
from aaaf.api.models import Request as RequestBody
from aaaf.api.pagination import CursorQuery, LimitQuery, paginate, time_key
from aaaf.errors import AAAFError
from aaaf.models.comparison import Comparison, SeveralComparison
from aaaf.models.eval_run import EvalRun, EvalRunPage
from aaaf.scoring.layered import CI_METHODS, LayeredConfig
from aaaf.services import eval_runs as eval_run_service

router = APIRouter(prefix="/api/v1/eval-runs", tags=["evals"])

_UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "A run file: the JSON document itself, or a multipart `file` part.",
        "content": {
            "application/json": {"schema": {"type": "object"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {"file": {"type": "string", "format": "binary"}},
                }
            },
        },
    }
}


async def _upload_content(request: Request) -> tuple[bytes, str | None]:
    """The uploaded file's bytes and name, from a JSON body or a multipart ``file`` part."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "multipart/form-data":
        try:
            form = await request.form()
        except Exception as error:  # a malformed multipart body
            raise AAAFError(
                "INVALID_REQUEST",
                f"body: not a readable multipart body ({type(error).__name__}).",
                {"field": "body"},
            ) from None
        part = form.get("file")
        if part is None or isinstance(part, str):
            raise AAAFError(
                "INVALID_REQUEST",
                "body.file: a multipart upload needs a `file` part holding the run file.",
                {"field": "body.file"},
            )
        return await part.read(), part.filename
    if content_type not in ("application/json", ""):
        raise AAAFError(
            "INVALID_REQUEST",
            f"body: send the run file as application/json or multipart/form-data, not {content_type!r}.",
            {"field": "body", "content_type": content_type},
        )
    body = await request.body()
    try:
        json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise AAAFError("INVALID_REQUEST", "body: not a JSON document.", {"field": "body"}) from None
    return body, "upload.json"


@router.post(
    "",
    status_code=201,
    response_model=EvalRunPage,
    operation_id="upload_eval_run",
    openapi_extra=_UPLOAD_BODY,
)
async def upload_eval_run(
    request: Request,
    org: AssessmentWriter,
    now: NowDep,
    source_format: Annotated[
        str, Query(alias="from", description="auto (by content), aaaf, inspect_ai or promptfoo.")
    ] = "auto",
) -> EvalRunPage:
    """Store every run of an uploaded run file (one per promptfoo column)."""
    content, filename = await _upload_content(request)
    stored = await run_in_threadpool(
        eval_run_service.upload,
        org,
        content,
        filename=filename,
        source_format=source_format,
        uploaded_at=now,
    )
    return EvalRunPage(items=stored, next_cursor=None)


@router.get("", response_model=EvalRunPage, operation_id="list_eval_runs")
def list_eval_runs(org: Reader, cursor: CursorQuery = None, limit: LimitQuery = 100) -> EvalRunPage:
    """The organization's stored eval runs, newest first."""
    return paginate(
        eval_run_service.list_runs(org),
        key=lambda run: [time_key(run.uploaded_at), str(run.id)],
        cursor=cursor,
        limit=limit,
        descending=True,
        render=eval_run_service.run_summary,
        page=EvalRunPage,
    )


class CompareIn(RequestBody):
    """``aaaf compare``'s inputs and options (docs/scoring.md §5; docs/scoring.md §5 v1.0 options)."""

    control: str = Field(description="The control run's id.")
    treatments: list[str] = Field(min_length=1, max_length=20, description="One or more treatment run ids.")
    resamples: int = Field(default=10_000, ge=1, le=100_000)
    confidence: float = Field(default=0.95, gt=0.0, lt=1.0)
    seed: int = Field(default=0, ge=0)
    ci_method: str = Field(default="percentile", description=f"One of {', '.join(CI_METHODS)}.")
    weights: dict[str, float] | None = Field(default=None, description="Explicit layer weights (sum 1).")
    standardize: bool = False
    hotelling: bool = False
    allow_incomplete: bool = False


@router.post(
    "/compare",
    response_model=Comparison | SeveralComparison,
    response_model_exclude_unset=True,
    operation_id="compare_eval_runs",
)
def compare_eval_runs(body: CompareIn, org: Reader) -> Comparison | SeveralComparison:
    """Compare a control with one or several treatments: PROGRESS, CAUTIOUS, REGRESS, NOISE or
    UNDERPOWERED, with each layer's CI and gates (the JSON of ``aaaf compare --json``)."""
    eval_run_service.check_compare_cost(body.resamples, len(body.treatments))
    if body.ci_method not in CI_METHODS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"ci_method: expected one of {', '.join(CI_METHODS)}, got {body.ci_method!r}.",
            {"field": "body.ci_method", "allowed": list(CI_METHODS)},
        )
    try:
        config = LayeredConfig(
            resamples=body.resamples,
            confidence=body.confidence,
            seed=body.seed,
            weights=body.weights,
            standardize=body.standardize,
            hotelling=body.hotelling,
            ci_method=body.ci_method,
        )
    except AAAFError as error:
        field = "body.weights" if body.weights is not None and "weight" in error.message.lower() else "body"
        raise AAAFError(error.code, error.message, {**error.details, "field": field}) from None
    return eval_run_service.compare_stored(
        org, body.control, body.treatments, config=config, allow_incomplete=body.allow_incomplete
    )


@router.get("/{run_id}", response_model=EvalRun, operation_id="get_eval_run")
def get_eval_run(run_id: str, org: Reader) -> EvalRun:
    """One stored run: its summary and the run object (samples and all)."""
    return eval_run_service.get_run(org, run_id)
