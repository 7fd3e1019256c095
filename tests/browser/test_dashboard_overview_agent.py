"""The dashboard's overview and agent pages in Chromium, on SQLite and PostgreSQL (issue 17 §4):
the numbers are the API's, links work, another organization's agent is a 404, the pages
read without JavaScript and on a phone, and the keyboard reaches them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from aaaf.reports.markdown import trust_display
from aaaf.scoring.core import display
from tests.api.conftest import LiveServer
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import PHONE, Fleet, build_fleet, sign_in


@pytest.fixture(scope="module")
def fleet(live: LiveServer) -> Iterator[Fleet]:
    yield build_fleet(live)


def _latest(fleet: Fleet, name: str) -> dict[str, Any]:
    answer = fleet.org.client.get(f"/api/v1/assessments/{fleet.assessments[name][-1]}")
    assert answer.status_code == 200
    return dict(answer.json())


def test_overview_shows_the_apis_numbers(live: LiveServer, fleet: Fleet, page: Any) -> None:
    sign_in(page, live.base_url, fleet.org.key)
    for name in ("alpha", "beta"):
        result = _latest(fleet, name)
        row = page.locator(f"tr[data-agent-id='{fleet.agents[name]['id']}']")
        for axis in ("performance", "capability"):
            shown = row.locator(f"[data-field='{axis}']").inner_text()
            assert shown == display(result[axis]["composite_score"]), (name, axis)
        history = fleet.org.client.get(f"/api/v1/agents/{fleet.agents[name]['id']}/trust/history").json()
        committed = [entry for entry in history["items"] if entry["committed"]]
        assert row.locator("td[data-field='trust']").inner_text() == trust_display(committed[-1]["score"])
    gamma = page.locator(f"tr[data-agent-id='{fleet.agents['gamma']['id']}']")
    assert gamma.locator("[data-field='performance']").inner_text() == "—"
    assert page.locator("text=stranger").count() == 0
    distribution = page.locator("table.dist[data-axis='performance'] td.num").all_inner_texts()
    assert sum(int(count) for count in distribution) == 2
    screenshot(page, f"dashboard-overview-desktop-{live.dialect}")
    page.set_viewport_size(PHONE)
    screenshot(page, f"dashboard-overview-phone-{live.dialect}")
    # the link to an agent works
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click(f"a[href='/agents/{fleet.agents['alpha']['id']}']")
    page.wait_for_url(f"**/agents/{fleet.agents['alpha']['id']}")
    assert page.locator("h1").inner_text() == "alpha"


def test_agent_page_shows_the_apis_numbers_and_links(live: LiveServer, fleet: Fleet, page: Any) -> None:
    alpha = fleet.agents["alpha"]
    sign_in(page, live.base_url, fleet.org.key, f"/agents/{alpha['id']}")
    result = _latest(fleet, "alpha")
    for axis in ("performance", "capability"):
        shown = page.locator(f"tr[data-axis='{axis}'] td[data-field='composite']").inner_text()
        assert shown == display(result[axis]["composite_score"])
    # every chart carries its text alternative and its data table
    charts = page.locator("svg.chart")
    assert charts.count() >= 5
    for index in range(charts.count()):
        assert charts.nth(index).locator("title").count() == 1
        assert charts.nth(index).locator("desc").count() == 1
    assert page.locator("details summary", has_text="Data table").count() == charts.count()
    # the trend has one point per assessment
    trend = page.locator("figure.chart-box", has_text="Performance composite scores over").locator("tbody tr")
    assert trend.count() == len(fleet.assessments["alpha"])
    # collection progress: the window's tasks against the organization's minimums
    assert page.locator("[data-progress-axis='performance'] [data-field='required']").inner_text() == "6"
    assert page.locator("[data-progress-axis='performance'] [data-field='tasks']").inner_text() == "10"
    # the badge links its public verification page
    verify = page.locator("a", has_text="Verify this badge")
    assert verify.get_attribute("href") == f"/verify/{fleet.assessments['alpha'][-1]}"
    trust = fleet.org.client.get(f"/api/v1/agents/{alpha['id']}/trust").json()
    assert page.locator("[data-field='trust-now']").inner_text() == trust_display(trust["composite"])
    assert page.locator("#standing").count() == 1
    screenshot(page, f"dashboard-agent-desktop-{live.dialect}")
    page.set_viewport_size(PHONE)
    screenshot(page, f"dashboard-agent-phone-{live.dialect}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, "the page scrolls sideways on a phone"
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click(f"a[href='/assessments/{fleet.assessments['alpha'][-1]}']")
    page.wait_for_url(f"**/assessments/{fleet.assessments['alpha'][-1]}")
    assert "Assessment of alpha" in page.locator("h1").inner_text()


def test_another_organizations_agent_is_not_reachable(live: LiveServer, fleet: Fleet, page: Any) -> None:
    sign_in(page, live.base_url, fleet.org.key)
    for path in (f"/agents/{fleet.stranger['id']}", f"/assessments/{fleet.stranger_assessment}"):
        answer = page.goto(f"{live.base_url}{path}")
        assert answer is not None and answer.status == 404
        assert "stranger" not in page.content()


def test_without_javascript_and_by_keyboard(live: LiveServer, fleet: Fleet, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        sign_in(page, live.base_url, fleet.org.key, f"/agents/{fleet.agents['beta']['id']}")
        assert page.locator("h1").inner_text() == "beta"
        page.goto(f"{live.base_url}/")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Skip to content"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.getAttribute('href')") == "/"
    finally:
        context.close()
