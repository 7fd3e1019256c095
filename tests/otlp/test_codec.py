"""OTLP/HTTP on the wire (:mod:`aaaf.api.otlp_codec`, issue 19): both encodings, gzip, the
limits, and the answers' shapes."""

from __future__ import annotations

import gzip
import json

import pytest
from google.protobuf import json_format
from google.rpc import code_pb2, status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from aaaf.api import otlp_codec as codec
from aaaf.errors import AAAFError
from tests.otlp.conftest import protobuf_body, record_task


def _json_document() -> dict:
    body = protobuf_body(record_task("coder", [("grep", False)]))
    document = json_format.MessageToDict(codec.parse_request(body, codec.PROTOBUF))
    import base64

    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64decode(span[key]).hex()
    return document


def test_protobuf_and_json_give_the_same_spans() -> None:
    spans = record_task("coder", [("grep", False)])
    from_protobuf = codec.spans_of(codec.parse_request(protobuf_body(spans), codec.PROTOBUF))
    document = _json_document()
    from_json = codec.spans_of(codec.parse_request(json.dumps(document).encode(), codec.JSON))
    assert [s.name for s in from_json] == [s.name for s in from_protobuf]
    tool = from_protobuf[0]
    assert tool.error and tool.status_message == "grep failed"
    assert tool.attributes["gen_ai.tool.name"] == "grep"
    assert len(tool.trace_id) == 32 and len(tool.span_id) == 16 and len(tool.parent_span_id or "") == 16
    root = from_protobuf[-1]
    assert root.parent_span_id is None
    assert root.attributes["aaaf.task.complexity_level"] == 2


def test_media_type() -> None:
    assert codec.media_type("application/json; charset=utf-8") == codec.JSON
    assert codec.media_type("application/x-protobuf") == codec.PROTOBUF
    assert codec.media_type(None) == codec.PROTOBUF


def test_gzip_and_its_limit() -> None:
    assert codec.decompress(gzip.compress(b"abc"), "gzip") == b"abc"
    assert codec.decompress(b"abc", None) == b"abc"
    bomb = gzip.compress(b"\0" * (codec.MAX_DECOMPRESSED_BYTES + 1))
    with pytest.raises(AAAFError) as raised:
        codec.decompress(bomb, "gzip")
    assert raised.value.code == "PAYLOAD_TOO_LARGE"
    with pytest.raises(AAAFError) as raised:
        codec.decompress(b"not gzip", "gzip")
    assert raised.value.code == "INVALID_REQUEST"
    with pytest.raises(AAAFError):
        codec.decompress(b"x", "br")


def test_malformed_bodies_are_invalid_requests() -> None:
    for body, kind in [
        (b"\xff\xfe", codec.PROTOBUF),
        (b"[1]", codec.JSON),
        (b"{", codec.JSON),
        (
            json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}).encode(),
            codec.JSON,
        ),
        (json.dumps({"resourceSpans": 3}).encode(), codec.JSON),
    ]:
        with pytest.raises(AAAFError) as raised:
            codec.spans_of(codec.parse_request(body, kind))
        assert raised.value.code == "INVALID_REQUEST", body


def test_a_span_without_ids_is_refused() -> None:
    document = {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "x"}]}]}]}
    with pytest.raises(AAAFError) as raised:
        codec.spans_of(codec.parse_request(json.dumps(document).encode(), codec.JSON))
    assert "16-byte trace_id" in raised.value.message


def test_answers() -> None:
    assert codec.success_body(0, "", codec.JSON) == b"{}"
    answer = ExportTraceServiceResponse.FromString(codec.success_body(2, "why", codec.PROTOBUF))
    assert (answer.partial_success.rejected_spans, answer.partial_success.error_message) == (2, "why")
    warning = json.loads(codec.success_body(0, "note", codec.JSON))
    assert warning == {"partialSuccess": {"errorMessage": "note"}}
    status = status_pb2.Status.FromString(codec.status_body(429, "slow down", codec.PROTOBUF))
    assert (status.code, status.message) == (code_pb2.RESOURCE_EXHAUSTED, "slow down")
    assert json.loads(codec.status_body(401, "who?", codec.JSON)) == {"code": 16, "message": "who?"}
