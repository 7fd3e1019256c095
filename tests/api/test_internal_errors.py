"""An unexpected exception is 500 ``INTERNAL_ERROR`` with a request id, never a stack trace
(issue 13 §2).  In process: no route of the product fails on purpose, so the test adds one."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.api.conftest import assert_error


def test_an_unexpected_failure_is_a_500_with_a_request_id_and_no_trace(tmp_path: Path, caplog) -> None:
    from aaaf.api import create_app

    app = create_app(f"sqlite:///{tmp_path / 'boom.db'}", admin_key="")

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals: /etc/passwd line 3")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/boom")
    error = assert_error(response, 500, "INTERNAL_ERROR")
    request_id = error["details"]["request_id"]
    assert request_id in error["message"] and response.headers["X-Request-Id"] == request_id
    assert "secret internals" not in response.text and "Traceback" not in response.text
    # the server log has the id beside the trace, for whoever is asked about it
    logged = [record for record in caplog.records if request_id in record.getMessage()]
    assert logged and logged[0].exc_info is not None


def test_an_unexpected_failure_carries_the_security_headers(tmp_path: Path) -> None:
    """Starlette answers an unexpected exception outside every middleware; the 500 still
    carries what every answer carries (docs/security.md "Headers"), as §6.4 JSON to an API
    client and as the dashboard's page to a browser."""
    from aaaf.api import create_app
    from aaaf.api.security_headers import PAGE_POLICY, RESOURCE_POLICY

    app = create_app(f"sqlite:///{tmp_path / 'boom.db'}", admin_key="")

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("unexpected")

    with TestClient(app, raise_server_exceptions=False, base_url="https://testserver") as client:
        answers = {
            "json": client.get("/boom", headers={"Authorization": "Bearer ak_x"}),
            "html": client.get("/boom", headers={"Accept": "text/html"}),
        }
    assert_error(answers["json"], 500, "INTERNAL_ERROR")
    assert answers["html"].status_code == 500
    assert answers["html"].headers["content-type"].startswith("text/html")
    assert "request id" in answers["html"].text
    for kind, answer in answers.items():
        headers = answer.headers
        assert headers["x-frame-options"] == "DENY", kind
        assert headers["x-content-type-options"] == "nosniff", kind
        assert headers["referrer-policy"] == "same-origin", kind
        assert headers["strict-transport-security"].startswith("max-age="), kind
    assert answers["json"].headers["content-security-policy"] == RESOURCE_POLICY
    assert answers["json"].headers["cache-control"] == "no-store"  # a key holder's answer
    assert answers["html"].headers["content-security-policy"] == PAGE_POLICY
