"""The public verification page ``GET /verify/{assessment_id}`` against a live ``aaaf serve``,
on SQLite and PostgreSQL (issue 17; SCORING.md §7 "Public routes", §2.5 "borderline").

The page must say what the public JSON verification says — valid, expired, revoked — in
words, show the same tiers, serve a 404 page for a private or unknown badge, and its offline
instructions must work as printed.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest
from sqlalchemy import update

from aaaf.scoring.core import display
from aaaf.store import open_store, tables
from tests.api import conftest as api_conftest
from tests.api.conftest import LiveServer, aaaf_script
from tests.web.verify_support import api_badge, borderline_badge, expired_badge

live = api_conftest.live  # the live-server fixture of the API tests (SQLite, PostgreSQL)

INLINE = {"a", "span", "strong", "code", "q", "em", "abbr"}


class Page(HTMLParser):
    """The visible text of a page (block elements apart, inline ones run on), its links and
    images, and the verdict's ``data-status``."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.links: list[str] = []
        self.images: list[str] = []
        self.stylesheets: list[str] = []
        self.status: str | None = None
        self.scripts = 0
        self._skip = 0
        self.feed(html)
        self.text = re.sub(r"\s+", " ", "".join(self.parts))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag not in INLINE:
            self.parts.append(" ")
        if tag in ("style", "script", "title"):
            self._skip += 1
            self.scripts += tag == "script"
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "img":
            self.images.append(str(found.get("src")))
        if tag == "link" and found.get("rel") == "stylesheet":
            self.stylesheets.append(str(found.get("href")))
        if found.get("data-status"):
            self.status = found["data-status"]

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE:
            self.parts.append(" ")
        if tag in ("style", "script", "title"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def fetch(live: LiveServer, path: str) -> tuple[httpx.Response, Page]:
    response = live.anonymous.get(path)
    assert response.headers["content-type"].startswith("text/html"), response.headers
    return response, Page(response.text)


def test_a_valid_badge_says_so_and_shows_what_the_api_says(live: LiveServer, tmp_path: Path) -> None:
    badge = api_badge(live, "page-valid")
    response, page = fetch(live, badge.page)
    assert response.status_code == 200 and response.headers["cache-control"] == "no-store"
    assert page.status == "valid" and "Status: Valid" in page.text
    assert "This badge is genuine, unaltered and in force." in page.text
    verdict = live.anonymous.get(f"/api/v1/badges/{badge.assessment_id}/verify").json()
    assessment = badge.org.client.get(f"/api/v1/assessments/{badge.assessment_id}").json()
    assert verdict["valid"] is True
    assert f"Agent {verdict['agent_name']}" in page.text
    assert f"Assessed by {verdict['organization']}'s own AAAF installation" in page.text
    assert "Domains the operator claims code, testing (claimed by the operator, not certified)" in page.text
    for axis in ("performance", "capability"):
        tier = verdict[f"{axis}_tier"]
        composite = display(assessment[axis]["composite_score"])
        assert f"{axis.title()} {tier} composite {composite}" in page.text
        probability = assessment[axis]["uncertainty"]["tier_probabilities"].get(tier)
        if probability is not None:
            assert f"P({tier}) = {display(probability)}" in page.text
    assert page.scripts == 0  # readable without JavaScript: there is none
    # the page, not the JSON, is what badges issued now link to (document 004 §4.5)
    credential = live.anonymous.get(f"/api/v1/badges/{badge.assessment_id}.json").json()
    assert (
        credential["credentialSubject"]["verification_url"] == f"{live.base_url}/verify/{badge.assessment_id}"
    )
    # the picture, the stylesheet and every link on the page answer
    base = f"{live.base_url}{badge.page}"
    (image,) = page.images
    picture = httpx.get(urljoin(base, image))
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/svg+xml"
    (css,) = page.stylesheets
    assert httpx.get(urljoin(base, css)).headers["content-type"].startswith("text/css")
    assert len(page.links) >= 8
    for link in page.links:
        if link.startswith("#"):
            continue
        answer = httpx.get(urljoin(base, link))
        assert answer.status_code == 200, (link, answer.text[:200])

    # the offline instructions, run as printed (curl's part done with httpx: no network tool needed)
    command = next(line for line in response.text.splitlines() if line.startswith("aaaf verify "))
    args = shlex.split(command)
    assert args[:5] == ["aaaf", "verify", "badge.png", "--key", "issuer-jwks.json"]
    (tmp_path / "badge.png").write_bytes(
        httpx.get(urljoin(base, f"../api/v1/badges/{badge.assessment_id}.png")).content
    )
    (tmp_path / "issuer-jwks.json").write_bytes(httpx.get(f"{live.base_url}/.well-known/jwks.json").content)
    checked = subprocess.run(
        [aaaf_script(), *args[1:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "AAAF_DATABASE_URL": f"sqlite:///{tmp_path / 'none.db'}"},
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "VALID" in checked.stdout and "revocation not checked" not in checked.stdout


def test_a_revoked_badge_says_revoked_and_why(live: LiveServer) -> None:
    badge = api_badge(live, "page-revoked")
    revoked = badge.org.client.post(
        f"/api/v1/badges/{badge.assessment_id}/revoke", json={"reason": "evidence was fabricated"}
    )
    assert revoked.status_code == 200, revoked.text
    _, page = fetch(live, badge.page)
    assert page.status == "revoked" and "Status: Revoked" in page.text
    assert "The issuer has withdrawn this badge" in page.text
    assert "“evidence was fabricated”" in page.text or "evidence was fabricated" in page.text
    assert "FAILED status" in page.text
    assert live.anonymous.get(f"/api/v1/badges/{badge.assessment_id}/verify").json()["revoked"] is True


def test_an_expired_badge_says_expired(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    badge = expired_badge(live, monkeypatch, "page-expired")
    verdict = live.anonymous.get(f"/api/v1/badges/{badge.assessment_id}/verify").json()
    assert verdict["expired"] is True and verdict["valid"] is False and verdict["revoked"] is False
    response, page = fetch(live, badge.page)
    assert response.status_code == 200
    assert page.status == "expired" and "Status: Expired" in page.text
    assert "its validity period has ended" in page.text
    assert "FAILED validity: expired on" in page.text, page.text


def test_a_borderline_tier_is_called_borderline(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    badge = borderline_badge(live, monkeypatch, "page-borderline")
    _, page = fetch(live, badge.page)
    assert page.status == "valid"
    assert "P(Expert) = 0.62 — borderline: fewer than 80 in 100 resamples land in this tier" in page.text
    assert "95 % interval 0.71 – 0.86" in page.text
    assert "P(Versatile) = 0.97." in page.text
    assert page.text.count("borderline:") == 1  # capability (0.97) is not borderline
    assert "Domains the operator claims security (claimed by the operator, not certified)" in page.text


def test_a_private_or_unknown_badge_is_a_404_page(live: LiveServer) -> None:
    badge = api_badge(live, "page-private")
    assert (
        badge.org.client.patch(
            f"/api/v1/badges/{badge.assessment_id}", json={"visibility": "private"}
        ).status_code
        == 200
    )
    for path in (badge.page, "/verify/00000000-0000-4000-8000-000000000000", "/verify/not-an-id"):
        response, page = fetch(live, path)
        assert response.status_code == 404, path
        assert "No public badge found" in page.text and page.status is None
        assert "page-private" not in response.text  # nothing about whom a private badge names
    # its own organization still sees it through the API, and public again it has its page
    assert (
        badge.org.client.patch(
            f"/api/v1/badges/{badge.assessment_id}", json={"visibility": "public"}
        ).status_code
        == 200
    )
    assert fetch(live, badge.page)[1].status == "valid"


def test_the_page_is_not_part_of_the_api(live: LiveServer) -> None:
    paths = live.anonymous.get("/openapi.json").json()["paths"]
    assert not [path for path in paths if path.startswith(("/verify", "/static"))]


def test_a_badge_that_fails_a_check_cannot_be_confirmed(live: LiveServer) -> None:
    """A credential on record whose signature no longer holds (altered in the database) is
    neither valid, expired nor revoked: the page says it cannot be confirmed and names the check."""
    badge = api_badge(live, "page-altered")
    with open_store(live.database_url) as store:
        record = store.find_badge(badge.assessment_id)
        assert record is not None and record.credential_jwt
        header, payload, signature = record.credential_jwt.split(".")
        body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        body["credentialSubject"]["performance"]["tier"] = "Elite"  # a forged claim
        forged = base64.urlsafe_b64encode(json.dumps(body).encode()).rstrip(b"=").decode()
        with store.engine.begin() as connection:
            connection.execute(
                update(tables.badges)
                .where(tables.badges.c.status_index == record.status_index)
                .where(tables.badges.c.assessment_id == record.assessment_id)
                .values(credential_jwt=f"{header}.{forged}.{signature}")
            )
    assert live.anonymous.get(f"/api/v1/badges/{badge.assessment_id}/verify").json()["valid"] is False
    response, page = fetch(live, badge.page)
    assert response.status_code == 200
    assert page.status == "unknown" and "Status: Cannot be confirmed" in page.text
    assert "Failed check: signature:" in page.text
