"""The lead's six questions (issue 32), each answered on the overview or one click from it, in
Chromium on SQLite and PostgreSQL: which agents hold a tier, which are borderline, which got worse and why,
which are due, what is held and why, what would raise a tier.  Each test opens the page that
answers, checks the element that answers against the API, and screenshots it.

The screenshots go to ``docs/screenshots/lead-<question>.png`` only when
``AAAF_WRITE_SCREENSHOTS=1`` (so an ordinary run never rewrites the committed files), otherwise
to the test's temporary directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.scoring.uncertainty_report import awarded_probability
from tests.api.conftest import LiveServer, agent_evidence, task_events, wait_for_status
from tests.browser.dashboard_fleet import Fleet, build_fleet, sign_in

pytestmark = pytest.mark.parametrize("live", ["sqlite", "postgresql"], indirect=True)

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
VIEWPORT = {"width": 1440, "height": 900}


def _shot(target: Any, question: str, tmp_path: Path) -> Path:
    """A PNG of ``target`` (a page: its first screen; a locator: its box) named for the question."""
    folder = DOCS_SCREENSHOTS if os.environ.get("AAAF_WRITE_SCREENSHOTS") == "1" else tmp_path
    path = folder / f"lead-{question}.png"
    target.screenshot(path=str(path))
    assert path.stat().st_size > 0
    return path


def _worse_evidence(agent_id: str, tasks: int) -> list[dict[str, Any]]:
    """``tasks`` recent tasks that went badly: rejected after revisions, checklist unmet."""
    now = datetime.now(UTC)
    events: list[dict[str, Any]] = []
    for index in range(tasks):
        for event in task_events(agent_id, f"bad-{index:03d}", now - timedelta(hours=1 + 6 * index)):
            if event["type"] == "task_completed":
                event["data"].update(
                    completion_status="rejected",
                    revision_count=4,
                    time_to_complete_seconds=14_400,
                    review_checklist=dict.fromkeys(event["data"]["review_checklist"], False),
                )
            events.append(event)
    return events


@pytest.fixture(scope="module")
def lead(live: LiveServer) -> Iterator[Fleet]:
    """The dashboard fleet (alpha assessed twice, beta once, gamma collecting) and: beta
    re-assessed after tasks that went badly (it got worse), delta with enough tasks and never
    assessed (due), held assessed under the review-before-issue policy (held)."""
    fleet = build_fleet(live)
    org = fleet.org
    bad = org.client.post(
        "/api/v1/events/batch", json={"events": _worse_evidence(fleet.agents["beta"]["id"], 8)}
    )
    assert bad.status_code == 201, bad.text
    fleet.assessments["beta"].append(_assess(fleet, "beta"))
    for name, tasks in (("delta", 8), ("held", 9)):
        agent = org.client.post("/api/v1/agents", json={"name": name}).json()
        sent = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], tasks)})
        assert sent.status_code == 201, sent.text
        fleet.agents[name] = agent
        fleet.assessments[name] = []
    policy = org.client.patch(f"/api/v1/organizations/{org.id}/config", json={"review_before_issue": True})
    assert policy.status_code == 200, policy.text
    fleet.assessments["held"].append(_assess(fleet, "held"))
    yield fleet


def _assess(fleet: Fleet, name: str) -> str:
    client = fleet.org.client
    started = client.post("/api/v1/assessments", json={"agent_id": fleet.agents[name]["id"], "type": "full"})
    assert started.status_code == 202, started.text
    done = wait_for_status(client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    return str(done["id"])


def _result(fleet: Fleet, name: str, index: int = -1) -> dict[str, Any]:
    answer = fleet.org.client.get(f"/api/v1/assessments/{fleet.assessments[name][index]}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _names(page: Any) -> list[str]:
    return list(page.locator("table.fleet tbody th").all_inner_texts())


def _open(page: Any, live: LiveServer, fleet: Fleet, target: str = "/") -> None:
    page.set_viewport_size(VIEWPORT)
    sign_in(page, live.base_url, fleet.org.key, target)


def test_which_agents_hold_a_tier(live: LiveServer, lead: Fleet, page: Any, tmp_path: Path) -> None:
    """The tier filter (one click from the distribution) lists exactly the agents of that tier."""
    _open(page, live, lead)
    tier = _result(lead, "alpha")["performance"]["tier"]
    expected = sorted(
        name
        for name in ("alpha", "beta")
        if tier in (_result(lead, name)["performance"]["tier"], _result(lead, name)["capability"]["tier"])
    )
    page.locator("table.dist[data-axis='performance'] a", has_text=tier).click()
    page.wait_for_url("**/?tier=*")
    assert sorted(_names(page)) == expected
    assert tier in page.locator("table.fleet caption").inner_text()
    _shot(page, "tiers", tmp_path)


def test_which_agents_are_borderline(live: LiveServer, lead: Fleet, page: Any, tmp_path: Path) -> None:
    """Each tier's probability beside it, and the borderline flag where it is under 0.8."""
    _open(page, live, lead)
    for name in ("alpha", "beta", "held"):
        result = _result(lead, name)
        row = page.locator(f"tr[data-agent-id='{lead.agents[name]['id']}']")
        flags = set((row.get_attribute("data-flags") or "").split())
        borderline = False
        for axis in ("performance", "capability"):
            probability = awarded_probability(result[axis]["uncertainty"], result[axis]["tier"])
            assert probability is not None
            shown = row.locator(f"[data-field='{axis}-probability']").inner_text()
            assert shown.startswith("P(tier) "), (name, axis, shown)
            borderline = borderline or probability < 0.8
        assert ("borderline" in flags) == borderline, (name, flags)
        if borderline:
            assert row.locator(".flag-borderline").is_visible()
    _shot(page.locator("table.fleet"), "borderline", tmp_path)


