"""Anonymity through the API (issue 20 §2, "Done when"): on both databases, with six
organizations (five opted in), no GET route of the OpenAPI document answers an organization
with another organization's id or name, or another organization's agent ids, agent names or
assessment ids; no benchmark cell below 5 organizations or 20 agents is ever shown; and the
benchmark routes give the published cells and the caller's own agent's standing."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from aaaf.services.benchmarks import compute_benchmarks
from aaaf.store import open_store
from tests.api.conftest import LiveServer, Org, assert_error
from tests.benchmarks.seeding import scored_agent
from tests.stress_tasks import probe_task

SCORES = {"accuracy": 0.5, "speed": 0.7, "performance_composite": 0.6, "capability_composite": 0.4}


def _seed(live: LiveServer) -> dict[str, Any]:
    """Six organizations of four agents each (unguessable names); five opt in over the API."""
    orgs: list[Org] = [live.organization() for _ in range(6)]
    for org in orgs[:5]:
        answer = org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"benchmark_opt_in": True})
        assert answer.status_code == 200, answer.text
        assert answer.json()["benchmark_opt_in"] is True
    assert (
        orgs[5].client.get(f"/api/v1/organizations/{orgs[5].id}/config").json()["benchmark_opt_in"] is False
    )
    now = datetime.now(UTC)
    secrets: dict[str, dict[str, list[str]]] = {}
    with open_store(live.database_url) as store:
        for position, org in enumerate(orgs):
            scoped = store.scope(org.id)
            ids: list[str] = []
            names: list[str] = []
            for index in range(4):
                name = f"agent-{uuid.uuid4().hex}"
                scores = {
                    key: min(1.0, value + 0.02 * (4 * position + index)) for key, value in SCORES.items()
                }
                agent, assessment = scored_agent(scoped, name, scores, now=now, domains=["code", "legal"])
                ids += [str(agent.id), str(assessment.id)]
                names.append(name)
            secrets[org.id] = {"ids": [org.id, *ids], "names": [org.name, *names]}
        done = compute_benchmarks(store, now=now)
    assert done.published > 0
    # a private stress library's name is the organization's too (issue 20 §3)
    private = f"private-{uuid.uuid4().hex}"
    task = probe_task(f"t-{uuid.uuid4().hex[:8]}")
    answer = orgs[1].client.post(
        "/api/v1/stress-libraries", json={"name": private, "version": "1", "tasks": [task]}
    )
    assert answer.status_code == 201, answer.text
    secrets[orgs[1].id]["names"].append(private)
    return {"orgs": orgs, "secrets": secrets}


@pytest.fixture(scope="module")
def world(live: LiveServer) -> dict[str, Any]:
    return _seed(live)


def _fill(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda match: values.get(match.group(1), str(uuid.uuid4())), path)


def _check_cells(body: Any) -> None:
    for cell in body.get("cells", []) if isinstance(body, dict) else []:
        assert cell["n_orgs"] >= 5 and cell["n_agents"] >= 20, cell
    for row in body.get("standings", []) if isinstance(body, dict) else []:
        assert row["n_orgs"] >= 5 and row["n_agents"] >= 20, row


def test_no_route_answers_with_another_organizations_identifiers(
    live: LiveServer, world: dict[str, Any]
) -> None:
    orgs: list[Org] = world["orgs"]
    secrets = world["secrets"]
    for me in (orgs[0], orgs[5]):  # an opted-in organization and one that did not opt in
        others = [
            value
            for org_id, found in secrets.items()
            if org_id != me.id
            for value in (*found["ids"], *found["names"])
        ]
        mine = secrets[me.id]["ids"]
        values = {"org_id": me.id, "agent_id": mine[1], "assessment_id": mine[2]}
        spec = me.client.get("/openapi.json").json()
        checked = 0
        for path, operations in spec["paths"].items():
            if "get" not in operations:
                continue
            queries = [p["name"] for p in operations["get"].get("parameters", []) if p["in"] == "query"]
            url = _fill(path, values)
            attempts = [(url, {})]
            # asking for another organization's things by query is answered without them
            other = next(org for org in orgs if org.id != me.id)
            for name, probe in (("org_id", other.id), ("agent_id", secrets[other.id]["ids"][1])):
                if name in queries:
                    attempts.append((url, {name: probe}))
            for target, params in attempts:
                response = me.client.get(target, params=params)
                text = response.text
                allowed = set(params.values())
                leaked = [value for value in others if value in text and value not in allowed]
                assert not leaked, f"GET {target} {params} answered {response.status_code} with {leaked}"
                if response.headers.get("content-type", "").startswith("application/json"):
                    _check_cells(response.json())
                checked += 1
        assert checked >= 35  # every GET route of the document, and the probes
        # the benchmark route by another organization's agent id: 404, and nothing of it
        for other_id in (secrets[orgs[1].id]["ids"][1], secrets[orgs[1].id]["ids"][3]):
            assert_error(me.client.get(f"/api/v1/agents/{other_id}/benchmark"), 404, "NOT_FOUND")


def test_benchmarks_route_publishes_only_cells_above_the_floors(
    live: LiveServer, world: dict[str, Any]
) -> None:
    me: Org = world["orgs"][0]
    table = me.client.get("/api/v1/benchmarks").json()
    assert (table["min_organizations"], table["min_agents"]) == (5, 20)
    cells = {(cell["domain"], cell["dimension"]) for cell in table["cells"]}
    assert {("all", "accuracy"), ("code", "accuracy"), ("legal", "performance_composite")} <= cells
    _check_cells(table)
    assert set(table["cells"][0]) == {
        "domain",
        "axis",
        "dimension",
        "deciles",
        "n_orgs",
        "n_agents",
        "computed_at",
    }
    only = me.client.get("/api/v1/benchmarks", params={"domain": "legal", "dimension": "speed"}).json()[
        "cells"
    ]
    assert [(c["domain"], c["dimension"]) for c in only] == [("legal", "speed")]
    assert only[0]["n_orgs"] >= 5 and len(only[0]["deciles"]) == 9
    # anonymous callers get nothing
    assert_error(live.anonymous.get("/api/v1/benchmarks"), 401, "UNAUTHORIZED")


def test_agent_benchmark_route_gives_the_callers_agent_standing(
    live: LiveServer, world: dict[str, Any]
) -> None:
    me: Org = world["orgs"][0]
    agent_id = world["secrets"][me.id]["ids"][1]
    standing = me.client.get(f"/api/v1/agents/{agent_id}/benchmark").json()
    assert standing["agent_id"] == agent_id and standing["organization_opted_in"] is True
    rows = {(row["domain"], row["dimension"]): row for row in standing["standings"]}
    assert ("all", "accuracy") in rows and ("code", "capability_composite") in rows
    assert all(0 <= row["percentile"] <= 100 for row in rows.values())
    # the lowest scorer of the opted-in field (0.50 on accuracy) stands at the bottom
    assert rows[("all", "accuracy")]["percentile"] < 10
