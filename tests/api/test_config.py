"""An organization's configuration over HTTP (document 004 §6.2 "Configuration"; SCORING.md §0, §7)."""

from __future__ import annotations

from tests.api.conftest import LiveServer, assert_error

EVEN = {
    "task_completion_rate": 0.2,
    "accuracy": 0.2,
    "speed": 0.2,
    "consistency": 0.2,
    "review_compliance": 0.2,
}


def test_configuration_is_read_and_changed_with_its_checks(live: LiveServer) -> None:
    org = live.organization()
    base = f"/api/v1/organizations/{org.id}/config"
    config = org.client.get(base).json()
    # document 004 §7.2's defaults
    assert (config["assessment_window_days"], config["validity_period_days"]) == (30, 90)
    assert (config["minimum_tasks_performance"], config["minimum_tasks_capability"]) == (20, 30)
    changed = org.client.patch(base, json={"assessment_window_days": 14, "minimum_tasks_performance": 10})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["assessment_window_days"], changed.json()["minimum_tasks_performance"]) == (14, 10)
    assert org.client.get(base).json()["assessment_window_days"] == 14
    error = assert_error(org.client.patch(base, json={"assesment_window_days": 7}), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "assesment_window_days"
    assert_error(org.client.patch(base, json={"assessment_window_days": 0}), 400, "INVALID_REQUEST")
    assert_error(org.client.patch(base, json={}), 400, "INVALID_REQUEST")

    weights = org.client.put(f"{base}/weights", json={"performance_weights": EVEN})
    assert weights.status_code == 200 and weights.json()["performance_weights"] == EVEN
    assert org.client.get(f"{base}/weights").json()["performance_weights"] == EVEN
    # 0.2 × 4 + 0.3 = 1.1: refused, naming the sum, and nothing changes
    error = assert_error(
        org.client.put(f"{base}/weights", json={"performance_weights": {**EVEN, "speed": 0.3}}),
        422,
        "WEIGHT_SUM_INVALID",
    )
    assert "1.1" in error["message"]
    assert org.client.get(f"{base}/weights").json()["performance_weights"] == EVEN
    assert_error(org.client.put(f"{base}/weights", json={}), 400, "INVALID_REQUEST")

    taxonomy = org.client.put(f"{base}/taxonomy", json={"domain_taxonomy": ["code", "security"]})
    assert taxonomy.status_code == 200 and taxonomy.json() == {"domain_taxonomy": ["code", "security"]}
    assert org.client.get(f"{base}/taxonomy").json() == {"domain_taxonomy": ["code", "security"]}

    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert reader.get(base).status_code == 200
    assert_error(reader.patch(base, json={"assessment_window_days": 7}), 403, "FORBIDDEN")
    assert_error(reader.put(f"{base}/taxonomy", json={"domain_taxonomy": ["x"]}), 403, "FORBIDDEN")
