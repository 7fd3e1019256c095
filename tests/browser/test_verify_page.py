"""The public verification page in a real browser (issue 17 §3, §4): Chromium renders it, the
verdict is in words, symbol and colour, the badge image loads, its links work, it reads on a
phone (390×844) with nothing wider than the screen, keyboard focus is visible and the text
meets WCAG AA contrast — the tier chips included.  SQLite for most, one PostgreSQL case.

Screenshots ``verify-valid``, ``verify-revoked`` and ``verify-phone`` are written to
``SCREENSHOTS``; copies are committed as ``docs/screenshots/verify-*.png``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import LiveServer
from tests.browser.conftest import screenshot
from tests.web.verify_support import api_badge, borderline_badge

SQLITE = pytest.mark.parametrize("live", ["sqlite"], indirect=True)
POSTGRESQL = pytest.mark.parametrize("live", ["postgresql"], indirect=True)

# WCAG 2.x contrast of the computed colours of an element's text and of the nearest ancestor
# with an opaque background (all the page's backgrounds are opaque colours)
CONTRAST_JS = """
(element) => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  let node = element, background = null;
  while (node) {
    const colour = rgb(getComputedStyle(node).backgroundColor);
    if (colour.length < 4 || colour[3] > 0) { background = colour; break; }
    node = node.parentElement;
  }
  background = background || [255, 255, 255];
  const a = lum(rgb(getComputedStyle(element).color)), b = lum(background);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
"""


def open_page(page: Any, live: LiveServer, assessment_id: str) -> Any:
    response = page.goto(f"{live.base_url}/verify/{assessment_id}")
    assert response is not None and response.status == 200
    return response


def heading(page: Any) -> str:
    """The page's h1 as a screen reader reads it (the hidden "Status: " included)."""
    return " ".join(page.locator("h1").text_content().split())


def verdict_colours(page: Any) -> tuple[str, str]:
    verdict = page.locator("section.verdict")
    return (
        verdict.evaluate("e => getComputedStyle(e).backgroundColor"),
        verdict.evaluate("e => getComputedStyle(e).borderLeftColor"),
    )


def assert_readable_contrast(page: Any) -> None:
    """Every heading, paragraph, term, cell, link and tier chip: at least 4.5:1 (WCAG AA)."""
    elements = page.locator("h1, h2, h3, p, dt, dd, th, td, li, a, .tier, .mark")
    for index in range(elements.count()):
        element = elements.nth(index)
        if not element.is_visible():
            continue
        ratio = element.evaluate(CONTRAST_JS)
        assert ratio >= 4.5, (element.inner_text()[:60], ratio)


@SQLITE
def test_a_valid_badge_page_in_the_browser(page: Any, live: LiveServer) -> None:
    badge = api_badge(live, "browser-valid")
    verdict = live.anonymous.get(f"/api/v1/badges/{badge.assessment_id}/verify").json()
    open_page(page, live, badge.assessment_id)
    assert page.title().startswith("Valid: browser-valid")
    assert heading(page) == "Status: Valid"
    assert page.locator(".verdict .symbol").inner_text() == "✓"
    assert verdict_colours(page) == ("rgb(232, 245, 233)", "rgb(27, 94, 32)")
    chips = page.locator(".tier").all_inner_texts()
    assert chips == [verdict["performance_tier"], verdict["capability_tier"]]
    # the badge picture loads (drawn, not a broken image)
    image = page.locator("img.badge")
    assert image.evaluate("img => img.complete && img.naturalWidth") == 300
    assert_readable_contrast(page)
    path = screenshot(page, "verify-valid")
    assert path.stat().st_size > 10_000
    # links work: the JSON verdict and the credential download, then back
    page.get_by_role("link", name=f"{live.base_url}/api/v1/badges/{badge.assessment_id}/verify").click()
    assert page.url.endswith(f"/api/v1/badges/{badge.assessment_id}/verify")
    assert '"valid":true' in page.content().replace(" ", "")
    page.go_back()
    png = page.request.get(page.get_by_role("link", name="PNG").evaluate("a => a.href"))
    assert png.ok and png.headers["content-type"] == "image/png" and png.body()[:4] == b"\x89PNG"
    page.get_by_role("link", name="credential (JSON)").click()
    assert '"OpenBadgeCredential"' in page.content()
    page.go_back()
    page.get_by_role("link", name=f"{live.base_url}/.well-known/jwks.json").click()
    assert '"keys"' in page.content()


@SQLITE
def test_a_revoked_badge_page_is_red_and_says_so(page: Any, live: LiveServer) -> None:
    badge = api_badge(live, "browser-revoked")
    badge.org.client.post(f"/api/v1/badges/{badge.assessment_id}/revoke", json={"reason": "key leaked"})
    open_page(page, live, badge.assessment_id)
    assert heading(page) == "Status: Revoked"
    assert page.locator(".verdict .symbol").inner_text() == "✕"
    assert "key leaked" in page.locator(".verdict").inner_text()
    assert verdict_colours(page) == ("rgb(253, 236, 234)", "rgb(179, 38, 30)")
    assert_readable_contrast(page)
    screenshot(page, "verify-revoked")


@SQLITE
def test_the_page_reads_on_a_phone(browser: Any, live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    badge = borderline_badge(live, monkeypatch, "browser-phone-with-a-rather-long-agent-name")
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
    )
    try:
        phone = context.new_page()
        open_page(phone, live, badge.assessment_id)
        # nothing is wider than the screen: no sideways scrolling of the page
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        # the verdict is on the first screen and the body text is not shrunk
        box = phone.locator("h1").bounding_box()
        assert box is not None and box["y"] + box["height"] < 844
        assert phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 16
        # one column: the badge card sits above the facts
        badge_box = phone.locator(".badge-card").bounding_box()
        facts_box = phone.locator("#what-title").bounding_box()
        assert badge_box is not None and facts_box is not None and facts_box["y"] > badge_box["y"]
        assert phone.locator(".borderline").inner_text() == "borderline"
        assert_readable_contrast(phone)
        screenshot(phone, "verify-phone")
    finally:
        context.close()


@SQLITE
def test_keyboard_focus_is_visible(page: Any, live: LiveServer) -> None:
    badge = api_badge(live, "browser-keyboard")
    open_page(page, live, badge.assessment_id)
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    assert skip.evaluate("e => e === document.activeElement")
    box = skip.bounding_box()
    assert box is not None and box["x"] >= 0  # the skip link comes on screen when focused
    outline = "e => [getComputedStyle(e).outlineStyle, parseFloat(getComputedStyle(e).outlineWidth)]"
    assert skip.evaluate(outline) == ["solid", 3]
    page.keyboard.press("Enter")  # to the verdict
    seen = []
    for _ in range(6):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.tagName + ' ' + document.activeElement.textContent")
        seen.append(focused)
        style = page.evaluate(
            "[getComputedStyle(document.activeElement).outlineStyle,"
            " parseFloat(getComputedStyle(document.activeElement).outlineWidth)]"
        )
        assert style == ["solid", 3], (focused, style)
    assert any(item.startswith("A SVG") for item in seen), seen


@POSTGRESQL
def test_the_page_on_postgresql(page: Any, live: LiveServer) -> None:
    badge = api_badge(live, "browser-postgresql")
    open_page(page, live, badge.assessment_id)
    assert heading(page) == "Status: Valid"
    assert page.locator("img.badge").evaluate("img => img.complete && img.naturalWidth") == 300
    missing = page.goto(f"{live.base_url}/verify/00000000-0000-4000-8000-000000000000")
    assert missing is not None and missing.status == 404
    assert heading(page) == "Status: No public badge found"
