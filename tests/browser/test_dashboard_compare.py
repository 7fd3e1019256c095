"""The dashboard's compare page in Chromium (issue 17 §4): the organization's eval runs, a
control and two treatments, and the existing HTML report whose verdicts are the API's
(``POST /api/v1/eval-runs/compare``) for the same runs and resamples.  A small comparison is
shown at once (SQLite); a long one runs as a job whose page follows it, then shows the report
(issue 32; SQLite and PostgreSQL, where ``aaaf worker`` runs it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import LiveServer
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import sign_in

SQLITE = pytest.mark.parametrize("live", ["sqlite"], indirect=True)
INSPECT = Path(__file__).parents[1] / "fixtures" / "inspect" / "issue11"
RESAMPLES = 300  # fewer than the default keeps the test quick; the same on both sides
TIMEOUT_S = 600.0


def _upload_pair(org: Any) -> tuple[str, str]:
    ids = []
    for name in ("control_epochs.eval", "treatment_epochs.eval"):
        with (INSPECT / name).open("rb") as handle:
            answer = org.client.post("/api/v1/eval-runs", files={"file": (name, handle)}, timeout=TIMEOUT_S)
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["items"][0]["id"])
    return ids[0], ids[1]


@SQLITE
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


@SQLITE
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


def test_a_long_compare_runs_as_a_job_whose_page_shows_its_progress_then_the_report(
    live: LiveServer, page: Any
) -> None:
    """The default 10 000 resamples are above the direct limit: the form POSTs (with its CSRF
    token), the report is queued as a job, the browser lands on the job's page, which polls
    its progress and then shows the report — the API's verdict for the same runs and
    resamples.  Another organization cannot see it; the GET of a report that long is refused."""
    pytest.importorskip("inspect_ai")
    resamples = 10_000
    org = live.organization()
    control, treatment = _upload_pair(org)
    api = org.client.post(
        "/api/v1/eval-runs/compare",
        json={"control": control, "treatments": [treatment], "resamples": resamples},
        timeout=TIMEOUT_S,
    )
    assert api.status_code == 200, api.text
    sign_in(page, live.base_url, org.key, "/compare")
    assert page.locator("form[action='/compare/report'] input[name=csrf_token]").count() == 1
    statuses: list[str] = []
    page.on(
        "response",
        lambda response: (
            statuses.append(response.headers.get("hx-refresh") or "") if "/progress" in response.url else None
        ),
    )
    page.click("button:has-text('Show the report')")
    page.wait_for_url("**/compare/reports/*")
    page.set_default_timeout(TIMEOUT_S * 1000)
    job_url = page.url
    if page.locator("#compare-progress").count():  # the job had not finished: its progress
        progress = page.locator("#compare-progress")
        assert progress.get_attribute("data-status") in ("queued", "running", "done")
        assert "10 000 bootstrap resamples × 1 treatment" in progress.inner_text()
        screenshot(page, f"dashboard-compare-job-{live.dialect}")
        page.locator("#compare-progress").wait_for(state="detached")
        assert "true" in statuses  # the page reloaded itself into the report
    assert page.url == job_url
    assert page.title().startswith(api.json()["verdict"]), (page.title(), api.json()["verdict"])
    report_id = job_url.rsplit("/", 1)[1]
    fragment = page.request.get(f"{live.base_url}/compare/reports/{report_id}/progress")
    assert fragment.status == 200 and fragment.headers.get("hx-refresh") == "true"
    assert 'data-status="done"' in fragment.text()
    # a GET of a report that long is refused: it only runs as a job
    answer = page.goto(f"{live.base_url}/compare/report?control={control}&treatment={treatment}")
    assert answer is not None and answer.status == 400
    assert "runs as a job" in page.locator("main").inner_text()
    # the form without its CSRF token is refused
    refused = page.request.post(
        f"{live.base_url}/compare/report", form={"control": control, "treatment": treatment}
    )
    assert refused.status == 403
    # another organization's browser does not find the report
    other = live.organization()
    page.context.clear_cookies()
    sign_in(page, live.base_url, other.key, "/compare")
    answer = page.goto(job_url)
    assert answer is not None and answer.status == 404
