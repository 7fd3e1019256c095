"""Tenant isolation for every route, generated from the app's route table (issue 13 §3, §7).

Organization A's all-scopes key is sent against organization B's ids on every route: a
route with an id in its path must answer 404 ``NOT_FOUND`` (as if B's resource did not
exist), never 200; a route whose ids come in the query or the body has its own case below.
A route that is neither public nor covered here fails the test, so a new route cannot
escape the check without someone writing its case.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from starlette.routing import Mount

from tests.api.conftest import LiveServer, Org, agent_evidence, assert_error, wait_for_status
from tests.stress_tasks import probe_task

# SCORING.md §7 "Public routes" (and the admin-key route, which no organization's key reaches)
PUBLIC = {
    ("GET", "/health"),
    ("GET", "/openapi.json"),
    ("GET", "/docs"),
    ("HEAD", "/docs"),
    ("HEAD", "/openapi.json"),
    ("POST", "/api/v1/organizations"),
    ("GET", "/.well-known/jwks.json"),
    ("GET", "/api/v1/organizations/{org_id}/status-list"),
    ("GET", "/api/v1/badges/{assessment_id}/verify"),
    ("GET", "/api/v1/badges/{assessment_id}.svg"),
    ("GET", "/api/v1/badges/{assessment_id}.png"),
    ("GET", "/api/v1/badges/{assessment_id}.json"),
    ("GET", "/api/v1/badges/{assessment_id}.jwt"),
    ("POST", "/oauth/token"),
    ("GET", "/verify/{assessment_id}"),  # the verification page (HTML, issue 17): a private badge is 404
    ("GET", "/static/verify.css"),  # its stylesheet
}
PUBLIC_MOUNTS = {"/docs/assets", "/static"}  # /static: the dashboard's CSS and htmx (issue 17)
# a public address (no DNS needed): the shared server refuses loopback targets and never sends
PUBLIC_HOOK = "https://93.184.216.34/aaaf-hook"
# a valid body for routes that need one, so that the answer is about the id, not the body
BODIES: dict[tuple[str, str], Any] = {
    ("PATCH", "/api/v1/agents/{agent_id}"): {"description": "changed by another organization"},
    ("PATCH", "/api/v1/organizations/{org_id}/config"): {"assessment_window_days": 7},
    ("PUT", "/api/v1/organizations/{org_id}/config/weights"): {
        "performance_weights": {
            "task_completion_rate": 0.2,
            "accuracy": 0.2,
            "speed": 0.2,
            "consistency": 0.2,
            "review_compliance": 0.2,
        }
    },
    ("PUT", "/api/v1/organizations/{org_id}/config/taxonomy"): {"domain_taxonomy": ["taken-over"]},
    ("POST", "/api/v1/assessments/{assessment_id}/appeals"): {
        "dimensions_challenged": ["accuracy"],
        "justification": "filed by another organization",
        "counter_evidence": [{"task_id": "task-000", "claim": "x"}],
    },
    ("POST", "/api/v1/assessments/{assessment_id}/appeals/{appeal_id}/resolve"): {"decision": "accepted"},
    ("PATCH", "/api/v1/organizations/{org_id}"): {"name": "renamed-by-another-organization"},
    ("POST", "/api/v1/organizations/{org_id}/oauth-clients"): {"scopes": ["admin"]},
    ("POST", "/api/v1/badges/{assessment_id}/revoke"): {"reason": "revoked by another organization"},
    ("PATCH", "/api/v1/badges/{assessment_id}"): {"visibility": "private"},
    ("POST", "/api/v1/badges/{assessment_id}/review"): {"decision": "reject"},
    ("PATCH", "/api/v1/webhooks/{webhook_id}"): {"active": False},
    ("POST", "/api/v1/assessments/{assessment_id}/stress-test"): {
        "agent_url": "https://agent.example.com/v1",
        "model": "m",
    },
    ("POST", "/api/v1/agents/{agent_id}/audits/findings"): {
        "auditor": "another organization's auditor",
        "findings": [{"task_id": "task-000", "finding": {"checklist": {"memory_written": True}}}],
    },
}


@dataclass
class Victim:
    """Organization B and one of each of its resources."""

    org: Org
    agent_id: str
    assessment_id: str
    key_id: str
    appeal_id: str
    eval_run_id: str
    webhook_id: str
    delivery_id: str
    oauth_client_id: str
    library_name: str  # a private stress-task library of B (issue 20 §3)

    def path_ids(self) -> dict[str, str]:
        return {
            "org_id": self.org.id,
            "agent_id": self.agent_id,
            "assessment_id": self.assessment_id,
            "key_id": self.key_id,
            "appeal_id": self.appeal_id,
            "run_id": self.eval_run_id,
            "webhook_id": self.webhook_id,
            "delivery_id": self.delivery_id,
            "oauth_client_id": self.oauth_client_id,
            "name": self.library_name,
            "version": "1.0",
        }


def _event(victim: Victim) -> dict[str, Any]:
    return agent_evidence(victim.agent_id, 1)[0]


def _batch(client: httpx.Client, victim: Victim) -> None:
    body = client.post("/api/v1/events/batch", json={"events": [_event(victim)]}).json()
    assert (body["accepted"], body["rejected"]) == (0, 1)
    assert body["errors"][0]["code"] == "NOT_FOUND"


def _list_keys(client: httpx.Client, victim: Victim) -> None:
    ids = {item["id"] for item in client.get("/api/v1/keys").json()["items"]}
    assert victim.key_id not in ids


def _list_webhooks(client: httpx.Client, victim: Victim) -> None:
    ids = {item["id"] for item in client.get("/api/v1/webhooks").json()["items"]}
    assert victim.webhook_id not in ids


def _create_webhook(client: httpx.Client, victim: Victim) -> None:
    created = client.post(
        "/api/v1/webhooks", json={"url": PUBLIC_HOOK, "event_types": ["assessment.completed"]}
    ).json()
    assert created["organization_id"] != victim.org.id


def _create_key(client: httpx.Client, victim: Victim) -> None:
    created = client.post("/api/v1/keys", json={"scopes": ["read"]}).json()
    assert created["organization_id"] != victim.org.id


def _workflow_run(client: httpx.Client, victim: Victim) -> None:
    run = {
        "agent_id": victim.agent_id,
        "type": "workflow_run",
        "timestamp": "2026-11-01T00:00:00+00:00",
        "data": WORKFLOW_RUN_DATA,
    }
    body = client.post("/api/v1/workflow-runs", json={"runs": [run]}).json()
    assert (body["accepted"], body["rejected"]) == (0, 1)
    assert body["errors"][0]["code"] == "NOT_FOUND"


def _list_eval_runs(client: httpx.Client, victim: Victim) -> None:
    ids = {item["id"] for item in client.get("/api/v1/eval-runs").json()["items"]}
    assert victim.eval_run_id not in ids


def _upload_eval_run(client: httpx.Client, victim: Victim) -> None:
    answer = client.post("/api/v1/eval-runs", json=EVAL_RUN)
    assert answer.status_code == 201, answer.text
    assert victim.eval_run_id not in {item["id"] for item in answer.json()["items"]}


def _workflow_weights(client: httpx.Client, victim: Victim) -> None:
    agents = [row["agent"] for row in client.get("/api/v1/workflow-weights").json()["agents"]]
    assert "victim" not in agents


def _library(name: str, *, task: str = "probe", version: str = "1.0") -> dict[str, Any]:
    """A private one-task stress library (the format of docs/stress-tests.md)."""
    return {
        "name": name,
        "version": version,
        "visibility": "private",
        "description": "B's own tasks",
        "tasks": [probe_task(f"{name}-{task}")],
    }


def _mentions_victim(text: str, victim: Victim) -> bool:
    return any(
        marker in text for marker in (victim.org.id, victim.org.name, victim.agent_id, victim.assessment_id)
    )


def _benchmarks(client: httpx.Client, victim: Victim) -> None:
    answer = client.get("/api/v1/benchmarks")
    assert answer.status_code == 200, answer.text
    assert not _mentions_victim(answer.text, victim)


def _list_libraries(client: httpx.Client, victim: Victim) -> None:
    answer = client.get("/api/v1/stress-libraries")
    assert answer.status_code == 200, answer.text
    # (A may hold a library of the same name: _publish_library makes one, version 2.0)
    assert f"{victim.library_name}-probe" not in answer.text and not _mentions_victim(answer.text, victim)
    assert all(item["owned"] for item in answer.json()["items"] if item["name"] == victim.library_name)


def _publish_library(client: httpx.Client, victim: Victim) -> None:
    # A's private library of the same name is A's own (another version, so that the routes
    # naming B's NAME/1.0 still find nothing of A's); B's is untouched
    mine = client.post(
        "/api/v1/stress-libraries", json=_library(victim.library_name, task="mine", version="2.0")
    )
    assert mine.status_code == 201, mine.text
    theirs = victim.org.client.get(f"/api/v1/stress-libraries/{victim.library_name}/1.0")
    assert theirs.status_code == 200 and theirs.json()["task_ids"] == [f"{victim.library_name}-probe"]


def _otlp_traces(client: httpx.Client, victim: Victim) -> None:
    # an invoke_agent span naming B's agent by id is not B's evidence (issue 19)
    span = {
        "traceId": uuid.uuid4().hex,
        "spanId": uuid.uuid4().hex[:16],
        "name": "invoke_agent victim",
        "kind": 1,
        "startTimeUnixNano": "1763900000000000000",
        "endTimeUnixNano": "1763900001000000000",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_agent"}},
            {"key": "gen_ai.agent.id", "value": {"stringValue": victim.agent_id}},
        ],
        "status": {"code": 1},
    }
    document = {
        "resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "t"}, "spans": [span]}]}]
    }
    answer = client.post("/v1/traces", json=document)
    assert answer.status_code == 200, answer.text
    events = victim.org.client.get("/api/v1/events", params={"agent_id": victim.agent_id, "limit": 1000})
    assert not any((e["task_id"] or "").startswith("otel-") for e in events.json()["items"])


WORKFLOW_RUN_DATA = {
    "task_id": "w",
    "steps_completed": 1,
    "dag_steps": 1,
    "output_quality": 1.0,
    "actual_cost": 1.0,
    "max_budget": 2.0,
    "actual_seconds": 30.0,
    "max_latency_seconds": 60.0,
    "actual_retries": 0,
    "declared_retry_budget": 0,
    "timeouts": 0,
    "hard_failures": 0,
}
EVAL_RUN = {
    "run_id": "victim-run",
    "variant": "v",
    "samples": [
        {"sample_id": f"s{i}", "assertions": [{"type": "contains", "passed": True}]} for i in range(3)
    ],
}


# routes whose ids come in the query or the body: what organization A tries with B's ids
CASES: dict[tuple[str, str], Callable[[httpx.Client, Victim], None]] = {
    ("GET", "/api/v1/agents"): lambda c, v: assert_error(
        c.get("/api/v1/agents", params={"org_id": v.org.id}), 404, "NOT_FOUND"
    ),
    ("POST", "/api/v1/agents"): lambda c, v: assert_error(
        c.post("/api/v1/agents", json={"name": "intruder", "organization_id": v.org.id}), 404, "NOT_FOUND"
    ),
    ("GET", "/api/v1/events"): lambda c, v: assert_error(
        c.get("/api/v1/events", params={"agent_id": v.agent_id}), 404, "NOT_FOUND"
    ),
    ("POST", "/api/v1/events"): lambda c, v: assert_error(
        c.post("/api/v1/events", json=_event(v)), 404, "NOT_FOUND"
    ),
    ("POST", "/api/v1/events/batch"): _batch,
    ("GET", "/api/v1/assessments"): lambda c, v: assert_error(
        c.get("/api/v1/assessments", params={"agent_id": v.agent_id}), 404, "NOT_FOUND"
    ),
    ("POST", "/api/v1/assessments"): lambda c, v: assert_error(
        c.post("/api/v1/assessments", json={"agent_id": v.agent_id}), 404, "NOT_FOUND"
    ),
    ("GET", "/api/v1/keys"): _list_keys,
    ("POST", "/api/v1/workflow-runs"): _workflow_run,
    ("GET", "/api/v1/workflow-weights"): _workflow_weights,
    ("GET", "/api/v1/eval-runs"): _list_eval_runs,
    ("POST", "/api/v1/eval-runs"): _upload_eval_run,
    ("POST", "/api/v1/eval-runs/compare"): lambda c, v: assert_error(
        c.post("/api/v1/eval-runs/compare", json={"control": v.eval_run_id, "treatments": [v.eval_run_id]}),
        404,
        "NOT_FOUND",
    ),
    ("GET", "/api/v1/webhooks"): _list_webhooks,
    ("POST", "/api/v1/webhooks"): _create_webhook,
    ("POST", "/api/v1/keys"): _create_key,
    ("GET", "/api/v1/benchmarks"): _benchmarks,
    ("GET", "/api/v1/stress-libraries"): _list_libraries,
    ("POST", "/api/v1/stress-libraries"): _publish_library,
    ("POST", "/v1/traces"): _otlp_traces,
}


def _flatten(routes: list[Any], prefix: str = "") -> list[tuple[str, str]]:
    table = []
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI >= 0.16x: an included router
        if included is not None:
            inner = getattr(getattr(route, "include_context", None), "prefix", "") or ""
            table += _flatten(included.routes, prefix + inner)
            continue
        if isinstance(route, Mount):
            assert prefix + route.path in PUBLIC_MOUNTS, f"unexpected mount {route.path}: add it here"
            continue
        if getattr(getattr(route, "endpoint", None), "__module__", "").startswith("aaaf.api.web"):
            # the dashboard's pages (issue 17) take a session cookie, not a key: their tenancy
            # (another organization's agent or assessment is a 404) is tested in tests/web and
            # tests/browser
            continue
        for method in sorted(getattr(route, "methods", None) or ()):
            table.append((method, prefix + route.path))
    return table


def route_table() -> list[tuple[str, str]]:
    """Every (method, path) the app serves (a mount other than the docs' assets fails)."""
    from aaaf.api import create_app

    return _flatten(list(create_app("sqlite://").routes))


def test_the_route_table_is_complete() -> None:
    """The table the isolation test walks is the app's: every path of the OpenAPI document."""
    from aaaf.api import openapi_document

    table = set(route_table())
    for path, operations in openapi_document()["paths"].items():
        for method in operations:
            assert (method.upper(), path) in table


def _victim(live: LiveServer) -> Victim:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    webhook = org.client.post(
        "/api/v1/webhooks", json={"url": PUBLIC_HOOK, "event_types": ["assessment.started"]}
    ).json()
    agent = org.client.post("/api/v1/agents", json={"name": "victim"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 2)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    assert wait_for_status(org.client, started["id"])["status"] == "completed"
    key = org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()
    appeal = org.client.post(
        f"/api/v1/assessments/{started['id']}/appeals",
        json={
            "dimensions_challenged": ["accuracy"],
            "justification": "victim's own appeal",
            "counter_evidence": [{"task_id": "task-000", "claim": "scope change"}],
        },
    ).json()
    (eval_run,) = org.client.post("/api/v1/eval-runs", json=EVAL_RUN).json()["items"]
    # the victim's agent has a workflow run (so that the weights would show it)
    stored = org.client.post(
        "/api/v1/workflow-runs",
        json={
            "runs": [
                {
                    "agent_id": agent["id"],
                    "type": "workflow_run",
                    "timestamp": "2026-11-01T00:00:00+00:00",
                    "data": WORKFLOW_RUN_DATA,
                }
            ]
        },
    )
    assert stored.json()["accepted"] == 1, stored.text
    [delivery] = org.client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries").json()["items"]
    oauth_client = org.client.post(f"/api/v1/organizations/{org.id}/oauth-clients", json={"scopes": ["read"]})
    library_name = f"victim-lib-{uuid.uuid4().hex[:8]}"
    library = org.client.post("/api/v1/stress-libraries", json=_library(library_name))
    assert library.status_code == 201, library.text
    return Victim(
        org=org,
        agent_id=agent["id"],
        assessment_id=started["id"],
        key_id=key["id"],
        appeal_id=appeal["id"],
        eval_run_id=eval_run["id"],
        webhook_id=webhook["id"],
        delivery_id=delivery["id"],
        oauth_client_id=oauth_client.json()["id"],
        library_name=library_name,
    )


def test_no_route_lets_one_organization_reach_another(live: LiveServer) -> None:
    victim = _victim(live)
    attacker = live.organization()
    attacker.client.post("/api/v1/agents", json={"name": "victim"})  # same name, other tenant
    ids = victim.path_ids()
    uncovered = []
    checked = 0
    for method, path in route_table():
        if (method, path) in PUBLIC:
            continue
        params = [part[1:-1] for part in path.split("/") if part.startswith("{") and part.endswith("}")]
        if params:
            if not all(name in ids for name in params):
                uncovered.append(f"{method} {path}")
                continue
            url = path.format(**{name: ids[name] for name in params})
            body = BODIES.get((method, path), {} if method in ("POST", "PUT", "PATCH") else None)
            response = attacker.client.request(method, url, json=body)
            assert response.status_code == 404, f"{method} {url}: {response.status_code} {response.text}"
            assert_error(response, 404, "NOT_FOUND")
            checked += 1
        elif (method, path) in CASES:
            CASES[(method, path)](attacker.client, victim)
            checked += 1
        else:
            uncovered.append(f"{method} {path}")
    assert not uncovered, f"routes without a tenancy case (add one to tests/api/test_tenancy.py): {uncovered}"
    assert checked >= 32
    # and B's resources are as they were
    agent = victim.org.client.get(f"/api/v1/agents/{victim.agent_id}").json()
    assert agent["status"] == "enrolled" and agent["description"] is None
    keys = {item["id"]: item for item in victim.org.client.get("/api/v1/keys").json()["items"]}
    assert keys[victim.key_id]["revoked_at"] is None
    assert victim.org.client.get(f"/api/v1/webhooks/{victim.webhook_id}").json()["active"] is True
    clients = victim.org.client.get(f"/api/v1/organizations/{victim.org.id}/oauth-clients").json()["items"]
    assert [(c["id"], c["revoked_at"]) for c in clients] == [(victim.oauth_client_id, None)]
    assert victim.org.client.get(f"/api/v1/assessments/{victim.assessment_id}").status_code == 200
    verified = live.anonymous.get(f"/api/v1/badges/{victim.assessment_id}/verify").json()
    assert verified["revoked"] is False and "visibility" not in verified  # still public
    appeal = victim.org.client.get(
        f"/api/v1/assessments/{victim.assessment_id}/appeals/{victim.appeal_id}"
    ).json()
    assert appeal["status"] == "filed"
    config = victim.org.client.get(f"/api/v1/organizations/{victim.org.id}/config").json()
    assert config["assessment_window_days"] == 30 and "taken-over" not in config["domain_taxonomy"]
    assert config["performance_weights"]["task_completion_rate"] == 0.25
    assert victim.org.client.get(f"/api/v1/organizations/{victim.org.id}").json()["name"] == victim.org.name
    # no audit finding reached B's agent
    findings = victim.org.client.get(
        "/api/v1/events", params={"agent_id": victim.agent_id, "type": "task_audited"}
    ).json()
    assert findings["items"] == []
    assert victim.org.client.get(f"/api/v1/agents/{victim.agent_id}/trust/history").json()["items"] == []
    assert victim.org.client.get(f"/api/v1/eval-runs/{victim.eval_run_id}").status_code == 200
