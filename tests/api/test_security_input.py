"""No 500 for any input (docs/security.md "Input"): deep JSON, NaN and Infinity, and NUL in
any text field are one 400 rule for every JSON body, form and uploaded file, on SQLite and
PostgreSQL."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tests.api.conftest import LiveServer, assert_error

PROMPTFOO = Path(__file__).parents[1] / "fixtures" / "promptfoo" / "results.json"

DEEP = b"[" * 100_000 + b"]" * 100_000


def test_deep_json_is_400_everywhere(live: LiveServer) -> None:
    org = live.organization()
    json_type = {"Content-Type": "application/json"}
    assert_error(
        org.client.post("/api/v1/eval-runs", content=DEEP, headers=json_type), 400, "INVALID_REQUEST"
    )
    assert_error(
        org.client.post("/api/v1/events/batch", content=b'{"events":' + DEEP + b"}", headers=json_type),
        400,
        "INVALID_REQUEST",
    )
    traces = org.client.post(
        "/v1/traces",
        content=gzip.compress(b'{"resourceSpans":' + DEEP + b"}"),
        headers={**json_type, "Content-Encoding": "gzip"},
    )
    assert traces.status_code == 400, traces.text
    assert "nests deeper" in traces.text


def test_nan_and_infinity_are_400(live: LiveServer) -> None:
    org = live.organization()
    for body in (
        b'{"recency_weights": NaN}',
        b'{"rate_limit_per_minute": Infinity}',
        b'{"audit_rate": -Infinity}',
    ):
        answer = org.client.patch(
            f"/api/v1/organizations/{org.id}/config",
            content=body,
            headers={"Content-Type": "application/json"},
        )
        assert_error(answer, 400, "INVALID_REQUEST")
    assert_error(
        org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"rate_limit_per_minute": 10**20}),
        400,
        "INVALID_REQUEST",
    )


def test_nul_is_refused_in_every_text_field(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "plain"}).json()
    attempts = [
        ("POST", "/api/v1/agents", {"name": "n", "description": "a\u0000b"}),
        ("POST", "/api/v1/agents", {"name": "d", "claimed_domains": ["co\u0000de"]}),
        ("PATCH", f"/api/v1/agents/{agent['id']}", {"description": "x\u0000"}),
        ("PUT", f"/api/v1/organizations/{org.id}/config/taxonomy", {"domains": ["a\u0000"]}),
        ("POST", "/api/v1/keys", {"name": "k\u0000", "scopes": ["read"]}),
        ("POST", "/api/v1/webhooks", {"url": "http://127.0.0.1/\u0000", "event_types": ["badge.issued"]}),
    ]
    for method, path, body in attempts:
        answer = org.client.request(method, path, json=body)
        error = assert_error(answer, 400, "INVALID_REQUEST")
        assert "NUL" in error["message"], (path, error)
    # a literal backslash-u in text is text, not a NUL
    fine = org.client.post(
        "/api/v1/agents", json={"name": "escaped", "description": "\\u0000 is how JSON writes NUL"}
    )
    assert fine.status_code == 201, fine.text


def test_forms_and_uploaded_files_follow_the_same_rule(live: LiveServer) -> None:
    """Forms (the dashboard's, ``/oauth/token``, a multipart upload) take no NUL and no field
    longer than 65 536 characters; an uploaded JSON file is held to the body rule; what an
    upload holds once read takes no NUL either — each a 400 naming the problem, never a 500."""
    org = live.organization()
    form = {"csrf_token": "t", "api_key": "ak_\x00guess", "next": "/"}
    error = assert_error(live.anonymous.post("/sign-in", data=form), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "form.api_key" and "NUL" in error["message"]
    page = live.anonymous.post("/sign-in", data=form, headers={"Accept": "text/html"})
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
    assert "form.api_key contains a NUL character" in page.text

    long = {"grant_type": "client_credentials", "client_id": "c" * 70_000, "client_secret": "s"}
    error = assert_error(live.anonymous.post("/oauth/token", data=long), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "form.client_id" and "65536" in error["message"]

    promptfoo = PROMPTFOO.read_bytes()
    with_note = org.client.post(
        "/api/v1/eval-runs", files={"file": ("results.json", promptfoo)}, data={"note": "a\x00b"}
    )
    assert assert_error(with_note, 400, "INVALID_REQUEST")["details"]["field"] == "form.note"
    for content, words in (
        (b'{"results": NaN}', "NaN or Infinity"),
        (DEEP, "nests deeper than 64"),
        (b'{"results": "\\u0000"}', "NUL character"),
    ):
        answer = org.client.post("/api/v1/eval-runs", files={"file": ("run.json", content)})
        error = assert_error(answer, 400, "INVALID_REQUEST")
        assert words in error["message"] and error["details"]["field"] == "body.file", error

    # a file not named as JSON is read by its importer; a NUL in what it read is refused too
    document = json.loads(promptfoo)
    document["results"]["results"][0]["response"]["output"] = "Paris\x00"
    unnamed = org.client.post(
        "/api/v1/eval-runs", files={"file": ("results", json.dumps(document).encode(), "text/plain")}
    )
    error = assert_error(unnamed, 400, "INVALID_REQUEST")
    assert "samples[0].output contains a NUL character" in error["message"]
    assert org.client.get("/api/v1/eval-runs").json()["items"] == []
