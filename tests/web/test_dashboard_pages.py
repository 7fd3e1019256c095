"""The dashboard in process (issue 17): sign-in, each page's numbers against the API's JSON,
CSRF, scopes and another organization's resources (the browser tests drive the same pages
in Chromium against a live server)."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import escape

from aaaf.scoring.dimensions import BY_NAME
from tests.web.conftest import Dashboard


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


def sign_in(dash: Dashboard, key: str) -> None:
    form = dash.client.get("/sign-in")
    assert form.status_code == 200
    answer = dash.client.post(
        "/sign-in", data={"csrf_token": _csrf(form.text), "api_key": key, "next": "/"}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Secure" not in cookie  # plain http here; Secure when served over TLS


def api(dash: Dashboard, path: str) -> Any:
    answer = dash.client.get(path, headers={"Authorization": f"Bearer {dash.key}"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_pages_need_a_session(dashboard: Dashboard) -> None:
    answer = dashboard.client.get("/agents/alpha", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/sign-in?next=")


def test_sign_in_refuses_a_wrong_key_and_a_missing_csrf(dashboard: Dashboard) -> None:
    form = dashboard.client.get("/sign-in")
    wrong = dashboard.client.post("/sign-in", data={"csrf_token": _csrf(form.text), "api_key": "ak_nope"})
    assert wrong.status_code == 401
    assert "invalid" in wrong.text.lower() or "unknown" in wrong.text.lower()
    no_csrf = dashboard.client.post("/sign-in", data={"api_key": dashboard.key})
    assert no_csrf.status_code == 403


def test_overview_shows_the_fleet_as_the_api(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    page = dashboard.client.get("/")
    assert page.status_code == 200
    assessments = api(dashboard, "/api/v1/assessments?status=completed")["items"]
    latest = next(a for a in assessments if a["agent_id"] == str(dashboard.agents["alpha"].id))
    composite = latest["performance"]["composite_score"]
    from aaaf.scoring.core import display

    row = re.search(rf'data-agent-id="{dashboard.agents["alpha"].id}".*?</tr>', page.text, re.S)
    assert row and f'data-field="performance">{display(composite)}<' in row.group(0)
    assert "stranger" not in page.text


def test_agent_page_and_another_organizations_agent(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    alpha = dashboard.agents["alpha"]
    page = dashboard.client.get(f"/agents/{alpha.id}")
    assert page.status_code == 200, page.text
    assert "<svg" in page.text and "<title" in page.text and "Data table" in page.text
    assert "Standing against the field" in page.text
    # each charted dimension says what it measures, in the words of its declaration
    for name in ("accuracy", "domain_breadth"):
        assert f"<dd>{escape(BY_NAME[name].explanation)}</dd>" in page.text
    assert dashboard.client.get(f"/agents/{dashboard.other_agent.id}").status_code == 404
    gamma = dashboard.client.get(f"/agents/{dashboard.agents['gamma'].id}")
    assert gamma.status_code == 200 and 'data-field="tasks">4<' in gamma.text


def test_assessment_page_explains(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    assessments = api(dashboard, f"/api/v1/assessments?agent_id={dashboard.agents['alpha'].id}")["items"]
    page = dashboard.client.get(f"/assessments/{assessments[0]['id']}")
    assert page.status_code == 200, page.text
    assert "Tasks examined" in page.text


def test_weights_summing_to_1_2_show_the_error_and_csrf_is_checked(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    page = dashboard.client.get("/config")
    token = _csrf(page.text)
    weights = {
        "w_task_completion_rate": "0.45",
        "w_accuracy": "0.25",
        "w_speed": "0.15",
        "w_consistency": "0.2",
        "w_review_compliance": "0.15",
    }
    bad = dashboard.client.post(
        "/config", data={"csrf_token": token, "part": "performance_weights", **weights}
    )
    assert bad.status_code == 422 and "1.2" in bad.text
    refused = dashboard.client.post("/config", data={"part": "performance_weights", **weights})
    assert refused.status_code == 403
    ok = dashboard.client.post(
        "/config",
        data={
            "csrf_token": token,
            "part": "performance_weights",
            **weights,
            "w_task_completion_rate": "0.25",
        },
        follow_redirects=False,
    )
    assert ok.status_code == 303


def test_a_read_only_key_cannot_write(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.read_key)
    page = dashboard.client.get("/config")
    assert page.status_code == 200 and "needs the admin scope" in page.text
    refused = dashboard.client.post(
        "/config",
        data={
            "csrf_token": _csrf(page.text),
            "part": "window",
            "assessment_window_days": "20",
            "validity_period_days": "90",
        },
    )
    assert refused.status_code == 403
    assert api(dashboard, f"/api/v1/organizations/{dashboard.org_id}/config")["assessment_window_days"] == 30


def test_the_cookie_is_secure_over_tls(dashboard: Dashboard) -> None:
    from fastapi.testclient import TestClient

    tls = TestClient(dashboard.client.app, base_url="https://testserver")
    form = tls.get("/sign-in")
    answer = tls.post(
        "/sign-in", data={"csrf_token": _csrf(form.text), "api_key": dashboard.key}, follow_redirects=False
    )
    assert answer.status_code == 303
    assert "Secure" in answer.headers["set-cookie"] and "HttpOnly" in answer.headers["set-cookie"]


def test_a_tampered_cookie_is_no_session(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    cookie = dashboard.client.cookies.get("aaaf_session")
    assert cookie
    dashboard.client.cookies.clear()
    dashboard.client.cookies.set(
        "aaaf_session", cookie[:-4] + ("AAAA" if not cookie.endswith("AAAA") else "BBBB")
    )
    assert dashboard.client.get("/", follow_redirects=False).status_code == 303


def test_sign_in_with_an_oauth_client(dashboard: Dashboard) -> None:
    from datetime import UTC, datetime

    from aaaf.services.oauth import create_client

    issued = create_client(dashboard.store, dashboard.org_id, ["read"], now=datetime.now(UTC))
    form = dashboard.client.get("/sign-in")
    answer = dashboard.client.post(
        "/sign-in",
        data={
            "csrf_token": _csrf(form.text),
            "client_id": issued.client.client_id,
            "client_secret": issued.secret,
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    page = dashboard.client.get("/")
    assert page.status_code == 200 and "alpha" in page.text
    assert "needs the admin scope" in dashboard.client.get("/config").text  # the client's scopes apply
    wrong = dashboard.client.post(
        "/sign-in",
        data={
            "csrf_token": _csrf(dashboard.client.get("/sign-in").text),
            "client_id": issued.client.client_id,
            "client_secret": "wrong",
        },
    )
    assert wrong.status_code == 401


def test_an_empty_organization_says_what_to_do_next(dashboard: Dashboard) -> None:
    from datetime import UTC, datetime

    from aaaf.services.keys import create_organization

    _, issued = create_organization(dashboard.store, "empty-org", now=datetime.now(UTC))
    sign_in(dashboard, issued.secret)
    page = dashboard.client.get("/")
    assert page.status_code == 200
    assert "No agents yet" in page.text and "/api/v1/events" in page.text and "aaaf collect" in page.text


def test_the_overview_names_the_appealing_and_the_collecting_agents(dashboard: Dashboard) -> None:
    """An open appeal is listed with its agent's name (read with the appeal), a never-assessed
    agent short of the minimum with how many tasks it has."""
    from datetime import UTC, datetime

    org = dashboard.store.scope(dashboard.org_id)
    beta = dashboard.agents["beta"]
    assessed = org.assessments(beta.id, status="completed")[0]
    org.file_appeal(
        assessed.id,
        dimensions=["accuracy"],
        justification="j",
        counter_evidence=[],
        filed_at=datetime.now(UTC),
    )
    appeal = org.open_appeals()[0][0]
    sign_in(dashboard, dashboard.key)
    page = dashboard.client.get("/").text
    listed = re.search(rf'<li data-appeal="{appeal.id}">(.*?)</li>', page, re.S)
    assert listed and f'href="/assessments/{assessed.id}">beta: accuracy</a>' in listed.group(1)
    gamma = dashboard.agents["gamma"]
    collecting = re.search(rf'<li data-collecting="{gamma.id}">(.*?)</li>', page, re.S)
    assert collecting and re.search(r">gamma</a>: 4 of \d+ tasks$", collecting.group(1))
