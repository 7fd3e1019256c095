"""Stress evidence has provenance (docs/stress-tests.md "Provenance"), tried as a tester would on a
live ``aaaf serve``, SQLite and PostgreSQL (the session's servers):

* an ``events:write`` key cannot post events marked as stress-test evidence with an invented run
  id — by ``POST /api/v1/events``, ``/events/batch`` or OTLP ``/v1/traces`` — nor can ``aaaf
  collect``: each such event is refused with ``STRESS_EVIDENCE_REFUSED`` on
  ``data.evidence_source``, and everything else sent with it is stored;
* forged events already in a database (written before the rule, straight into the server's
  database here) are not stress evidence: a ``stress_test_only`` assessment of them is refused
  with ``INSUFFICIENT_EVIDENCE``, a ``full`` one counts them as reported by the organization;
* a real run of the harness (``aaaf stress-test`` with the ``oracle`` reference agent) still
  counts, and the assessment, the badge credential, the verification page (HTML and JSON),
  ``aaaf verify`` and the reports say how many tasks of each axis were stress-tested here and
  how many were reported.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from aaaf.evidence.validation import validate_event
from aaaf.store import open_store
from tests.api.conftest import (
    LiveServer,
    Org,
    aaaf_script,
    agent_evidence,
    assert_error,
    poll_until,
    task_events,
)
from tests.api.conftest import wait_for_status as _wait_for_status
from tests.otlp.conftest import protobuf_body, record_task

MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}
STRESS_TASKS = [f"probe-{domain}-{i}" for domain in ("code", "legal") for i in (1, 2, 3)]
ORACLE = f"{aaaf_script()} reference-agent oracle"
INVENTED_RUN = "00000000-0000-4000-8000-00000000dead"


def _forged(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` marked as stress-test evidence of a run nobody ran."""
    return [
        {**event, "data": {**event["data"], "evidence_source": "stress_test", "stress_run_id": INVENTED_RUN}}
        for event in events
    ]


def _agent(org: Org, name: str) -> str:
    created = org.client.post("/api/v1/agents", json={"name": name})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def _stored_keys(org: Org, agent_id: str) -> list[str]:
    listed = org.client.get("/api/v1/events", params={"agent_id": agent_id, "limit": 1000})
    assert listed.status_code == 200, listed.text
    return sorted(event["key"] for event in listed.json()["items"])


