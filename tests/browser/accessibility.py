"""Checks every dashboard page must pass in the browser: no sideways scroll on a 320 px
phone, and axe-core finding no serious or critical violation.

axe-core comes from the npm registry as the only devDependency of ``tests/browser/package.json``
(pinned by its ``package-lock.json``); ``make install`` runs ``npm ci`` there when npm exists.
Missing, the accessibility tests skip on a developer's machine and fail under ``CI=true``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE_320 = {"width": 320, "height": 640}
BLOCKING = ("serious", "critical")


def require_axe() -> Path:
    """The path of ``axe.min.js``; skip (fail under CI) when ``make install`` has not put it there."""
    if not AXE.exists():
        message = f"{AXE} is missing (make install runs npm ci in tests/browser)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: the accessibility tests may not be skipped)")
        pytest.skip(message)
    return AXE


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations axe-core finds on ``page`` as it is now, each with
    its rule id, impact, help text and the first offending elements' selectors."""
    page.add_script_tag(path=str(require_axe()))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        {
            "id": item["id"],
            "impact": item["impact"],
            "help": item["help"],
            "nodes": [node["target"] for node in item["nodes"][:5]],
        }
        for item in found
        if item["impact"] in BLOCKING
    ]


def sideways_overflow(page: Any) -> dict[str, Any]:
    """How far the document scrolls sideways (``scrollWidth - innerWidth``, 0 when it does not)
    and, when it does, the widest elements that stick out past the viewport."""
    return dict(
        page.evaluate(
            """() => {
              const width = window.innerWidth;
              const over = document.documentElement.scrollWidth - width;
              const culprits = [];
              if (over > 0) {
                for (const el of document.querySelectorAll('body *')) {
                  const box = el.getBoundingClientRect();
                  let clipped = false;  // inside a box that scrolls on its own: not the page's
                  for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
                    if (getComputedStyle(up).overflowX !== 'visible') { clipped = true; break; }
                  if (box.right > width + 0.5 && !clipped) culprits.push(
                    el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                    (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') +
                    ' right=' + Math.round(box.right));
                }
              }
              return {over: Math.max(over, 0), culprits: culprits.slice(0, 8)};
            }"""
        )
    )


def smallest_chart_text_px(page: Any) -> float | None:
    """The smallest rendered size, in CSS pixels, of any text in the page's SVG charts (its
    font size in user units times the chart's user-unit-to-screen scale), None without charts."""
    found = page.evaluate(
        """() => {
          const sizes = [];
          for (const text of document.querySelectorAll('svg.chart text')) {
            const scale = text.ownerSVGElement.getScreenCTM().a;
            sizes.push(parseFloat(getComputedStyle(text).fontSize) * scale);
          }
          return sizes.length ? Math.min(...sizes) : null;
        }"""
    )
    return None if found is None else float(found)
