"""Installed stress libraries (docs/security.md "Files"): two libraries holding one task id
cannot both be installed in an organization (409 at install, instead of every stress run of
the organization failing later)."""

from __future__ import annotations

from tests.api.conftest import LiveServer, assert_error
from tests.stress_tasks import probe_task


def _task(task_id: str) -> dict:
    return probe_task(task_id, checks=[{"kind": "answer_number", "name": "four", "value": 4}])


def test_a_library_repeating_an_installed_task_id_is_409_at_install(live: LiveServer) -> None:
    org = live.organization()
    for name in ("first-lib", "second-lib"):
        published = org.client.post(
            "/api/v1/stress-libraries",
            json={"name": name, "version": "1.0", "tasks": [_task("shared-id"), _task(f"{name}-own")]},
        )
        assert published.status_code == 201, published.text
    assert org.client.post("/api/v1/stress-libraries/first-lib/1.0/install").status_code == 200
    clash = org.client.post("/api/v1/stress-libraries/second-lib/1.0/install")
    error = assert_error(clash, 409, "CONFLICT")
    assert error["details"]["task_ids"] == ["shared-id"]
    assert error["details"]["library"] == "first-lib@1.0"
    # installing the same library again stays a no-op
    assert org.client.post("/api/v1/stress-libraries/first-lib/1.0/install").status_code == 200
