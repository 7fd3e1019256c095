"""The event routes parse their JSON bodies with orjson, to the value or the error
``json.loads`` gives (aaaf.api.json_body)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from aaaf.api import create_app
from aaaf.api.json_body import parse_json
from tests.api.conftest import ADMIN_KEY, task_events

BODIES = [
    b'{"events": [{"a": 1, "b": [1.5, -0.0, 5e-324, true, null, "\\u00e9\\n"]}]}',
    b"123456789012345678901234567890",  # beyond 64 bits: an int, not a float
    b"-9223372036854775809",
    b"[0.12345678901234567890123]",
    b"18446744073709551615",
    b"1e400",  # infinity to json.loads
    b'"\\ud800"',  # a lone surrogate
    b"\xef\xbb\xbf{}",  # a byte-order mark
    '{"a": "\u00e9"}'.encode("utf-16"),
    b"NaN",
    b'{"a": 1, "a": 2}',
    b"[1,]",
    b'"\xff"',
    b"",
]


def _outcome(parse: Any, body: bytes) -> tuple[str, str]:
    try:
        return "value", repr(parse(body))
    except Exception as error:
        return "error", f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("body", BODIES)
def test_a_body_parses_as_json_loads_parses_it(body: bytes) -> None:
    assert _outcome(parse_json, body) == _outcome(json.loads, body)


def test_a_batch_is_parsed_without_json_loads(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(store_url, admin_key=ADMIN_KEY)) as client:
        created = client.post(
            "/api/v1/organizations", json={"name": "parsed"}, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        ).json()
        headers = {"Authorization": f"Bearer {created['api_key']}", "Content-Type": "application/json"}
        agent = client.post("/api/v1/agents", json={"name": "parsed"}, headers=headers).json()["id"]
        now = datetime.now(UTC)
        batch = [e for i in range(20) for e in task_events(agent, f"t{i}", now - timedelta(hours=i + 1))]
        body = json.dumps({"events": batch}).encode()
        calls: list[object] = []
        real = json.loads
        monkeypatch.setattr(
            json, "loads", lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs)
        )
        answer = client.post("/api/v1/events/batch", content=body, headers=headers)
        by_the_server = len(calls)  # (the client's answer.json() calls json.loads too)
        assert answer.status_code == 201 and answer.json()["accepted"] == 40, answer.text
        assert by_the_server == 0
        calls.clear()
        invalid = client.post("/api/v1/events/batch", content=b'{"events": [', headers=headers)
        assert invalid.status_code in (400, 422) and len(calls) == 1  # json.loads says what is wrong
