"""A session that ends while a form is open, and the dashboard's HTML error pages: a
configuration change submitted after the session expired is not lost — the sign-in page
says so and, once signed in again, the form comes back with the submitted values (and only
then can it be saved); 403 and 404 answer the dashboard's page, not JSON."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from aaaf.api.web import session as session_module
from tests.web.conftest import Dashboard
from tests.web.test_dashboard_pages import _csrf, sign_in

WINDOW = {"part": "window", "assessment_window_days": "17", "validity_period_days": "45"}


def _config(dash: Dashboard) -> dict[str, int]:
    return dict(dash.store.scope(dash.org_id).config_dict())


def test_an_expired_session_keeps_the_submitted_change(
    dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_in(dashboard, dashboard.key)
    form = dashboard.client.get("/config")
    token = _csrf(form.text)
    before = _config(dashboard)
    assert before["assessment_window_days"] != 17
    with monkeypatch.context() as expired:
        expired.setattr(session_module, "SESSION_MAX_AGE_S", -1)  # every session is now too old
        answer = dashboard.client.post(
            "/config", data={"csrf_token": token, **WINDOW}, follow_redirects=False
        )
    assert answer.status_code == 401
    assert "Your session ended before your change was saved" in answer.text
    assert _config(dashboard) == before  # nothing written without a session
    next_url = _hidden(answer.text, "next")
    path, query = urlsplit(next_url).path, dict(parse_qsl(urlsplit(next_url).query))
    assert path == "/config"
    assert query == {"kept": "1", **WINDOW}  # the values, never the stale CSRF token
    # signing in through that very form leads back to the configuration, filled in again
    signed = dashboard.client.post(
        "/sign-in",
        data={"csrf_token": _hidden(answer.text, "csrf_token"), "api_key": dashboard.key, "next": next_url},
        follow_redirects=False,
    )
    assert signed.status_code == 303 and signed.headers["location"] == next_url
    back = dashboard.client.get(next_url)
    assert back.status_code == 200
    assert 'id="config-kept"' in back.text and "this change was not saved" in back.text
    assert (
        'id="assessment_window_days" name="assessment_window_days" inputmode="numeric" value="17"'
        in back.text
    )
    assert 'id="validity_period_days" name="validity_period_days" inputmode="numeric" value="45"' in back.text
    assert _config(dashboard) == before  # shown, not saved: the person checks and saves
    saved = dashboard.client.post(
        "/config", data={"csrf_token": _csrf(back.text), **WINDOW}, follow_redirects=False
    )
    assert saved.status_code == 303
    after = _config(dashboard)
    assert (after["assessment_window_days"], after["validity_period_days"]) == (17, 45)


def test_kept_weights_and_taxonomy_fill_their_own_form_only(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    back = dashboard.client.get("/config?kept=1&part=domain_taxonomy&domains=billing%0Arefunds")
    assert back.status_code == 200
    assert ">billing\nrefunds</textarea>" in back.text
    window = _config(dashboard)["assessment_window_days"]
    assert f'name="assessment_window_days" inputmode="numeric" value="{window}"' in back.text


def test_an_expired_session_on_a_page_goes_to_sign_in(
    dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_in(dashboard, dashboard.key)
    monkeypatch.setattr(session_module, "SESSION_MAX_AGE_S", -1)
    answer = dashboard.client.get("/config", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/sign-in?next=%2Fconfig&error=session-ended"
    assert "Your session has ended" in dashboard.client.get(answer.headers["location"]).text


def test_403_and_404_are_the_dashboards_pages(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.read_key)
    html = {"Accept": "text/html"}
    forbidden = dashboard.client.get("/webhooks", headers=html)
    assert forbidden.status_code == 403
    assert forbidden.headers["content-type"].startswith("text/html")
    assert 'href="/static/dashboard.css"' in forbidden.text and '<nav aria-label="Main">' in forbidden.text
    assert "<h1>Not allowed</h1>" in forbidden.text and "admin" in forbidden.text
    missing = dashboard.client.get("/no-such-page", headers=html)
    assert missing.status_code == 404 and "<h1>Not found</h1>" in missing.text
    assert 'href="/static/dashboard.css"' in missing.text
    assert dashboard.client.get("/api/v1/no-such-route", headers=html).json()["error"]["code"] == "NOT_FOUND"


def _hidden(html: str, name: str) -> str:
    import re
    from html import unescape

    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, name
    return unescape(found.group(1))
