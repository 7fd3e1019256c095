"""OTLP/HTTP on the wire (issue 19; the OTLP specification's "OTLP/HTTP" section).

Requests: an ``ExportTraceServiceRequest`` as binary protobuf (``application/x-protobuf``)
or as OTLP/JSON (``application/json``: lowerCamelCase keys, trace and span ids in hex, not
base64), optionally ``Content-Encoding: gzip``.  Answers are in the request's content type:
an ``ExportTraceServiceResponse`` on success, a ``google.rpc.Status`` on failure.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTracePartialSuccess,
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Status

from aaaf.api.json_rules import check_json
from aaaf.errors import AAAFError
from aaaf.evidence.otlp import Span, SpanEvent
from aaaf.inflation import MAX_INFLATED_BYTES, inflate

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
MAX_DECOMPRESSED_BYTES = MAX_INFLATED_BYTES

# google.rpc.Code of each HTTP status this route answers with
RPC_CODES = {
    400: code_pb2.INVALID_ARGUMENT,
    401: code_pb2.UNAUTHENTICATED,
    403: code_pb2.PERMISSION_DENIED,
    404: code_pb2.NOT_FOUND,
    413: code_pb2.RESOURCE_EXHAUSTED,
    415: code_pb2.INVALID_ARGUMENT,
    429: code_pb2.RESOURCE_EXHAUSTED,
}


def media_type(content_type: str | None) -> str:
    """``application/json`` or ``application/x-protobuf`` (the default) of a Content-Type."""
    base = (content_type or "").split(";", 1)[0].strip().lower()
    return JSON if base == JSON else PROTOBUF


def _bad(message: str) -> AAAFError:
    return AAAFError("INVALID_REQUEST", message, {"field": "body"})


def decompress(body: bytes, encoding: str | None) -> bytes:
    """The body without its ``Content-Encoding`` (gzip or none); 413 beyond
    :data:`MAX_DECOMPRESSED_BYTES` once inflated (a small gzip body can inflate a thousandfold)."""
    word = (encoding or "identity").strip().lower()
    if word in ("", "identity"):
        return body
    if word not in ("gzip", "deflate"):
        raise AAAFError(
            "INVALID_REQUEST", f"Content-Encoding {encoding!r} is not supported (gzip or none).", {}
        )
    try:
        return inflate(body, wbits=31 if word == "gzip" else 15, what="The request body")
    except zlib.error as problem:
        raise _bad(f"the body is not valid {word} ({problem})") from None


def _items(value: Any, key: str) -> list[dict[str, Any]]:
    """The objects of the list ``value[key]`` (anything else is left for the parser to refuse)."""
    found = value.get(key) if isinstance(value, dict) else None
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def _hex_to_base64(document: Any) -> None:
    """OTLP/JSON spells trace and span ids in hex; protobuf's JSON mapping wants base64."""
    for resource in _items(document, "resourceSpans"):
        for scope in _items(resource, "scopeSpans"):
            for span in _items(scope, "spans"):
                for item in [span, *_items(span, "links")]:
                    for name in ("traceId", "spanId", "parentSpanId"):
                        value = item.get(name)
                        if isinstance(value, str) and value:
                            try:
                                item[name] = base64.b64encode(bytes.fromhex(value)).decode()
                            except ValueError:
                                raise _bad(f"{name} {value!r} is not hex (OTLP/JSON)") from None


def parse_request(body: bytes, kind: str) -> ExportTraceServiceRequest:
    """The request message; 400 ``INVALID_REQUEST`` for a body that is not one."""
    request = ExportTraceServiceRequest()
    if kind == JSON:
        check_json(body)  # once inflated: depth, NaN, NUL (aaaf.api.json_rules)
        try:
            document = json.loads(body)
        except (ValueError, UnicodeDecodeError) as problem:
            raise _bad(f"the body is not valid JSON ({problem})") from None
        if not isinstance(document, dict):
            raise _bad("the body must be a JSON object (an ExportTraceServiceRequest)")
        _hex_to_base64(document)
        try:
            json_format.ParseDict(document, request, ignore_unknown_fields=True)
        except json_format.ParseError as problem:
            raise _bad(f"the body is not an OTLP/JSON ExportTraceServiceRequest ({problem})") from None
        return request
    try:
        request.ParseFromString(body)
    except DecodeError as problem:
        raise _bad(f"the body is not a protobuf ExportTraceServiceRequest ({problem})") from None
    return request


