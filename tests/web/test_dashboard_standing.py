"""The agent page's "standing against the field" panel (issue 20 §2 on the dashboard of issue
17): the percentiles it shows are those of ``services.benchmarks.agent_standing`` — the same
numbers ``GET /api/v1/agents/{id}/benchmark`` answers — and nothing is shown below the
k-anonymity floors."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from aaaf.services.benchmarks import agent_standing, compute_benchmarks
from tests.benchmarks.seeding import seeded_org
from tests.web.conftest import Dashboard
from tests.web.test_dashboard_pages import api, sign_in


def _percentiles(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-percentile="([^"]+)">([^<]+)<', html.unescape(page)))


def test_the_panel_says_why_nothing_is_published_below_the_floors(dashboard: Dashboard) -> None:
    sign_in(dashboard, dashboard.key)
    page = dashboard.client.get(f"/agents/{dashboard.agents['alpha'].id}")
    assert page.status_code == 200
    assert "Standing against the field" in page.text
    assert "No benchmark cell is published" in page.text
    assert "benchmark_opt_in true" in page.text  # acme has not opted in
    assert _percentiles(page.text) == {}


def test_the_panel_shows_the_services_percentiles(dashboard: Dashboard) -> None:
    now = datetime.now(UTC)
    store = dashboard.store
    store.scope(dashboard.org_id).update_config(benchmark_opt_in=True)
    for index in range(5):  # 5 more opted-in organizations with 4 agents each: 6 orgs, 22 agents
        seeded_org(store, f"field-{index}", [0.2 + 0.15 * index + 0.01 * k for k in range(4)], now=now)
    done = compute_benchmarks(store, now=now)
    assert done.published > 0
    alpha = dashboard.agents["alpha"]
    expected = agent_standing(store.scope(dashboard.org_id), str(alpha.id), now=now)
    assert expected.standings, expected
    sign_in(dashboard, dashboard.key)
    page = dashboard.client.get(f"/agents/{alpha.id}")
    assert page.status_code == 200
    shown = _percentiles(page.text)
    assert shown == {f"{s.dimension}|{s.domain}": f"{s.percentile:.0f}" for s in expected.standings}
    # the API's answer for the same agent carries the same percentiles
    answer = api(dashboard, f"/api/v1/agents/{alpha.id}/benchmark")
    assert {f"{s['dimension']}|{s['domain']}": f"{s['percentile']:.0f}" for s in answer["standings"]} == shown
    # no other organization's name appears on the page
    for index in range(5):
        assert f"field-{index}" not in page.text
