"""Every dashboard page in Chromium, on SQLite and on PostgreSQL: none scrolls sideways on a 320 px phone, and
axe-core finds no serious or critical violation on any of them — the compare report, the
public verification page and the error pages included.

The fleet has what makes pages wide: a failed webhook delivery (long URL and ids), an open
appeal, two assessed agents and one short of evidence, and two stored eval runs to compare.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from aaaf.scoring.defaults import AXES
from tests.api.conftest import LiveServer, free_port, poll_until, serving
from tests.browser.accessibility import (
    PHONE_320,
    axe_violations,
    require_axe,
    sideways_overflow,
    smallest_chart_text_px,
)
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import Fleet, build_fleet

INSPECT = Path(__file__).parents[1] / "fixtures" / "inspect" / "issue11"
RESAMPLES = 200  # the report's layout does not depend on the resample count


@dataclass
class Site:
    live: LiveServer
    fleet: Fleet
    pages: dict[str, str]  # name → path, for a signed-in admin
    forbidden: str  # a page the read-only key may not see


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The fleet on a server of its own, on SQLite, then on PostgreSQL (where ``aaaf worker``
    scores the triggered assessments and issues the badges)."""
    pytest.importorskip("inspect_ai")
    log_dir = tmp_path_factory.mktemp(f"every-page-{request.param}")
    env = {"AAAF_WEBHOOK_ALLOW_LOOPBACK": "true", "AAAF_BACKGROUND_INTERVAL_SECONDS": "0.1"}
    template = request.getfixturevalue("_sqlite_template") if request.param == "sqlite" else None
    with serving(request.param, log_dir, env, sqlite_template=template) as live:
        fleet = _with_failed_delivery(live)
        org = fleet.org
        alpha = fleet.agents["alpha"]["id"]
        latest = fleet.assessments["alpha"][-1]
        filed = org.client.post(
            f"/api/v1/assessments/{latest}/appeals",
            json={
                "dimensions_challenged": ["accuracy", "task_completion_rate"],
                "justification": "The revisions were scope changes asked for by the customer, not errors.",
                "counter_evidence": [{"task_id": "task-000", "claim": "Scope expansion requested."}],
            },
        )
        assert filed.status_code == 201, filed.text
        runs = []
        for name in ("control_epochs.eval", "treatment_epochs.eval"):
            with (INSPECT / name).open("rb") as handle:
                answer = org.client.post("/api/v1/eval-runs", files={"file": (name, handle)}, timeout=600)
            assert answer.status_code == 201, answer.text
            runs.append(answer.json()["items"][0]["id"])
        pages = {
            "overview": "/",
            "agent": f"/agents/{alpha}",
            "agent-short-of-evidence": f"/agents/{fleet.agents['gamma']['id']}",
            "assessment": f"/assessments/{latest}",
            "webhooks": "/webhooks",
            "config": "/config",
            "compare": "/compare",
            "compare-report": f"/compare/report?control={runs[0]}&treatment={runs[1]}&resamples={RESAMPLES}",
            "verify": f"/verify/{latest}",
            "not-found": "/no-such-page",
        }
        yield Site(live, fleet, pages, "/webhooks")


def _with_failed_delivery(live: LiveServer) -> Fleet:
    """The small fleet, with a webhook to a closed port whose first delivery has failed."""
    fleet = build_fleet(live)
    org = fleet.org
    closed = f"http://127.0.0.1:{free_port()}/a/rather/long/path/for/a/webhook/receiver/endpoint"
    hook = org.client.post(
        "/api/v1/webhooks",
        json={
            "url": closed,
            "event_types": ["assessment.started"],
            "max_retries": 0,
            "retry_backoff_seconds": 0.05,
        },
    )
    assert hook.status_code == 201, hook.text
    started = org.client.post("/api/v1/assessments", json={"agent_id": fleet.agents["beta"]["id"]})
    assert started.status_code == 202, started.text
    poll_until(
        lambda: org.client.get(f"/api/v1/webhooks/{hook.json()['id']}/deliveries").json()["items"],
        lambda items: bool(items) and items[0]["status"] == "failed",
        timeout=60,
    )
    return fleet