def test_which_agents_got_worse_and_why(live: LiveServer, lead: Fleet, page: Any, tmp_path: Path) -> None:
    """Sorted by change, the biggest fall first, its change in the column; one click to the
    agent page, which says why, dimension by dimension."""
    before, now = _result(lead, "beta", 0), _result(lead, "beta")
    fall = now["performance"]["composite_score"] - before["performance"]["composite_score"]
    assert fall <= -0.005, fall  # the bad tasks lowered beta's performance
    _open(page, live, lead, "/?sort=change")
    assert _names(page)[0] == "beta"
    row = page.locator(f"tr[data-agent-id='{lead.agents['beta']['id']}']")
    assert row.locator("td[data-field='performance-delta']").inner_text() == f"−{abs(fall):.2f}"
    _shot(page, "worse", tmp_path)
    row.locator(f"a[href='/agents/{lead.agents['beta']['id']}']").click()
    page.wait_for_url(f"**/agents/{lead.agents['beta']['id']}")
    section = page.locator("[data-changes]")
    performance = section.locator("table[data-axis-changes='performance'] tbody tr")
    assert performance.count() >= 1
    causes = performance.locator("td:last-child").all_inner_texts()
    assert all(cause.strip() for cause in causes), causes
    _shot(section, "worse-why", tmp_path)


def test_which_agents_are_due(live: LiveServer, lead: Fleet, page: Any, tmp_path: Path) -> None:
    """The due panel names delta (enough tasks, never assessed) with its reason; gamma, short
    of tasks, is collecting, not due."""
    _open(page, live, lead)
    due = page.locator("section[aria-labelledby='due-h']")
    listed = due.locator("#due-h + ul > li")
    names = [text.split(":")[0] for text in listed.all_inner_texts()]
    assert names == ["delta"], names  # alpha and beta were just assessed; gamma is short of tasks
    reason = listed.filter(has_text="delta").inner_text()
    assert reason.startswith("delta: ") and len(reason) > len("delta: "), reason
    collecting = due.locator(f"[data-collecting='{lead.agents['gamma']['id']}']").inner_text()
    assert collecting == "gamma: 3 of 6 tasks"
    strip = page.locator("[data-attention-item='due']")
    assert strip.inner_text() == "1 due"
    strip.click()
    assert page.url.endswith("#due-h")
    _shot(due, "due", tmp_path)


def test_what_is_held_and_why(live: LiveServer, lead: Fleet, page: Any, tmp_path: Path) -> None:
    """The held panel names the held assessment and the policy that holds it."""
    _open(page, live, lead)
    item = page.locator(f"[data-held='{lead.assessments['held'][-1]}']")
    assert item.is_visible()
    assert "held" in item.inner_text()
    assert "reviews every badge before it is issued" in item.inner_text()
    row = page.locator(f"tr[data-agent-id='{lead.agents['held']['id']}']")
    assert row.locator("td[data-field='performance-tier']").inner_text().startswith("not shown")
    _shot(page.locator("section[aria-labelledby='held-h']"), "held", tmp_path)


def test_what_would_raise_a_tier(live: LiveServer, lead: Fleet, page: Any, tmp_path: Path) -> None:
    """One click from the overview, the agent page's section gives the gap to the next tier and
    the score each dimension alone would need."""
    _open(page, live, lead)
    page.click(f"a[href='/agents/{lead.agents['alpha']['id']}']")
    page.wait_for_url(f"**/agents/{lead.agents['alpha']['id']}")
    section = page.locator("section[aria-labelledby='raise-h']")
    assert section.is_visible()
    result = _result(lead, "alpha")
    text = section.inner_text()
    for axis in ("performance", "capability"):
        tier = result[axis]["tier"]
        if tier == "Elite":
            assert "already the top tier" in text
        else:
            assert "the next tier" in text
            assert section.locator(f"table[data-raise-axis='{axis}'] tbody tr").count() >= 1
    _shot(section, "raise", tmp_path)
