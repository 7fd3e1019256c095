"""The tamper suite of issue 21 (Why 6 and 7), through the CLI, on SQLite and PostgreSQL.

Each case failed on the phase-1 code:

* a revoked badge verified VALID without ``--status-list``, even on the machine that issued it;
* so did a badge superseded by an accepted appeal;
* a PNG (or SVG) showing agent A "Proficient" but carrying agent B's valid "Elite"
  credential verified VALID, and verify never said what it had verified;
* a badge of another installation verified VALID without a word about revocation;
* a badge was issued for an expired or superseded assessment;
* ``verify --at 2027-03-01`` exited 2 and ``verify x.md`` exited 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from aaaf.badges.bake import bake_png, bake_svg, extract
from aaaf.badges.credential import build_credential, sign, status_entry
from aaaf.badges.digest import image_digests
from aaaf.badges.keys import IssuerKey
from aaaf.badges.png import render_png
from aaaf.badges.status_list import Revocation, build_status_list_credential, sign_status_list
from aaaf.badges.svg import render_svg
from aaaf.evidence.validation import validate_event
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.services.assess import assess_agent
from aaaf.settings import get_settings
from tests.badges.conftest import BASE_URL, clock, completed_assessment, sample_badge, session_of
from tests.cli.events_factory import agent_log

runner = CliRunner()


def make_app() -> typer.Typer:
    from aaaf.cli.commands import badge as badge_commands

    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """aaaf"""

    badge_commands.register(app)
    return app


APP = make_app()


@pytest.fixture()
def installation(store: Any, store_url: str, badge_settings: Path) -> Iterator[Any]:
    """This installation: a store (SQLite or PostgreSQL) and its issuer key (AAAF_ISSUER_KEY_PATH)."""
    yield session_of(store)


def run(*args: Any) -> Any:
    return runner.invoke(APP, [str(a) for a in args])


def issue(store_url: str, assessment_id: Any, out: Path, formats: str = "png,svg,json,jwt") -> None:
    result = run("badge", assessment_id, "--format", formats, "--output", out, "--db", store_url)
    assert result.exit_code == 0, result.output


def verify_json(store_url: str, path: Path, *options: Any) -> tuple[int, dict[str, Any]]:
    result = run("verify", path, "--db", store_url, "--json", *options)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def test_a_revoked_badge_verifies_as_revoked_on_the_issuing_machine(
    installation: Any, store_url: str, tmp_path: Path
) -> None:
    assessment = completed_assessment(installation.org)
    issue(store_url, assessment.id, tmp_path)
    for ext in ("png", "svg", "json", "jwt"):
        code, body = verify_json(store_url, tmp_path / f"{assessment.agent_name}.{ext}")
        assert code == 0 and body["valid"] is True
        assert body["revocation_checked"] is True and body["revoked"] is False
        assert body["revocation"].startswith("checked: not revoked (checked in this installation's database")
    revoked = run("badge", "revoke", assessment.id, "--reason", "fabricated evidence", "--db", store_url)
    assert revoked.exit_code == 0, revoked.output
    for ext in ("png", "svg", "json", "jwt"):
        code, body = verify_json(store_url, tmp_path / f"{assessment.agent_name}.{ext}")  # no --status-list
        assert code == 1
        assert body["valid"] is False and body["revoked"] is True and body["revocation_checked"] is True
        assert body["revoke_reason"] == "fabricated evidence"
        assert body["reason"].startswith("status: revoked on ") and "fabricated evidence" in body["reason"]
    human = run("verify", tmp_path / f"{assessment.agent_name}.png", "--db", store_url)
    assert human.exit_code == 1
    assert "REVOKED" in human.output and "fabricated evidence" in human.output


def test_an_appeal_superseded_badge_verifies_as_revoked_without_a_status_list(
    installation: Any, store_url: str, tmp_path: Path
) -> None:
    now = clock()
    agent = installation.org.enroll_agent("coder")
    installation.org.add_events(
        [
            (agent.id, validate_event(event, now=now, default_agent="coder"))
            for event in agent_log(None, 36, now=now, prefix="coder")
        ]
    )
    assessment = assess_agent(installation.org, "coder", now=now)
    before, after = tmp_path / "before", tmp_path / "after"
    issue(store_url, assessment.id, before, "png,json")
    appeal = file_appeal(
        installation.org,
        str(assessment.id),
        dimensions=["accuracy"],
        justification="scope change, not an error",
        counter_evidence=[{"task_id": "coder-000", "claim": "the revision was a scope change"}],
        now=clock(),
    )
    resolve_appeal(installation.org, str(appeal.id), decision="accepted", notes="agreed", now=clock())
    reason = f"superseded: appeal {appeal.id} accepted"
    for ext in ("png", "json"):
        code, body = verify_json(store_url, before / f"{assessment.agent_name}.{ext}")
        assert code == 1 and body["revoked"] is True and body["revoke_reason"] == reason
    issue(store_url, assessment.id, after, "png,json")
    code, body = verify_json(store_url, after / f"{assessment.agent_name}.png")
    assert code == 0 and body["valid"] is True and body["revocation_checked"] is True


def test_a_picture_carrying_another_agents_credential_is_invalid(
    installation: Any, store_url: str, tmp_path: Path
) -> None:
    # A: 0.65 is Proficient (≥ 0.60, < 0.75); B: 0.93 is Elite (≥ 0.90)
    shown = completed_assessment(
        installation.org, agent_name="security-auditor", composites=(0.65, "Proficient", 0.5, "Versatile")
    )
    carried = completed_assessment(
        installation.org, agent_name="star-agent", composites=(0.93, "Elite", 0.5, "Versatile")
    )
    issue(store_url, shown.id, tmp_path / "a", "png,svg")
    issue(store_url, carried.id, tmp_path / "b", "png,svg,jwt")
    token = (tmp_path / "b" / f"{carried.agent_name}.jwt").read_text().strip()
    forged_png = tmp_path / "forged.png"
    forged_png.write_bytes(bake_png((tmp_path / "a" / f"{shown.agent_name}.png").read_bytes(), token))
    forged_svg = tmp_path / "forged.svg"
    forged_svg.write_text(bake_svg((tmp_path / "a" / f"{shown.agent_name}.svg").read_text(), token))
    for forged in (forged_png, forged_svg):
        assert extract(forged.read_bytes()).token == token  # B's credential, A's picture
        code, body = verify_json(store_url, forged)
        assert code == 1 and body["valid"] is False
        assert body["reason"].startswith("image: image does not match credential")
        # the result says what the credential says: B, Elite — not what the picture shows
        subject = body["subject"]
        assert subject["agent"] == {"id": str(carried.agent_id), "name": "star-agent"}
        assert subject["performance"] == {"tier": "Elite", "score": 0.93}
        human = run("verify", forged, "--db", store_url)
        assert human.exit_code == 1
        assert "INVALID" in human.output and "image does not match credential" in human.output
        assert "star-agent" in human.output and "Elite 0.93" in human.output
    # B's own pictures are fine
    for ext in ("png", "svg"):
        code, body = verify_json(store_url, tmp_path / "b" / f"{carried.agent_name}.{ext}")
        assert code == 0 and body["subject"]["performance"]["tier"] == "Elite"


def test_verify_says_what_it_verified(installation: Any, store_url: str, tmp_path: Path) -> None:
    assessment = completed_assessment(installation.org, composites=(0.8, "Expert", 0.5, "Versatile"))
    issue(store_url, assessment.id, tmp_path, "png")
    code, body = verify_json(store_url, tmp_path / f"{assessment.agent_name}.png")
    assert code == 0
    completed = assessment.completed_at.astimezone(UTC)
    assert body["subject"] == {
        "agent": {"id": str(assessment.agent_id), "name": "security-auditor"},
        "organization": {"id": str(installation.organization.id), "name": installation.organization.name},
        "assessment_id": str(assessment.id),
        "performance": {"tier": "Expert", "score": 0.8},
        "capability": {"tier": "Versatile", "score": 0.5},
        "issued": completed.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "valid_until": (completed + timedelta(days=90)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        # an assessment recorded without provenance: the credential does not say where its evidence came from
        "evidence_sources": None,
    }
    human = run("verify", tmp_path / f"{assessment.agent_name}.png", "--db", store_url)
    assert human.exit_code == 0, human.output
    for text in ("security-auditor", str(assessment.id), "Expert 0.80", "Versatile 0.50", "VALID"):
        assert text in human.output
    assert "Where the evidence came from was not recorded" in " ".join(human.output.split())
    assert installation.organization.name in human.output


def test_an_edited_json_badge_is_invalid(installation: Any, store_url: str, tmp_path: Path) -> None:
    assessment = completed_assessment(installation.org, composites=(0.65, "Proficient", 0.5, "Versatile"))
    issue(store_url, assessment.id, tmp_path, "json")
    path = tmp_path / f"{assessment.agent_name}.json"
    document = json.loads(path.read_text())
    document["credentialSubject"]["performance"]["tier"] = "Elite"
    document["credentialSubject"]["performance"]["composite_score"] = 0.93
    path.write_text(json.dumps(document))
    code, body = verify_json(store_url, path)
    assert code == 1 and body["valid"] is False and body["reason"].startswith("document:")


def foreign_badge(tmp_path: Path) -> tuple[IssuerKey, Path, Any]:
    """A badge of another installation (its own key and organization), as a PNG."""
    key = IssuerKey.generate()
    data = sample_badge(organization_id="99999999-2222-4333-8444-555555555555")
    svg = render_svg(data)
    png = render_png(svg)
    credential = build_credential(
        data, status=status_entry(data.status_list_url, 3), now=clock(), images=image_digests(svg, png)
    )
    path = tmp_path / "foreign.png"
    path.write_bytes(bake_png(png, sign(credential, key)))
    (tmp_path / "foreign.pem").write_text(key.public.pem())
    return key, path, data


def test_a_foreign_badge_says_revocation_was_not_checked(
    installation: Any, store_url: str, tmp_path: Path
) -> None:
    ours = completed_assessment(installation.org)
    issue(store_url, ours.id, tmp_path, "jwt")  # this installation has its own key
    key, path, data = foreign_badge(tmp_path)
    pem = tmp_path / "foreign.pem"
    code, body = verify_json(store_url, path, "--key", pem)
    assert code == 0 and body["valid"] is True
    assert body["revocation_checked"] is False and body["revoked"] is None
    assert body["revocation"].startswith(
        f"revocation not checked: the badge was issued by another installation (signed with key {key.kid}"
    )
    status = next(c for c in body["checks"] if c["name"] == "status")
    assert status["skipped"] is True and "--status-list" in status["reason"]
    human = run("verify", path, "--key", pem, "--db", store_url)
    assert human.exit_code == 0
    assert "VALID (revocation not checked)" in human.output
    assert "revocation: revocation not checked: the badge was issued by another installation" in human.output
    # --require-status makes it a failure
    code, body = verify_json(store_url, path, "--key", pem, "--require-status")
    assert code == 1 and body["valid"] is False
    assert body["reason"].startswith("status: revocation not checked:")
    assert "--require-status" in body["reason"]
    # its issuer's status list answers, and then --require-status is satisfied
    revoked = sign_status_list(
        build_status_list_credential(
            issuer_id=data.issuer_id,
            organization_name=data.organization_name,
            list_url=data.status_list_url,
            revocations=[Revocation(3, clock(), "key compromised")],
            highest_index=10,
            now=clock(),
            valid_for=timedelta(hours=24),
        ),
        key,
    )
    (tmp_path / "list.jwt").write_text(revoked)
    code, body = verify_json(
        store_url, path, "--key", pem, "--status-list", tmp_path / "list.jwt", "--require-status"
    )
    assert code == 1 and body["revoked"] is True and body["revoke_reason"] == "key compromised"


def test_no_badge_for_an_expired_superseded_or_held_assessment(
    installation: Any, store_url: str, tmp_path: Path
) -> None:
    now = clock()
    expired = completed_assessment(
        installation.org, agent_name="old-timer", completed_at=now - timedelta(days=100)
    )
    result = run("badge", expired.id, "--format", "svg", "--output", tmp_path, "--db", store_url)
    assert result.exit_code == 2
    assert "[CONFLICT]" in result.output and "expired on" in result.output
    older = completed_assessment(installation.org, agent_name="twice", completed_at=now - timedelta(days=5))
    newer = completed_assessment(installation.org, agent_name="twice", completed_at=now - timedelta(days=1))
    result = run("badge", older.id, "--format", "svg", "--output", tmp_path, "--db", store_url, "--json")
    assert result.exit_code == 2
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "CONFLICT" and error["details"]["superseded_by"] == str(newer.id)
    assert f"superseded by the later assessment {newer.id}" in error["message"]
    held = completed_assessment(installation.org, agent_name="held", review_state="pending_review")
    result = run("badge", held.id, "--format", "svg", "--output", tmp_path, "--db", store_url)
    assert result.exit_code == 2 and "BADGE_HELD" in result.output
    rejected = completed_assessment(installation.org, agent_name="rejected", review_state="rejected")
    result = run("badge", rejected.id, "--format", "svg", "--output", tmp_path, "--db", store_url)
    assert result.exit_code == 2 and "rejected" in result.output
    assert not list(tmp_path.glob("*.svg"))
    assert run("badge", newer.id, "--format", "svg", "--output", tmp_path, "--db", store_url).exit_code == 0


def test_verify_at_a_bare_date_means_midnight_utc(badge_settings: Path, tmp_path: Path) -> None:
    key = IssuerKey.generate()
    until = datetime(2027, 3, 1, tzinfo=UTC)
    data = sample_badge(completed_at=datetime(2026, 11, 1, tzinfo=UTC), valid_until=until)
    token = sign(build_credential(data, status=None, now=clock()), key)
    (tmp_path / "badge.jwt").write_text(token)
    (tmp_path / "key.pem").write_text(key.public.pem())
    args = ("verify", tmp_path / "badge.jwt", "--key", tmp_path / "key.pem", "--json", "--at")
    # 2027-03-01 is 2027-03-01T00:00:00Z: the instant validUntil names, so the badge has expired
    at_date = run(*args, "2027-03-01")
    assert at_date.exit_code == 1, at_date.output
    assert json.loads(at_date.stdout)["reason"] == "validity: expired on 2027-03-01T00:00:00Z"
    # one second earlier it was valid; so was the whole day before
    assert run(*args, "2027-02-28T23:59:59Z").exit_code == 0
    assert run(*args, "2027-02-28").exit_code == 0
    bad = run(*args, "2027-02-30")
    assert bad.exit_code == 2 and "midnight UTC" in bad.output


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("x.md", b"# AAAF badge\n\n| | Performance |\n|---|---|\n| Tier | Expert |\n"),
        ("notes.txt", b"hello"),
        ("plain.png", render_png(render_svg(sample_badge()))),  # a PNG without a credential
    ],
)
def test_a_file_without_a_credential_is_bad_input(
    badge_settings: Path, tmp_path: Path, name: str, content: bytes
) -> None:
    (tmp_path / "key.pem").write_text(IssuerKey.generate().public.pem())
    (tmp_path / name).write_bytes(content)
    result = run("verify", tmp_path / name, "--key", tmp_path / "key.pem")
    assert result.exit_code == 2, result.output
    assert "is not a badge aaaf verify can read" in result.output and ".md badge" in result.output


def test_localhost_badges_warn_once(
    installation: Any, store_url: str, tmp_path: Path, monkeypatch: Any
) -> None:
    from aaaf.cli.commands import badge as badge_commands

    completed_assessment(installation.org, agent_name="one")
    completed_assessment(installation.org, agent_name="two")
    monkeypatch.delenv("AAAF_PUBLIC_BASE_URL")
    get_settings.cache_clear()
    badge_commands.warn_if_local_base_url.cache_clear()
    result = run("badge", "--all", "--format", "md", "--output", tmp_path, "--db", store_url)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("AAAF_PUBLIC_BASE_URL") == 1
    assert "http://localhost:8000" in result.stderr
    monkeypatch.setenv("AAAF_PUBLIC_BASE_URL", BASE_URL)
    get_settings.cache_clear()
    badge_commands.warn_if_local_base_url.cache_clear()
    quiet = run("badge", "--all", "--format", "md", "--output", tmp_path, "--db", store_url)
    assert quiet.exit_code == 0 and "AAAF_PUBLIC_BASE_URL" not in quiet.stderr
