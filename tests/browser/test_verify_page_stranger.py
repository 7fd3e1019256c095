"""The verification page as a stranger holding the badge reads it, in Chromium: served by an
installation whose public base URL is not configured, every link points where the page was
served from and works (the status list included) and no ``localhost:8000`` appears; the issuer
is named as what it is (the operator's own installation); the evidence behind the badge (window,
tasks, audit) is stated; claimed domains are labelled as claims; a revoked badge's picture is
greyed and crossed out.  SQLite (the page reads the same rows on PostgreSQL, which
tests/browser/test_verify_page.py covers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.conftest import LiveServer, start_server
from tests.browser.conftest import screenshot
from tests.web.verify_support import api_badge

SQLITE = pytest.mark.parametrize("live", ["sqlite"], indirect=True)


@pytest.fixture
def unconfigured(live: LiveServer, tmp_path: Path) -> Iterator[LiveServer]:
    """A second ``aaaf serve`` on the same database with no public base URL configured: it
    issues the badge and serves its page."""
    server = start_server(live.database_url, tmp_path, without=("AAAF_PUBLIC_BASE_URL",))
    other = LiveServer(server, live.dialect, live.database_url)
    try:
        yield other
    finally:
        other.close()
        server.stop()


@SQLITE
def test_links_work_from_where_the_page_is_served(
    page: Any, live: LiveServer, unconfigured: LiveServer
) -> None:
    badge = api_badge(unconfigured, "stranger-links")
    agent_id = badge.org.client.get(f"/api/v1/assessments/{badge.assessment_id}").json()["agent_id"]
    claimed = badge.org.client.patch(
        f"/api/v1/agents/{agent_id}", json={"claimed_domains": ["code", "testing"]}
    )
    assert claimed.status_code == 200, claimed.text
    origin = unconfigured.base_url.replace("127.0.0.1", "localhost")  # served under another name
    answer = page.goto(f"{origin}/verify/{badge.assessment_id}")
    assert answer is not None and answer.status == 200
    html = page.content()
    assert "localhost:8000" not in html
    assert f"http://127.0.0.1:{live.base_url.rsplit(':', 1)[1]}" not in html  # not the other server's
    hrefs = [link.get_attribute("href") for link in page.locator("main a[href]").all()]
    assert hrefs
    for link in page.locator("main a[href]").all():
        href = link.get_attribute("href") or ""
        if href.startswith("#"):
            continue
        assert href.startswith(origin + "/"), href
        text = link.inner_text()
        if text.startswith("http"):
            assert text == href, (text, href)  # a link is what it says
        fetched = httpx.get(href, timeout=30.0)
        assert fetched.status_code == 200, (href, fetched.status_code)
    status_list = page.locator("a[data-link='status-list']").get_attribute("href")
    assert httpx.get(status_list or "", timeout=30.0).headers["content-type"].startswith("application/jwt")
    # the curl lines name the same origin
    assert (
        f"curl -sS -o badge.png {origin}/api/v1/badges/{badge.assessment_id}.png"
        in page.locator("pre").inner_text()
    )
    # who vouches, and on what
    organization = badge.org.client.get(f"/api/v1/organizations/{badge.org.id}").json()["name"]
    issuer = page.locator("[data-field='issuer']").inner_text()
    assert issuer.startswith(f"{organization}'s own AAAF installation")
    result = badge.org.client.get(f"/api/v1/assessments/{badge.assessment_id}").json()
    evidence = page.locator("[data-evidence]")
    assert evidence.locator("h2").inner_text() == "Evidence behind this badge"
    assert evidence.locator("[data-field='window']").inner_text() == (
        f"{result['window_start'][:10]} to {result['window_end'][:10]}"
    )
    assert evidence.locator("[data-field='tasks']").inner_text() == "4"  # the tasks api_badge sends
    assert "audit" in evidence.locator("[data-field='audit']").inner_text().lower()
    domains = page.locator("[data-field='claimed-domains']").inner_text()
    assert domains == "code, testing (claimed by the operator, not certified)"
    screenshot(page, "verify-stranger")


@SQLITE
def test_a_revoked_badge_is_greyed_and_crossed(page: Any, live: LiveServer) -> None:
    badge = api_badge(live, "stranger-revoked")
    badge.org.client.post(f"/api/v1/badges/{badge.assessment_id}/revoke", json={"reason": "superseded"})
    page.goto(f"{live.base_url}/verify/{badge.assessment_id}")
    card = page.locator("section.badge-card")
    assert card.get_attribute("data-void") == "yes"
    assert "grayscale(1)" in page.locator("section.badge-card img").evaluate(
        "e => getComputedStyle(e).filter"
    )
    assert page.locator(".void-mark").inner_text().lower() == "revoked"
    crossed = page.locator(".void .picture").evaluate("e => getComputedStyle(e, '::before').content")
    assert crossed == '""'
    assert "no longer certifies" in page.locator("section[aria-labelledby='scores-title']").inner_text()
    screenshot(page, "verify-revoked-crossed")
    # a valid one is neither
    valid = api_badge(live, "stranger-valid")
    page.goto(f"{live.base_url}/verify/{valid.assessment_id}")
    assert page.locator("section.badge-card").get_attribute("data-void") == "no"
    assert page.locator(".void-mark").count() == 0
