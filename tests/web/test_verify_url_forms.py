"""A badge's ``verification_url`` names the public verification page now, and badges signed
before (naming the JSON answer) still verify (issue 17; document 004 §4.5).

Both forms are checked offline the way a holder checks them: the baked SVG and PNG, the
JSON and the JWT with ``aaaf verify --key JWKS --status-list FILE``, and the picture a
server redraws from the credential is byte for byte the one that was signed.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from aaaf.badges.bake import bake_png, bake_svg
from aaaf.badges.credential import build_credential, credential_document, sign, status_entry
from aaaf.badges.data import BadgeData, badge_data_from_credential, base_url_of_verification_url
from aaaf.badges.digest import image_digests
from aaaf.badges.keys import IssuerKey, jwks
from aaaf.badges.png import render_png
from aaaf.badges.status_list import Revocation, build_status_list_credential, sign_status_list
from aaaf.badges.svg import render_svg
from aaaf.badges.verify import verify
from aaaf.cli.commands import badge as badge_commands
from aaaf.settings import get_settings
from tests.badges.conftest import BASE_URL, clock, sample_badge

OLD = "old"
NEW = "new"


def badge_of(form: str) -> BadgeData:
    data = sample_badge()
    if form == OLD:  # what a badge issued before issue 17 names
        old_url = f"{BASE_URL}/api/v1/badges/{data.assessment_id}/verify"
        data = replace(data, signed_verification_url=old_url)
    return data


def signed(data: BadgeData, key: IssuerKey) -> tuple[str, str, bytes]:
    """The token, the baked SVG and the baked PNG of ``data``."""
    svg = render_svg(data)
    png = render_png(svg)
    credential = build_credential(
        data, status=status_entry(data.status_list_url, 3), now=clock(), images=image_digests(svg, png)
    )
    token = sign(credential, key)
    return token, bake_svg(svg, token), bake_png(png, token)


def status_list(data: BadgeData, key: IssuerKey, revoked: list[Revocation]) -> str:
    document = build_status_list_credential(
        issuer_id=data.issuer_id,
        organization_name=data.organization_name,
        list_url=data.status_list_url,
        revocations=revoked,
        highest_index=10,
        now=clock(),
        valid_for=timedelta(hours=24),
    )
    return sign_status_list(document, key)


def test_a_badge_issued_now_names_the_verification_page() -> None:
    data = sample_badge()
    assert data.verification_url == f"{BASE_URL}/verify/{data.assessment_id}"
    assert data.to_section_4_5()["verification_url"] == data.verification_url


@pytest.mark.parametrize("form", [NEW, OLD])
def test_both_forms_read_back_and_redraw_the_signed_picture(form: str) -> None:
    key = IssuerKey.generate()
    data = badge_of(form)
    token, baked_svg, _ = signed(data, key)
    credential = credential_document(token)
    read = badge_data_from_credential(credential)
    assert read.base_url == BASE_URL
    assert (
        read.verification_url == data.verification_url == credential["credentialSubject"]["verification_url"]
    )
    # what GET /api/v1/badges/{id}.svg serves: redrawn from the credential, the signed picture
    assert render_svg(read) == render_svg(data)
    result = verify(baked_svg, [key.public], now=clock(), status_list=status_list(data, key, []))
    assert result.valid, result.reason
    assert [c.name for c in result.checks if c.name == "image" and c.ok] == ["image"]


def test_a_verification_url_that_names_another_assessment_is_refused() -> None:
    data = sample_badge()
    with pytest.raises(ValueError, match="does not name the assessment"):
        base_url_of_verification_url(f"{BASE_URL}/verify/someone-else", data.assessment_id)
    with pytest.raises(ValueError):
        base_url_of_verification_url(f"{BASE_URL}/api/v1/badges/{data.assessment_id}", data.assessment_id)
    key = IssuerKey.generate()
    token, _, _ = signed(replace(data, signed_verification_url=f"{BASE_URL}/elsewhere"), key)
    result = verify(token, [key.public], now=clock())
    assert not result.valid and result.failed[0].name == "scores"


def cli() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """aaaf"""

    badge_commands.register(app)
    return app


@pytest.mark.parametrize("form", [NEW, OLD])
def test_aaaf_verify_offline_accepts_both_forms(
    form: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AAAF_DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.db'}")
    get_settings.cache_clear()
    key = IssuerKey.generate()
    data = badge_of(form)
    token, baked_svg, baked_png = signed(data, key)
    files = {
        "svg": tmp_path / "badge.svg",
        "png": tmp_path / "badge.png",
        "jwt": tmp_path / "badge.jwt",
        "json": tmp_path / "badge.json",
    }
    files["svg"].write_text(baked_svg)
    files["png"].write_bytes(baked_png)
    files["jwt"].write_text(token)
    files["json"].write_text(json.dumps(credential_document(token)))
    (tmp_path / "jwks.json").write_text(json.dumps(jwks([key.public])))
    (tmp_path / "list.jwt").write_text(status_list(data, key, []))
    (tmp_path / "revoked.jwt").write_text(
        status_list(data, key, [Revocation(index=3, revoked_at=clock(), reason="test")])
    )
    runner = CliRunner()
    try:
        for path in files.values():
            args = ["verify", str(path), "--key", "jwks.json", "--status-list", "list.jwt", "--json"]
            result = runner.invoke(cli(), args)
            assert result.exit_code == 0, result.output
            assert json.loads(result.stdout)["valid"] is True
        revoked = runner.invoke(
            cli(),
            ["verify", str(files["png"]), "--key", "jwks.json", "--status-list", "revoked.jwt", "--json"],
        )
        assert revoked.exit_code == 1 and json.loads(revoked.stdout)["revoked"] is True
    finally:
        get_settings.cache_clear()
