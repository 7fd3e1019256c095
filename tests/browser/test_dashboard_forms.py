"""The dashboard's assessment and configuration pages in Chromium (issue 17 §4), on SQLite:
the explanation's numbers are the API's, the weights editor enforces the sum (1.2 shows the
error), a POST without the CSRF token is refused, and a read-only key cannot write."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from aaaf.scoring.core import display
from tests.api.conftest import LiveServer
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import Fleet, build_fleet, sign_in

pytestmark = pytest.mark.parametrize("live", ["sqlite"], indirect=True)


@pytest.fixture(scope="module")
def fleet(live: LiveServer) -> Iterator[Fleet]:
    yield build_fleet(live)


def test_assessment_page_shows_every_dimension_as_the_api(live: LiveServer, fleet: Fleet, page: Any) -> None:
    assessment_id = fleet.assessments["alpha"][-1]
    sign_in(page, live.base_url, fleet.org.key, f"/assessments/{assessment_id}")
    body = fleet.org.client.get(f"/api/v1/assessments/{assessment_id}").json()
    for axis in ("performance", "capability"):
        for name, dim in body[axis]["dimensions"].items():
            row = page.locator(f"tr[data-dimension='{name}']")
            assert row.locator("[data-field='score']").inner_text() == display(dim["score"]), name
            assert row.locator("[data-field='evidence_count']").inner_text() == str(dim["evidence_count"]), (
                name
            )
    examined = page.locator("tr[data-dimension='accuracy'] [data-field='tasks_examined']").inner_text()
    assert examined == "10"
    screenshot(page, "dashboard-assessment-desktop")
    page.click(f"a[href='/agents/{fleet.agents['alpha']['id']}']")
    page.wait_for_url(f"**/agents/{fleet.agents['alpha']['id']}")


def _config(fleet: Fleet) -> dict[str, Any]:
    return dict(fleet.org.client.get(f"/api/v1/organizations/{fleet.org.id}/config").json())


def test_weights_summing_to_1_2_show_the_error(live: LiveServer, fleet: Fleet, page: Any) -> None:
    sign_in(page, live.base_url, fleet.org.key, "/config")
    before = _config(fleet)["performance_weights"]
    field = page.locator("#performance_weights-task_completion_rate")
    assert float(field.input_value()) == before["task_completion_rate"]
    field.fill(str(round(before["task_completion_rate"] + 0.2, 4)))
    page.click("button:has-text('Save performance weights')")
    error = page.locator("#config-error")
    error.wait_for()
    assert "1.2" in error.inner_text()
    screenshot(page, "dashboard-config-weight-error")
    assert _config(fleet)["performance_weights"] == before
    # a valid set is saved, and the API then answers it
    page.fill("#performance_weights-task_completion_rate", "0.3")
    page.fill("#performance_weights-accuracy", "0.2")
    page.click("button:has-text('Save performance weights')")
    page.locator("text=Saved.").wait_for()
    after = _config(fleet)["performance_weights"]
    assert after["task_completion_rate"] == 0.3 and after["accuracy"] == 0.2


def test_a_post_without_the_csrf_token_is_refused(live: LiveServer, fleet: Fleet, page: Any) -> None:
    sign_in(page, live.base_url, fleet.org.key, "/config")
    answer = page.request.post(
        f"{live.base_url}/config",
        form={"part": "window", "assessment_window_days": "10", "validity_period_days": "90"},
    )
    assert answer.status == 403
    assert _config(fleet)["assessment_window_days"] == 30


def test_a_read_only_key_cannot_write(live: LiveServer, fleet: Fleet, page: Any) -> None:
    sign_in(page, live.base_url, fleet.read_key, "/config")
    assert page.locator("text=needs the admin scope").count() == 1
    assert page.locator("button:has-text('Save window')").is_disabled()
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    answer = page.request.post(
        f"{live.base_url}/config",
        form={
            "csrf_token": token,
            "part": "window",
            "assessment_window_days": "10",
            "validity_period_days": "90",
        },
    )
    assert answer.status == 403
    assert _config(fleet)["assessment_window_days"] == 30
    assert page.goto(f"{live.base_url}/webhooks").status == 403  # webhooks are admin's, as in the API


def test_sign_out(live: LiveServer, fleet: Fleet, page: Any) -> None:
    sign_in(page, live.base_url, fleet.org.key)
    page.click("button:has-text('Sign out')")
    page.wait_for_url("**/sign-in")
    page.goto(f"{live.base_url}/")
    assert "/sign-in" in page.url
