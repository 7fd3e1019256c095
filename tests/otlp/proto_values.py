"""A Python value as an OTLP ``AnyValue``, for tests that build exports by hand."""

from __future__ import annotations

from typing import Any

from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


def any_value(value: Any) -> AnyValue:
    """``value`` (None: no value set; bool, int, float, bytes, list, dict, else text) as an ``AnyValue``."""
    if value is None:
        return AnyValue()
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    if isinstance(value, bytes):
        return AnyValue(bytes_value=value)
    if isinstance(value, list):
        return AnyValue(array_value={"values": [any_value(item) for item in value]})
    if isinstance(value, dict):
        return AnyValue(
            kvlist_value={"values": [KeyValue(key=k, value=any_value(v)) for k, v in value.items()]}
        )
    return AnyValue(string_value=value)