def _aaaf(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    for name in ("AAAF_DB", "AAAF_DATABASE_URL", "AAAF_ORG"):
        env.pop(name, None)
    return subprocess.run(
        [aaaf_script(), *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env, check=False
    )


def _refusal_is_named(error: dict[str, Any]) -> None:
    """The per-item refusal: its code, its field, why and what to do instead."""
    assert error["code"] == "STRESS_EVIDENCE_REFUSED"
    assert error["field"] == "data.evidence_source"
    message = error.get("error") or error.get("message")
    assert message.startswith('data.evidence_source: "stress_test" marks evidence')
    assert "stress-test harness" in message and "not stored" in message
    assert "aaaf stress-test" in message and "aaaf import-inspect" in message


def test_forged_stress_events_are_refused_on_every_route_and_the_rest_is_stored(
    live: LiveServer, tmp_path: Path
) -> None:
    org = live.organization()
    now = datetime.now(UTC)
    agent_id = _agent(org, "forger")
    honest = task_events(agent_id, "honest-1", now - timedelta(hours=1)) + task_events(
        agent_id, "honest-2", now - timedelta(hours=2)
    )
    forged = _forged(task_events(agent_id, "forged-1", now - timedelta(hours=3)))

    # one event: refused with the named error, nothing stored
    single = assert_error(org.client.post("/api/v1/events", json=forged[0]), 400, "STRESS_EVIDENCE_REFUSED")
    assert single["details"] == {"field": "data.evidence_source", "id": "forged-1-a"}
    _refusal_is_named({**single, "field": single["details"]["field"]})
    assert _stored_keys(org, agent_id) == []

    # a batch: the forged events refused by index, every honest one stored
    batch = [honest[0], forged[0], honest[1], forged[1], honest[2], honest[3]]
    answer = org.client.post("/api/v1/events/batch", json={"events": batch})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["accepted"], body["duplicates"], body["rejected"]) == (4, 0, 2)
    assert [(e["index"], e["id"]) for e in body["errors"]] == [(1, "forged-1-a"), (3, "forged-1-c")]
    for error in body["errors"]:
        _refusal_is_named(error)
    assert _stored_keys(org, agent_id) == sorted(e["id"] for e in honest)

    # OTLP: a task span claiming stress provenance is rejected with its reason, the other stored
    name = f"otel-{uuid.uuid4().hex[:8]}"
    kept = record_task(name, [("search", True)])
    claimed = record_task(
        name, [], attributes={"aaaf.evidence_source": "stress_test", "aaaf.stress_run_id": INVENTED_RUN}
    )
    response = httpx.post(
        f"{live.base_url}/v1/traces",
        content=protobuf_body([*kept, *claimed]),
        headers={"Content-Type": "application/x-protobuf", "Authorization": f"Bearer {org.key}"},
    )
    assert response.status_code == 200, response.text
    partial = ExportTraceServiceResponse.FromString(response.content).partial_success
    assert partial.rejected_spans == 1
    forged_span = f"{claimed[-1].context.span_id:016x}"
    assert f'span {forged_span}: data.evidence_source: "stress_test" marks evidence' in partial.error_message
    otel_agent = org.client.get(f"/api/v1/agents/{name}").json()["id"]
    stored = org.client.get("/api/v1/events", params={"agent_id": otel_agent}).json()["items"]
    kept_task = f"otel-{kept[-1].context.trace_id:032x}-{kept[-1].context.span_id:016x}"
    assert sorted(e["type"] for e in stored) == ["task_assigned", "task_completed", "tool_invoked"]
    assert {e["data"]["task_id"] for e in stored} == {kept_task}

    # aaaf collect on the server's database: task logs and a manual event; exit 2, the message
    log = tmp_path / "events.jsonl"
    lines = [
        *task_events(agent_id, "cli-1", now - timedelta(hours=4)),
        *_forged(task_events(agent_id, "cli-2", now)),
    ]
    log.write_text("".join(json.dumps(event) + "\n" for event in lines), encoding="utf-8")
    collected = _aaaf(
        "--org", org.name, "collect", "forger", str(log), "--db", live.database_url, cwd=tmp_path
    )
    assert collected.returncode == 2, collected.stderr
    out = " ".join(collected.stdout.split())
    assert "accepted 2, rejected 2" in out
    assert 'line 3: [STRESS_EVIDENCE_REFUSED] data.evidence_source: "stress_test" marks evidence' in out
    assert "line 4: [STRESS_EVIDENCE_REFUSED]" in out
    manual = _aaaf(
        "--org", org.name, "collect", "forger", "--source", "manual", "--type", "task_assigned",
        "--data", json.dumps(forged[0]["data"] | {"task_id": "manual-1"}), "--db", live.database_url,
        "--json", cwd=tmp_path,
    )  # fmt: skip
    assert manual.returncode == 2, manual.stderr
    report = json.loads(manual.stdout)
    assert (report["accepted"], report["rejected"]) == (0, 1)
    _refusal_is_named(report["errors"][0])
    assert _stored_keys(org, agent_id) == sorted([*(e["id"] for e in honest), "cli-1-a", "cli-1-c"])


def _insert_forged(live: LiveServer, org: Org, agent_name: str, tasks: int) -> None:
    """What a database written before the rule may hold: forged stress events, stored as they
    were then (validated, straight into the store)."""
    now = datetime.now(UTC)
    with open_store(live.database_url) as store:
        scoped = store.scope(uuid.UUID(org.id))
        agent = scoped.get_agent(agent_name)
        events = []
        for index in range(tasks):
            events += _forged(task_events(str(agent.id), f"forged-{index}", now - timedelta(hours=1 + index)))
        scoped.add_events([(agent.id, validate_event(e, now=now)) for e in events])


def test_forged_stress_events_already_stored_are_not_stress_evidence(live: LiveServer) -> None:
    org = live.organization(**MINIMUMS)
    agent_id = _agent(org, "old-forger")
    _insert_forged(live, org, "old-forger", 8)  # 16 events, every one claiming stress run INVENTED_RUN
    # the old exploit: stress_test_only of forged evidence alone — refused now, and nothing recorded
    refused = assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "stress_test_only"}),
        422,
        "INSUFFICIENT_EVIDENCE",
    )
    assert refused["details"] == {
        "field": "type",
        "assessment_type": "stress_test_only",
        "stress_test_events": 0,
        "reported_stress_events": 16,
    }
    assert "16 event(s) from stress tests this installation did not run" in refused["message"]
    assert org.client.get("/api/v1/assessments", params={"agent_id": agent_id}).json()["items"] == []
    # full: the forged events count as evidence reported by the organization
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "full"})
    assert started.status_code == 202, started.text
    done = _wait_for_status(org.client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    assert done["evidence_sources"] == {
        "passive_events": 16,
        "stress_test_events": 0,
        "stress_runs": [],
        "reported_stress_events": 16,
        "reported_stress_runs": [],  # INVENTED_RUN names no stored run
        # each of the 8 tasks: its task_assigned and task_completed
        "performance": {"stress_tested_tasks": 0, "reported_tasks": 8, "stress_tested_events": 0, "reported_events": 16},
        # domain_breadth examined the 8 code tasks (≥ 3 completed in the domain): their 16 events
        "capability": {"stress_tested_tasks": 0, "reported_tasks": 8, "stress_tested_events": 0, "reported_events": 16},
    }  # fmt: skip


def _badge(org: Org, assessment_id: str) -> None:
    url = f"/api/v1/badges/{assessment_id}"
    assert (
        poll_until(lambda: org.client.get(url).status_code, lambda status: status == 200, timeout=120) == 200
    )


def _page_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_real_harness_run_counts_and_every_view_says_where_the_evidence_came_from(
    live: LiveServer, tmp_path: Path
) -> None:
    org = live.organization(**MINIMUMS)
    agent_id = _agent(org, "probed")
    # the harness of this installation, as a user runs it, on the server's database
    args = [f"--task={task}" for task in STRESS_TASKS]
    ran = _aaaf(
        "--org", org.name, "stress-test", "probed", "--agent-cmd", ORACLE, *args, "--parallel", "3",
        "--log-dir", str(tmp_path / "logs"), "--db", live.database_url, "--json", cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    run = json.loads(ran.stdout)
    assert run["status"] == "finished" and run["summary"]["statuses"] == {"accepted": 6}
    assert run["summary"]["events"]["rejected"] == 0 and run["summary"]["provenance"] == "stress_tested"
    # beside it: 4 tasks the organization reports over the API, 3 forged tasks an old database holds
    sent = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent_id, 4)})
    assert sent.json()["accepted"] == 8, sent.text
    _insert_forged(live, org, "probed", 3)

    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "stress_test_only"})
    assert started.status_code == 202, started.text
    done = _wait_for_status(org.client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    sources = done["evidence_sources"]
    assert sources["stress_runs"] == [run["id"]] and sources["passive_events"] == 0
    assert sources["reported_stress_events"] == 0  # the forged ones are not scored by stress_test_only
    assert (
        sources["performance"]["stress_tested_tasks"] == 6 and sources["performance"]["reported_tasks"] == 0
    )
    assert sources["capability"]["stress_tested_tasks"] == 6 and sources["capability"]["reported_tasks"] == 0
    completion = done["performance"]["dimensions"]["task_completion_rate"]
    assert completion["sample_size"] == 6 and completion["score"] == 1.0  # the oracle's
    assessment_id = done["id"]
    _badge(org, assessment_id)
    performance = (
        "Performance: 6 of 6 tasks stress-tested by this installation, 0 reported by the organization."
    )
    capability = (
        "Capability: 6 of 6 tasks stress-tested by this installation, 0 reported by the organization."
    )
    runs_line = f"Stress runs of this installation: {run['id']}."

    # the credential: its subject member and OB 3.0 evidence (the narrative, one entry per run)
    credential = live.anonymous.get(f"/api/v1/badges/{assessment_id}.json").json()
    carried = credential["credentialSubject"]["evidence_sources"]
    assert carried["performance"] == sources["performance"] and carried["capability"] == sources["capability"]
    assert carried["stress_runs"] == [run["id"]] and carried["reported_stress_runs"] == []
    record, stress_run = credential["evidence"]
    assert record["narrative"] == "\n\n".join([performance, capability, runs_line])
    assert stress_run["id"] == f"{live.base_url}/api/v1/stress-runs/{run['id']}"
    assert stress_run["type"] == ["Evidence"] and stress_run["genre"] == "Stress test run"

    # the public verification: JSON and the page
    verdict = live.anonymous.get(f"/api/v1/badges/{assessment_id}/verify").json()
    assert verdict["valid"] is True
    assert verdict["evidence_sources"] == carried
    page = live.anonymous.get(f"/verify/{assessment_id}")
    assert page.status_code == 200
    text = _page_text(page.text)
    assert "Evidence behind this badge" in text
    for line in (performance, capability, runs_line):
        assert line in text

    # aaaf verify, offline, on the PNG with the issuer's keys
    (tmp_path / "badge.png").write_bytes(live.anonymous.get(f"/api/v1/badges/{assessment_id}.png").content)
    (tmp_path / "jwks.json").write_text(live.anonymous.get("/.well-known/jwks.json").text, encoding="utf-8")
    verified = _aaaf(
        "verify", str(tmp_path / "badge.png"), "--key", str(tmp_path / "jwks.json"), cwd=tmp_path
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    said = " ".join(verified.stdout.split())
    for line in (performance, capability, runs_line):
        assert f"evidence: {line}" in said

    # full: the run's 6 tasks stress-tested; the 4 sent and the 3 forged reported (hand count: 7)
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "full"})
    full = _wait_for_status(org.client, started.json()["id"], timeout=120)
    assert full["status"] == "completed", full
    mixed = full["evidence_sources"]
    assert mixed["stress_runs"] == [run["id"]] and mixed["reported_stress_events"] == 6
    assert mixed["passive_events"] == 8 + 6  # 4 sent tasks and 3 forged ones, 2 events each
    assert (mixed["performance"]["stress_tested_tasks"], mixed["performance"]["reported_tasks"]) == (6, 7)
    assert (mixed["capability"]["stress_tested_tasks"], mixed["capability"]["reported_tasks"]) == (6, 7)

    # the Markdown report of the agent (its latest assessment: full) and the fleet summary
    reported = _aaaf(
        "--org", org.name, "report", "probed", "--no-trust", "-o", str(tmp_path / "reports"),
        "--db", live.database_url, cwd=tmp_path,
    )  # fmt: skip
    assert reported.returncode == 0, reported.stderr
    markdown = (tmp_path / "reports" / "probed.md").read_text(encoding="utf-8")
    assert "## Where the evidence came from" in markdown
    assert (
        "- Performance: 6 of 13 tasks stress-tested by this installation, 7 reported by the organization."
        in markdown
    )
    assert f"- Stress runs of this installation: {run['id']}." in markdown
    summarised = _aaaf(
        "--org", org.name, "report", "--summary", "--no-trust", "-o", str(tmp_path / "summary.md"),
        "--db", live.database_url, cwd=tmp_path,
    )  # fmt: skip
    assert summarised.returncode == 0, summarised.stderr
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| probed | 6 / 7 | 6 / 7 | 1 |" in summary
