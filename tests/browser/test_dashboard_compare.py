"""The dashboard's compare page in Chromium (issue 17 §4), on SQLite: the organization's
eval runs, a control and two treatments, and the existing HTML report whose verdicts are the
API's (``POST /api/v1/eval-runs/compare``) for the same runs and resamples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import LiveServer
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import sign_in

pytestmark = pytest.mark.parametrize("live", ["sqlite"], indirect=True)
INSPECT = Path(__file__).parents[1] / "fixtures" / "inspect" / "issue11"
RESAMPLES = 300  # fewer than the default keeps the test quick; the same on both sides
TIMEOUT_S = 600.0


def test_compare_report_of_several_treatments(live: LiveServer, page: Any) -> None:
    pytest.importorskip("inspect_ai")
    org = live.organization()
    ids = []
    for name in ("control_epochs.eval", "treatment_epochs.eval"):
        with (INSPECT / name).open("rb") as handle:
            answer = org.client.post("/api/v1/eval-runs", files={"file": (name, handle)}, timeout=TIMEOUT_S)
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["items"][0]["id"])
    control, treatment = ids
    api = org.client.post(
        "/api/v1/eval-runs/compare",
        json={"control": control, "treatments": [treatment, control], "resamples": RESAMPLES},
        timeout=TIMEOUT_S,
    )
    assert api.status_code == 200, api.text
    verdicts = api.json()
    sign_in(page, live.base_url, org.key, "/compare")
    page.check(f"input[name=control][value='{control}']")
    page.check(f"input[name=treatment][value='{treatment}']")
    page.check(f"input[name=treatment][value='{control}']")
    page.fill("#resamples", str(RESAMPLES))
    page.set_default_timeout(TIMEOUT_S * 1000)
    page.click("button:has-text('Show the report')")
    page.wait_for_url("**/compare/report?**")
    title = page.title()
    assert title.startswith(verdicts["verdict"]), (title, verdicts["verdict"])
    text = page.locator("body").inner_text()
    for comparison in verdicts["comparisons"]:
        assert comparison["verdict"] in text
    assert page.locator("section#t2").count() == 1  # one section per treatment
    screenshot(page, "dashboard-compare-report")
    # another organization's run is not found
    other = live.organization()
    page.context.clear_cookies()
    path = f"/compare/report?control={control}&treatment={treatment}"
    sign_in(page, live.base_url, other.key, "/compare")
    answer = page.goto(f"{live.base_url}{path}")
    assert answer is not None and answer.status == 404


def test_compare_defaults_to_the_control_and_refuses_a_run_against_itself(
    live: LiveServer, page: Any
) -> None:
    """Uploaded control then treatment: the form pre-selects them the right way round (the
    report's verdict is the API's for control → treatment); the swapped pair is warned about;
    a run against itself is refused with an HTML error page."""
    pytest.importorskip("inspect_ai")
    org = live.organization()
    ids = []
    for name in ("control_epochs.eval", "treatment_epochs.eval"):
        with (INSPECT / name).open("rb") as handle:
            answer = org.client.post("/api/v1/eval-runs", files={"file": (name, handle)}, timeout=TIMEOUT_S)
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["items"][0]["id"])
    control, treatment = ids
    sign_in(page, live.base_url, org.key, "/compare")
    assert page.locator(f"input[name=control][value='{control}']").is_checked()
    assert page.locator(f"input[name=treatment][value='{treatment}']").is_checked()
    assert not page.locator(f"input[name=treatment][value='{control}']").is_checked()
    api = org.client.post(
        "/api/v1/eval-runs/compare",
        json={"control": control, "treatments": [treatment], "resamples": RESAMPLES},
        timeout=TIMEOUT_S,
    )
    assert api.status_code == 200, api.text
    page.fill("#resamples", str(RESAMPLES))
    page.set_default_timeout(TIMEOUT_S * 1000)
    page.click("button:has-text('Show the report')")
    page.wait_for_url("**/compare/report?**")
    assert page.title().startswith(api.json()["verdict"])
    assert page.locator("[data-warning]").count() == 0
    # the swapped pair: a warning above the report
    page.goto(f"{live.base_url}/compare/report?control={treatment}&treatment={control}&resamples={RESAMPLES}")
    warning = page.locator("[data-warning='swapped']")
    assert "swapped" in warning.inner_text()
    # a run against itself: refused
    answer = page.goto(f"{live.base_url}/compare/report?control={control}&treatment={control}")
    assert answer is not None and answer.status == 400
    assert "both the control and the treatment" in page.locator("main").inner_text()
