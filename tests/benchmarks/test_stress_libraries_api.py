"""`/api/v1/stress-libraries` on the live server, both databases (issue 20 §3): publish with
§6.4 errors, immutable versions, shared libraries listed to another organization without their
publisher, private ones invisible, installs, and code graders refused when shared."""

from __future__ import annotations

import uuid
from typing import Any

from tests.api.conftest import LiveServer, assert_error
from tests.stress_tasks import probe_task

_task = probe_task


def test_publish_share_install_and_refusals_over_http(live: LiveServer) -> None:
    alpha, beta = live.organization(), live.organization()
    name, secret = f"shared-{uuid.uuid4().hex[:12]}", f"private-{uuid.uuid4().hex[:12]}"
    task_id = f"api-{uuid.uuid4().hex[:8]}"
    body = {"name": name, "version": "1.0", "visibility": "shared", "tasks": [_task(task_id)]}
    published = alpha.client.post("/api/v1/stress-libraries", json=body)
    assert published.status_code == 201, published.text
    assert published.json()["owned"] is True and published.json()["task_ids"] == [task_id]
    assert_error(alpha.client.post("/api/v1/stress-libraries", json=body), 409, "CONFLICT")
    private = {"name": secret, "version": "1", "tasks": [_task(f"{task_id}-p")]}
    assert alpha.client.post("/api/v1/stress-libraries", json=private).status_code == 201

    listed = beta.client.get("/api/v1/stress-libraries").json()["items"]
    names = {item["name"] for item in listed}
    assert name in names and secret not in names
    text = beta.client.get("/api/v1/stress-libraries").text
    assert alpha.id not in text and alpha.name not in text
    assert_error(beta.client.get(f"/api/v1/stress-libraries/{secret}/1"), 404, "NOT_FOUND")
    assert_error(beta.client.post(f"/api/v1/stress-libraries/{secret}/1/install"), 404, "NOT_FOUND")

    installed = beta.client.post(f"/api/v1/stress-libraries/{name}/1.0/install")
    assert installed.status_code == 200, installed.text
    assert installed.json()["installed"] is True and installed.json()["owned"] is False
    mine = beta.client.get(f"/api/v1/stress-libraries/{name}/1.0").json()
    assert mine["installed"] is True
    assert alpha.client.get(f"/api/v1/stress-libraries/{name}/1.0").json()["installed"] is False

    # validation on upload, naming the task and the field
    bad = {
        "name": f"bad-{uuid.uuid4().hex[:8]}",
        "version": "1",
        "tasks": [_task("bad-1", complexity_level=9)],
    }
    error = assert_error(alpha.client.post("/api/v1/stress-libraries", json=bad), 400, "INVALID_REQUEST")
    assert error["details"]["task_id"] == "bad-1" and error["details"]["field"] == "tasks.0.complexity_level"
    # a shared library whose grader runs code is refused, naming task and grader
    coded = _task("coded-1", checks=[{"kind": "unit_tests", "name": "runs", "tests": "assert True"}])
    refused = alpha.client.post(
        "/api/v1/stress-libraries",
        json={
            "name": f"coded-{uuid.uuid4().hex[:8]}",
            "version": "1",
            "visibility": "shared",
            "tasks": [coded],
        },
    )
    error = assert_error(refused, 400, "INVALID_REQUEST")
    assert "'coded-1'" in error["message"] and "unit_tests" in error["message"]
    # publishing and installing take the admin scope
    reader = live.client(_read_key(live, alpha))
    assert_error(reader.post("/api/v1/stress-libraries", json=private), 403, "FORBIDDEN")
    assert reader.get("/api/v1/stress-libraries").status_code == 200


def _read_key(live: LiveServer, org: Any) -> str:
    created = org.client.post("/api/v1/keys", json={"scopes": ["read"]})
    assert created.status_code == 201, created.text
    return str(created.json()["api_key"])
