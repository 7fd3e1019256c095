"""Playwright for Python driving Debian's Chromium against a live ``aaaf serve`` (issue 17 §4).

Playwright cannot download its own browser here, so it launches ``/usr/bin/chromium`` (the
Debian package ``.ci/run`` installs) with the flags that keep it off the closed network.  The
``live`` server fixture (SQLite, then PostgreSQL) comes from the API tests.  Tests write
screenshots to ``SCREENSHOTS`` (the best ones are copied to ``docs/screenshots/`` by hand).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import live  # noqa: F401  (the live-server fixture, shared)

CHROMIUM = os.environ.get("AAAF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("AAAF_SCREENSHOTS", Path(tempfile.gettempdir()) / "aaaf-screenshots"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (per xdist worker).

    Module scope, not session: Playwright's sync API runs an asyncio loop in the main thread
    for as long as ``sync_playwright()`` is open, so a browser kept for the session would make
    every later test of that worker that calls ``asyncio.run`` (inspect_ai's eval, the SDKs)
    fail with "Cannot run the event loop while another loop is running".  pytest closes a
    module's fixtures before it runs a test of another module."""
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: the browser tests may not be skipped)")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context (no cookies) and page per test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


def screenshot(page: Any, name: str) -> Path:
    """A full-page PNG of ``page`` in ``SCREENSHOTS``; its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