_SCALARS = frozenset({"string_value", "bool_value", "int_value", "double_value"})


def _value(value: AnyValue) -> Any:
    which = value.WhichOneof("value")
    if which in _SCALARS:  # nearly every attribute
        return getattr(value, which)
    if which == "array_value":
        return [_value(item) for item in value.array_value.values]
    if which == "kvlist_value":
        return {item.key: _value(item.value) for item in value.kvlist_value.values}
    if which == "bytes_value":
        return value.bytes_value.hex()
    return None if which is None else getattr(value, which)


def _attributes(items: Any) -> dict[str, Any]:
    """The attributes as a dict.  A non-empty ``string_value`` can only be the value's own
    (another kind reads as ""), so a string (most attributes) is read with one access, without
    ``WhichOneof``: spans_of 17.2 -> 15.0 M instructions an export of bench_otlp's (callgrind,
    ``count_otlp_work.py --mapping``); another scalar without a call of :func:`_value`."""
    found: dict[str, Any] = {}
    for item in items:
        value = item.value
        text = value.string_value
        if text:
            found[item.key] = text
            continue
        which = value.WhichOneof("value")
        found[item.key] = getattr(value, which) if which in _SCALARS else _value(value)
    return found


def spans_of(request: ExportTraceServiceRequest) -> list[Span]:
    """Every span of the request as :class:`aaaf.evidence.otlp.Span`; 400 for a span
    without a valid trace or span id (the specification requires both)."""
    out: list[Span] = []
    error_code = Status.STATUS_CODE_ERROR
    for resource in request.resource_spans:
        for scope in resource.scope_spans:
            for span in scope.spans:
                trace_id, span_id = span.trace_id, span.span_id
                if len(trace_id) != 16 or len(span_id) != 8:
                    raise _bad(
                        "every span needs a 16-byte trace_id and an 8-byte span_id "
                        f"(got {len(trace_id)} and {len(span_id)} bytes)"
                    )
                status, events = span.status, span.events
                out.append(
                    Span(
                        trace_id.hex(),
                        span_id.hex(),
                        span.parent_span_id.hex() or None,
                        span.name,
                        span.start_time_unix_nano,
                        span.end_time_unix_nano,
                        status.code == error_code,
                        status.message,
                        _attributes(span.attributes),
                        tuple(
                            SpanEvent(event.name, event.time_unix_nano, _attributes(event.attributes))
                            for event in events
                        )
                        if events
                        else (),
                    )
                )
    return out


def encode(message: Message, kind: str) -> bytes:
    if kind == JSON:
        text: str = json_format.MessageToJson(message, indent=None)
        return text.encode()
    encoded: bytes = message.SerializeToString()
    return encoded


def success_body(rejected_spans: int, message: str, kind: str) -> bytes:
    """An ``ExportTraceServiceResponse``; ``partial_success`` set when a span was rejected
    or there is something to say (rejected 0 and a message: a warning, as OTLP allows)."""
    response = ExportTraceServiceResponse()
    if rejected_spans or message:
        response.partial_success.CopyFrom(
            ExportTracePartialSuccess(rejected_spans=rejected_spans, error_message=message)
        )
    return encode(response, kind)


def status_body(http_status: int, message: str, kind: str) -> bytes:
    """A ``google.rpc.Status`` for an error answer."""
    status = status_pb2.Status(code=RPC_CODES.get(http_status, code_pb2.INTERNAL), message=message)
    return encode(status, kind)
