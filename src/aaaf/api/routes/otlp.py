"""``POST /v1/traces``: OpenTelemetry traces as evidence (issue 19; docs/opentelemetry.md).

OTLP/HTTP: a binary protobuf or OTLP/JSON ``ExportTraceServiceRequest``, gzip or not,
authenticated with an API key holding ``events:write`` (``Authorization: Bearer ak_…`` as an
OTLP exporter's headers send it).  Spans are mapped by :mod:`aaaf.evidence.otlp` and stored
by :func:`aaaf.services.otlp.ingest_spans` through the same collect service as
``POST /api/v1/events/batch`` (validation, idempotence, enrolment, rate limit, usage).

Answers as OTLP specifies, in the request's content type: 200 with an
``ExportTraceServiceResponse`` whose ``partial_success`` counts the spans that could not be
used and says why; errors as a ``google.rpc.Status`` — 400 malformed, 401 no or a bad key,
403 a key without ``events:write``, 413 too large, 429 rate-limited (with ``Retry-After``).
Not part of the JSON API of document 004 §6: left out of ``openapi.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from aaaf.api import otlp_codec as codec
from aaaf.api.deps import CallerDep, EventWriter, NowDep
from aaaf.api.usage import MeterDep
from aaaf.errors import AAAFError
from aaaf.memory import gc_paused
from aaaf.services.otlp import ENROL_SCOPE, OtlpReport, ingest_spans
from aaaf.store import OrgStore


class OtlpRoute(APIRoute):
    """A route whose every failure — its dependencies' too (authentication, scope, rate
    limit) — answers with an OTLP ``Status`` in the request's content type."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def answer(request: Request) -> Response:
            kind = codec.media_type(request.headers.get("content-type"))
            try:
                return await handler(request)
            except AAAFError as error:
                return _status(error.http_status, error.message, kind)
            except RequestValidationError as error:
                return _status(400, f"invalid request: {error.errors()}", kind)

        return answer


def _export(raw: bytes, kind: str, org: OrgStore, **options: Any) -> OtlpReport:
    """Decode and ingest one export, the cyclic garbage collector paused (:func:`aaaf.memory.gc_paused`):
    the request's spans and events are freed by reference counting, and a collection during
    it only scanned and promoted them (a full collection of the server's heap: ~150 ms)."""
    with gc_paused():
        return ingest_spans(org, codec.spans_of(codec.parse_request(raw, kind)), **options)


def _status(http_status: int, message: str, kind: str) -> Response:
    return Response(codec.status_body(http_status, message, kind), status_code=http_status, media_type=kind)


router = APIRouter(tags=["opentelemetry"], route_class=OtlpRoute)


@router.post("/v1/traces", include_in_schema=False)
async def export_traces(
    request: Request, org: EventWriter, principal: CallerDep, now: NowDep, meter: MeterDep
) -> Response:
    """Ingest one OTLP/HTTP trace export (see the module docstring).  A span may enrol a new
    agent only for a key that may create agents (``assessments:write``, as ``POST
    /api/v1/agents`` requires); otherwise its agent must exist, and ``partialSuccess`` says so."""
    kind = codec.media_type(request.headers.get("content-type"))
    raw = codec.decompress(await request.body(), request.headers.get("content-encoding"))
    report = await run_in_threadpool(
        _export,
        raw,
        kind,
        org,
        now=now,
        context=request.app.state.context,
        enroll=principal.holds(ENROL_SCOPE),
    )
    meter.add(org.organization_id, now, "events_accepted", report.collect.accepted)
    body = codec.success_body(report.rejected_spans, report.message(), kind)
    return Response(body, status_code=200, media_type=kind)