def _signed_in(browser: Any, site: Site, key: str, viewport: dict[str, int]) -> Any:
    """A browser context signed in with ``key`` through the form, at ``viewport``."""
    context = browser.new_context(viewport=viewport, bypass_csp=True)  # axe is injected inline
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{site.live.base_url}/sign-in")
    page.fill("#api_key", key)
    page.click("button[type=submit]")
    page.wait_for_url(f"{site.live.base_url}/")
    return page


def _visit(page: Any, site: Site, path: str) -> None:
    page.goto(f"{site.live.base_url}{path}")
    page.wait_for_load_state("load")


def test_no_page_scrolls_sideways_at_320_px(browser: Any, site: Site) -> None:
    wide: dict[str, Any] = {}
    page = _signed_in(browser, site, site.fleet.org.key, PHONE_320)
    try:
        for name, path in site.pages.items():
            _visit(page, site, path)
            found = sideways_overflow(page)
            if found["over"] > 0:
                wide[name] = found
            screenshot(page, f"phone-320-{name}-{site.live.dialect}")
        read_only = _signed_in(browser, site, site.fleet.read_key, PHONE_320)
        answer = read_only.goto(f"{site.live.base_url}{site.forbidden}")
        assert answer is not None and answer.status == 403
        if (found := sideways_overflow(read_only))["over"] > 0:
            wide["forbidden"] = found
        read_only.context.clear_cookies()
        _visit(read_only, site, "/sign-in")
        if (found := sideways_overflow(read_only))["over"] > 0:
            wide["sign-in"] = found
        read_only.context.close()
    finally:
        page.context.close()
    assert wide == {}, "\n".join(f"{k}: {v}" for k, v in wide.items())


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, PHONE_320], ids=["desktop", "phone"])
def test_no_serious_or_critical_axe_violation_on_any_page(
    browser: Any, site: Site, viewport: dict[str, int]
) -> None:
    require_axe()
    found: dict[str, Any] = {}
    page = _signed_in(browser, site, site.fleet.org.key, viewport)
    try:
        for name, path in site.pages.items():
            _visit(page, site, path)
            if violations := axe_violations(page):
                found[name] = violations
        read_only = _signed_in(browser, site, site.fleet.read_key, viewport)
        read_only.goto(f"{site.live.base_url}{site.forbidden}")
        if violations := axe_violations(read_only):
            found["forbidden"] = violations
        read_only.context.clear_cookies()
        _visit(read_only, site, "/sign-in")
        if violations := axe_violations(read_only):
            found["sign-in"] = violations
        read_only.context.close()
    finally:
        page.context.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


@pytest.mark.parametrize("width", [320, 390, 700, 1280])
def test_chart_text_is_at_least_12_px_at_every_width(browser: Any, site: Site, width: int) -> None:
    page = _signed_in(browser, site, site.fleet.org.key, {"width": width, "height": 900})
    try:
        _visit(page, site, site.pages["agent"])
        assert page.locator("svg.chart").count() >= 3
        # the dimensions as small multiples: one accessible chart per dimension, each with its
        # title, description and data table labelled by evidence window
        small = page.locator("figure.chart-box", has=page.locator("svg.chart.small"))
        assert small.count() == sum(len(names) for names in AXES.values())
        for index in range(small.count()):
            figure = small.nth(index)
            assert figure.locator("svg > title").text_content()
            assert "assessments from" in (figure.locator("svg > desc").text_content() or "")
            assert figure.locator("thead th").first.text_content() == "Evidence window"
        smallest = smallest_chart_text_px(page)
        assert smallest is not None and smallest >= 12.0, smallest
        assert sideways_overflow(page)["over"] == 0
    finally:
        page.context.close()
