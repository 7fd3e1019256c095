"""The overview a lead decides from, in Chromium on SQLite and PostgreSQL: a "needs attention"
strip first on every width, each count a link to the agents it counts; held and revoked agents
flagged, not shown as their tier and not counted in the tier distribution; each composite with
its interval, tier probability and change since the previous assessment; the hold's reason."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from aaaf.scoring.core import display
from aaaf.scoring.uncertainty_report import awarded_probability
from tests.api.conftest import LiveServer, Org, agent_evidence, wait_for_status
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import SMALL_MINIMUMS, sign_in


@dataclass
class FlaggedFleet:
    org: Org
    agents: dict[str, str]  # name → id
    assessments: dict[str, list[str]]  # name → ids, oldest first


def _assess(org: Org, agent_id: str) -> str:
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "full"})
    assert started.status_code == 202, started.text
    done = wait_for_status(org.client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    return str(done["id"])


def _badge_issued(org: Org, assessment_id: str) -> None:
    from tests.api.conftest import poll_until

    poll_until(
        lambda: org.client.get(f"/api/v1/badges/{assessment_id}").status_code,
        lambda status: status == 200,
        timeout=60,
    )


@pytest.fixture(scope="module")
def flagged(live: LiveServer) -> Iterator[FlaggedFleet]:
    """steady (assessed twice), revoked (its badge revoked), lacking (3 tasks, never assessed),
    held (assessed under the review-before-issue policy)."""
    org = live.organization(**SMALL_MINIMUMS)
    agents: dict[str, str] = {}
    assessments: dict[str, list[str]] = {}
    for name, tasks in (("steady", 10), ("revoked", 8), ("lacking", 3), ("held", 9)):
        agent = org.client.post("/api/v1/agents", json={"name": name}).json()
        sent = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], tasks)})
        assert sent.status_code == 201, sent.text
        agents[name] = agent["id"]
        assessments[name] = []
    for name, runs in (("steady", 2), ("revoked", 1)):
        for _ in range(runs):
            assessments[name].append(_assess(org, agents[name]))
            _badge_issued(org, assessments[name][-1])
    revoked = org.client.post(
        f"/api/v1/badges/{assessments['revoked'][-1]}/revoke", json={"reason": "left the team's review"}
    )
    assert revoked.status_code == 200, revoked.text
    policy = org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"review_before_issue": True})
    assert policy.status_code == 200, policy.text
    assessments["held"].append(_assess(org, agents["held"]))
    held = org.client.get(f"/api/v1/assessments/{assessments['held'][-1]}").json()
    assert held["review_state"] == "pending_review", held
    yield FlaggedFleet(org, agents, assessments)


def _result(fleet: FlaggedFleet, name: str, index: int = -1) -> dict[str, Any]:
    answer = fleet.org.client.get(f"/api/v1/assessments/{fleet.assessments[name][index]}")
    assert answer.status_code == 200
    return dict(answer.json())


def _borderline(result: dict[str, Any]) -> bool:
    threshold = 0.8  # the default the organization keeps (docs/uncertainty.md)
    for axis in ("performance", "capability"):
        data = result.get(axis) or {}
        probability = awarded_probability(data.get("uncertainty"), data.get("tier"))
        if probability is not None and probability < threshold:
            return True
    return False


def _row(page: Any, fleet: FlaggedFleet, name: str) -> Any:
    return page.locator(f"tr[data-agent-id='{fleet.agents[name]}']")


def test_flags_tiers_and_the_distribution(live: LiveServer, flagged: FlaggedFleet, page: Any) -> None:
    sign_in(page, live.base_url, flagged.org.key)
    expected = {
        "steady": set(),
        "revoked": {"revoked"},
        "lacking": {"lacks_evidence"},
        "held": {"held"},
    }
    for name in ("steady", "revoked", "held"):
        if _borderline(_result(flagged, name)):
            expected[name].add("borderline")
    for name, flags in expected.items():
        shown = set((_row(page, flagged, name).get_attribute("data-flags") or "").split())
        assert shown == flags, (name, shown, flags)
    # held and revoked agents are not shown as their tier …
    for name in ("revoked", "held"):
        for axis in ("performance", "capability"):
            cell = _row(page, flagged, name).locator(f"td[data-field='{axis}-tier']").inner_text()
            assert cell.startswith("not shown"), (name, axis, cell)
    # … and are not counted: the distribution counts steady alone
    for axis in ("performance", "capability"):
        counts = page.locator(f"table.dist[data-axis='{axis}'] td.num").all_inner_texts()
        assert sum(int(count) for count in counts) == 1, (axis, counts)
        tier = _result(flagged, "steady")[axis]["tier"]
        row = page.locator(f"table.dist[data-axis='{axis}'] tr", has_text=tier)
        assert row.locator("td.num").inner_text() == "1"


def test_interval_probability_change_and_date(live: LiveServer, flagged: FlaggedFleet, page: Any) -> None:
    sign_in(page, live.base_url, flagged.org.key)
    now, before = _result(flagged, "steady"), _result(flagged, "steady", 0)
    row = _row(page, flagged, "steady")
    for axis in ("performance", "capability"):
        data = now[axis]
        assert row.locator(f"[data-field='{axis}']").inner_text() == display(data["composite_score"])
        ci = data["uncertainty"]["ci"]
        interval = row.locator(f"[data-field='{axis}-interval']").inner_text()
        assert interval == f"95 % {display(ci[0])}–{display(ci[1])}"
        probability = awarded_probability(data["uncertainty"], data["tier"])
        assert (
            row.locator(f"[data-field='{axis}-probability']").inner_text()
            == f"P(tier) {display(probability)}"
        )
        delta = data["composite_score"] - before[axis]["composite_score"]
        change = row.locator(f"td[data-field='{axis}-delta']").inner_text()
        if round(delta, 2) == 0:
            assert change == "±0.00"
        else:
            assert change == f"{'+' if delta > 0 else '−'}{abs(delta):.2f}"
    # one assessment: no change to show
    assert _row(page, flagged, "revoked").locator("td[data-field='performance-delta']").inner_text() == "—"
    done = flagged.org.client.get(f"/api/v1/assessments/{flagged.assessments['steady'][-1]}").json()
    assert row.locator("td[data-field='assessed']").inner_text() == done["completed_at"][:10]
    assert _row(page, flagged, "lacking").locator("td[data-field='assessed']").inner_text() == "never"


def test_attention_strip_first_with_links(live: LiveServer, flagged: FlaggedFleet, page: Any) -> None:
    sign_in(page, live.base_url, flagged.org.key)
    items = {
        item.get_attribute("data-attention-item"): item.inner_text()
        for item in page.locator("[data-attention-item]").all()
    }
    assert items["held"] == "1 held for review"
    assert items["revoked"] == "1 revoked"
    assert items["lacks_evidence"] == "1 lack evidence"
    # the strip comes before the fleet table on a desktop and on the narrowest phone
    for viewport in ({"width": 1280, "height": 900}, {"width": 320, "height": 640}):
        page.set_viewport_size(viewport)
        strip = page.locator("[data-attention]").bounding_box()
        table = page.locator("table.fleet").bounding_box()
        assert strip is not None and table is not None and strip["y"] < table["y"]
        assert strip["y"] < viewport["height"], "the strip is below the first screen"
    screenshot(page, f"dashboard-attention-phone-{live.dialect}")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, f"dashboard-attention-desktop-{live.dialect}")
    # each count is a link to the agents it counts
    page.click("[data-attention-item='held']")
    page.wait_for_url("**/?flag=held*")
    names = page.locator("table.fleet tbody th").all_inner_texts()
    assert names == ["held"]
    page.goto(f"{live.base_url}/")
    page.click("[data-attention-item='revoked']")
    page.wait_for_url("**/?flag=revoked*")
    assert page.locator("table.fleet tbody th").all_inner_texts() == ["revoked"]


def test_held_panel_gives_the_reason(live: LiveServer, flagged: FlaggedFleet, page: Any) -> None:
    sign_in(page, live.base_url, flagged.org.key)
    # "due" lists only agents an assessment would succeed on; the rest are collecting evidence
    assert page.locator("#due-h + ul a", has_text="lacking").count() == 0
    collecting = page.locator(f"[data-collecting='{flagged.agents['lacking']}']").inner_text()
    assert collecting == "lacking: 3 of 6 tasks"
    assert page.locator("[data-attention-item='due']").count() == 0
    item = page.locator(f"[data-held='{flagged.assessments['held'][-1]}']")
    assert "held" in item.inner_text()
    assert "reviews every badge before it is issued" in item.inner_text()


def test_filter_and_sort(live: LiveServer, flagged: FlaggedFleet, page: Any) -> None:
    steady = _result(flagged, "steady")
    sign_in(page, live.base_url, flagged.org.key, f"/?tier={steady['performance']['tier']}")
    assert page.locator("table.fleet tbody th").all_inner_texts() == ["steady"]
    page.goto(f"{live.base_url}/?sort=assessed")
    names = page.locator("table.fleet tbody th").all_inner_texts()
    assert names[-1] == "lacking" and names[0] == "held"
    page.goto(f"{live.base_url}/")
    page.select_option("#f-flag", "lacks_evidence")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**/?flag=lacks_evidence*")
    assert page.locator("table.fleet tbody th").all_inner_texts() == ["lacking"]


def test_no_sideways_scroll_at_320_and_plain_words(
    live: LiveServer, flagged: FlaggedFleet, page: Any
) -> None:
    sign_in(page, live.base_url, flagged.org.key)
    page.set_viewport_size({"width": 320, "height": 640})
    for path in (
        "/",
        f"/agents/{flagged.agents['steady']}",
        f"/assessments/{flagged.assessments['held'][-1]}",
    ):
        page.goto(f"{live.base_url}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 321, (path, width)
        text = page.locator("body").inner_text()
        for raw in ("passive_only", "pending_review", "not_required", "stress_test_only", "SCORING.md"):
            assert raw not in text, (path, raw)


def test_a_held_badge_is_decided_on_its_assessment_page(live: LiveServer, page: Any) -> None:
    """The reason on the agent and assessment pages, no verify link while held; a read-only key
    sees no form, a forged form is refused, an auditor approves and the badge is issued."""
    org = live.organization(**SMALL_MINIMUMS)
    policy = org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"review_before_issue": True})
    assert policy.status_code == 200, policy.text
    agent = org.client.post("/api/v1/agents", json={"name": "reviewed"}).json()
    sent = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 8)})
    assert sent.status_code == 201, sent.text
    held = _assess(org, agent["id"])
    reader = org.client.post("/api/v1/keys", json={"scopes": ["read"], "name": "viewer"}).json()["api_key"]
    reason = "this organization reviews every badge before it is issued"
    # a reader sees the reason, no form and no verify link
    sign_in(page, live.base_url, reader, f"/assessments/{held}")
    assert reason in page.locator("[data-field='hold-reason']").inner_text()
    assert page.locator("form[action$='/review']").count() == 0
    assert page.locator("a", has_text="Verify its badge").count() == 0
    page.goto(f"{live.base_url}/agents/{agent['id']}")
    assert reason in page.locator("[data-field='hold-reason']").inner_text()
    page.context.clear_cookies()
    # the organization's key (auditor scope): the form; a forged post without the token is refused
    sign_in(page, live.base_url, org.key, f"/assessments/{held}")
    forged = page.request.post(
        f"{live.base_url}/assessments/{held}/review", form={"decision": "approve"}, max_redirects=0
    )
    assert forged.status == 403
    assert org.client.get(f"/api/v1/assessments/{held}").json()["review_state"] == "pending_review"
    page.fill("#reviewer", "Dana Lead")
    screenshot(page, f"dashboard-hold-{live.dialect}")
    page.click("button[value='approve']")
    page.wait_for_url(f"**/assessments/{held}?reviewed=approved")
    assert "approved" in page.locator("[role=status]").inner_text()
    decided = org.client.get(f"/api/v1/assessments/{held}").json()
    assert decided["review_state"] == "approved"
    _badge_issued(org, held)
    page.reload()
    assert page.locator("[data-hold]").count() == 0
    assert page.locator("a", has_text="Verify its badge").get_attribute("href") == f"/verify/{held}"


def test_error_pages_are_html_in_the_dashboards_look(
    live: LiveServer, flagged: FlaggedFleet, page: Any
) -> None:
    """An unknown dashboard URL is an HTML 404 page, signed in or not; the API keeps its JSON."""
    answer = page.goto(f"{live.base_url}/no-such-page")
    assert answer is not None and answer.status == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert page.locator("h1").inner_text() == "Not found"
    assert page.locator("a", has_text="Back to the overview").count() == 1
    sign_in(page, live.base_url, flagged.org.key)
    answer = page.goto(f"{live.base_url}/agents/{flagged.agents['steady']}/nothing-here")
    assert answer is not None and answer.status == 404
    assert page.locator("h1").inner_text() == "Not found"
    assert page.locator(".who").count() == 1  # the signed-in header
    api = live.anonymous.get("/api/v1/no-such-route", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json()["error"]["code"] == "NOT_FOUND"


def test_the_agent_page_says_what_changed(live: LiveServer, flagged: FlaggedFleet, page: Any) -> None:
    sign_in(page, live.base_url, flagged.org.key, f"/agents/{flagged.agents['steady']}")
    latest = flagged.assessments["steady"][-1]
    changes = flagged.org.client.get(f"/api/v1/assessments/{latest}/changes").json()
    assert changes["previous_id"] == flagged.assessments["steady"][0]
    section = page.locator("[data-changes]")
    for axis in changes["axes"]:
        heading = section.locator("h3", has_text=axis["axis"].title()).inner_text()
        assert f"{display(axis['composite_before'])} → {display(axis['composite_after'])}" in heading
    # the trend: labelled by evidence window, intervals drawn as bands
    trend = page.locator("figure.chart-box", has_text="Performance composite scores over")
    assert trend.locator("thead th").first.text_content() == "Evidence window"
    first = flagged.org.client.get(f"/api/v1/assessments/{flagged.assessments['steady'][0]}").json()
    label = trend.locator("tbody th").first.text_content()
    assert label == f"{first['window_start'][:10]} to {first['window_end'][:10]}"
    assert trend.locator("svg polygon.band").count() >= 1
