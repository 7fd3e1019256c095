"""Say when nobody is working (docs/jobs.md "Is anybody working?"): on PostgreSQL with no
`aaaf worker`, a triggered assessment waits; `/health` says `degraded` with the reason (HTTP
200, or 503 with AAAF_HEALTH_DEGRADED_STATUS=503), `aaaf status` says the same, `aaaf serve`
warns on stderr; once a worker runs, the job is done and all is `ok` again."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.api.conftest import ADMIN_KEY, aaaf_script, agent_evidence, start_server, start_worker
from tests.conftest import _PostgresSchema, _require_postgres


def _until(read: Callable[[], Any], done: Callable[[Any], bool], seconds: float = 120) -> Any:
    deadline = time.monotonic() + seconds
    value = read()
    while not done(value):
        assert time.monotonic() < deadline, f"still {value!r}"
        time.sleep(0.2)
        value = read()
    return value


def _status(url: str) -> dict[str, Any]:
    done = subprocess.run(
        [aaaf_script(), "status", "--db", url, "--json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_sqlite_health_reports_the_in_process_runner(live: Any) -> None:
    if live.dialect != "sqlite":
        return
    body = live.anonymous.get("/health").json()
    assert body["status"] == "ok" and body["queue"]["runner"] == "in-process"


def test_no_worker_is_degraded_and_said(tmp_path: Path) -> None:
    _require_postgres()
    schema = _PostgresSchema()
    plain = start_server(schema.url, tmp_path, extra_env={"AAAF_JOBS_WORKER_WARNING_SECONDS": "1"})
    strict = start_server(schema.url, tmp_path, extra_env={"AAAF_HEALTH_DEGRADED_STATUS": "503"})
    worker = None
    try:
        healthy = httpx.get(f"{plain.base_url}/health").json()
        assert healthy["status"] == "ok" and healthy["queue"]["runner"] == "procrastinate"
        assert healthy["queue"]["waiting_jobs"] == 0 and healthy["queue"]["last_worker_heartbeat"] is None
        # nobody works: the server says so on stderr
        _until(plain.log, lambda log: "no aaaf worker has beaten" in log)
        admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
        created = httpx.post(
            f"{plain.base_url}/api/v1/organizations",
            json={"name": "nobody-works", "minimum_tasks_performance": 2, "minimum_tasks_capability": 2},
            headers=admin,
        ).json()
        client = httpx.Client(
            base_url=plain.base_url, headers={"Authorization": f"Bearer {created['api_key']}"}
        )
        agent = client.post("/api/v1/agents", json={"name": "patient"}).json()
        client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
        started = client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
        assert started["status"] == "pending"
        pending = client.get(f"/api/v1/assessments/{started['id']}").json()
        assert pending["status"] == "pending" and pending["status_detail"] == "waiting for a worker"
        degraded = httpx.get(f"{plain.base_url}/health")
        assert degraded.status_code == 200
        body = degraded.json()
        assert body["status"] == "degraded" and body["queue"]["waiting_jobs"] >= 1
        assert "no worker has ever beaten" in body["reason"] and "aaaf worker" in body["reason"]
        refused = httpx.get(f"{strict.base_url}/health")
        assert refused.status_code == 503 and refused.json()["status"] == "degraded"
        said = _status(schema.url)
        assert said["status"] == "degraded" and said["queue"]["waiting_jobs"] >= 1
        # a worker comes: the job is done, the queue empties, all is ok again
        worker = start_worker(schema.url, tmp_path, env={"AAAF_PUBLIC_BASE_URL": plain.base_url})
        _until(
            lambda: client.get(f"/api/v1/assessments/{started['id']}").json()["status"],
            lambda s: s == "completed",
        )
        again = _until(lambda: httpx.get(f"{plain.base_url}/health").json(), lambda b: b["status"] == "ok")
        assert again["queue"]["last_worker_heartbeat"] is not None
        assert httpx.get(f"{strict.base_url}/health").status_code == 200
        assert _status(schema.url)["status"] == "ok"
        client.close()
    finally:
        plain.stop()
        strict.stop()
        if worker is not None:
            worker.stop()
        schema.drop()
