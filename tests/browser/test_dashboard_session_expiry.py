"""A session that expires while the configuration form is open, in Chromium on SQLite and
PostgreSQL: saving then shows the sign-in page saying the change was kept, signing in brings
the form back filled with what was typed (not yet saved), and saving it then stores it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, update

from aaaf.store import tables_access as t
from tests.api.conftest import LiveServer
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import sign_in

pytestmark = pytest.mark.parametrize("live", ["sqlite", "postgresql"], indirect=True)


def _expire_every_session(live: LiveServer) -> None:
    """What the clock does after 12 hours: the server-side record of each session has expired."""
    engine = create_engine(live.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                update(t.dashboard_sessions).values(expires_at=datetime(2000, 1, 1, tzinfo=UTC))
            )
    finally:
        engine.dispose()


def test_an_expired_session_keeps_the_configuration_change(live: LiveServer, page: Any) -> None:
    org = live.organization()
    config_url = f"/api/v1/organizations/{org.id}/config"
    before = org.client.get(config_url).json()
    sign_in(page, live.base_url, org.key, "/config")
    page.fill("#assessment_window_days", "19")
    page.fill("#validity_period_days", "60")
    _expire_every_session(live)
    page.click("button:has-text('Save window')")
    page.locator("text=Your session ended before your change was saved").wait_for()
    assert page.locator("h1").inner_text() == "Sign in"
    assert org.client.get(config_url).json()["assessment_window_days"] == before["assessment_window_days"]
    screenshot(page, "dashboard-session-expired-kept")
    page.fill("#api_key", org.key)
    page.click("button[type=submit]")
    page.wait_for_url("**/config?kept=1**")
    assert page.locator("#config-kept").is_visible()
    assert page.input_value("#assessment_window_days") == "19"
    assert page.input_value("#validity_period_days") == "60"
    assert org.client.get(config_url).json()["assessment_window_days"] == before["assessment_window_days"]
    page.click("button:has-text('Save window')")
    page.locator("text=Saved.").wait_for()
    after = org.client.get(config_url).json()
    assert (after["assessment_window_days"], after["validity_period_days"]) == (19, 60)
