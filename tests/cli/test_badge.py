"""`aaaf badge`, `badge revoke`, `badge status-list`, `issuer key`, `verify`, `review` end to end,
and an accepted `appeal` superseding the badge already issued."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from aaaf.cli.commands import appeal as appeal_commands
from aaaf.cli.commands import badge as badge_commands
from aaaf.cli.commands import review as review_commands
from aaaf.cli.commands.review import os_user_name
from aaaf.evidence.validation import validate_event
from aaaf.services.assess import assess_agent
from aaaf.settings import get_settings
from aaaf.store import open_store
from tests.badges.conftest import clock, completed_assessment
from tests.cli.events_factory import agent_log

runner = CliRunner()


def make_app() -> typer.Typer:
    """Only the commands under test, so other command groups cannot break these tests."""
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """aaaf"""

    badge_commands.register(app)
    review_commands.register(app)
    appeal_commands.register(app)
    return app


APP = make_app()


@pytest.fixture()
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.delenv("AAAF_ISSUER_KEY_PATH", raising=False)
    monkeypatch.delenv("AAAF_DATABASE_URL", raising=False)
    monkeypatch.setenv("AAAF_PUBLIC_BASE_URL", "https://assess.example.com")
    get_settings.cache_clear()
    yield tmp_path / "data" / "aaaf.db"
    get_settings.cache_clear()


def assessment(db: Path, **options: Any) -> str:
    db.parent.mkdir(parents=True, exist_ok=True)
    with open_store(f"sqlite:///{db}") as store:
        org = store.scope(store.default_organization().id)
        return str(completed_assessment(org, **options).id)


def run(*args: str) -> Any:
    return runner.invoke(APP, [str(a) for a in args])


def test_badge_writes_each_format_and_verify_says_valid(db: Path, tmp_path: Path) -> None:
    assessment_id = assessment(db)
    out = tmp_path / "out"
    result = run("badge", assessment_id, "--format", "svg,png,json,jwt,md", "--output", out, "--db", db)
    assert result.exit_code == 0, result.output
    for ext in ("svg", "png", "json", "jwt", "md"):
        assert (out / f"security-auditor.{ext}").is_file()
    # the issuer key is sealed in the database with the installation's secret (SCORING.md §7)
    assert not (db.parent / "aaaf-issuer.key").exists()
    for ext in ("png", "svg", "json", "jwt"):
        verified = run("verify", out / f"security-auditor.{ext}", "--db", db)
        assert verified.exit_code == 0, verified.output
        assert "VALID" in verified.output
    markdown = (out / "security-auditor.md").read_text()
    assert "| Score | 0.80 | 0.50 |" in markdown


def test_badge_verify_is_verify(db: Path, tmp_path: Path) -> None:
    """`aaaf badge verify FILE` verifies the file, as `aaaf verify FILE` does (it used to be read
    as issuing a badge to an agent named "verify")."""
    assessment_id = assessment(db)
    run("badge", assessment_id, "--format", "jwt", "--output", tmp_path, "--db", db)
    path = tmp_path / "security-auditor.jwt"
    grouped = run("badge", "verify", path, "--db", db, "--json")
    plain = run("verify", path, "--db", db, "--json")
    assert grouped.exit_code == 0, grouped.output
    assert json.loads(grouped.stdout)["valid"] is True
    assert json.loads(grouped.stdout) == json.loads(plain.stdout)
    assert "verify" not in run("badge", "--help").output.split("Commands")[-1]


def test_hand_edited_credential_is_invalid_with_the_check_named(db: Path, tmp_path: Path) -> None:
    assessment_id = assessment(db)
    run("badge", assessment_id, "--format", "json", "--output", tmp_path, "--db", db)
    path = tmp_path / "security-auditor.json"
    document = json.loads(path.read_text())
    document["credentialSubject"]["performance"]["composite_score"] = 0.99
    path.write_text(json.dumps(document))
    result = run("verify", path, "--db", db, "--json")
    assert result.exit_code == 1
    body = json.loads(result.stdout)
    assert body["valid"] is False and body["reason"].startswith("document:")
    human = run("verify", path, "--db", db)
    assert human.exit_code == 1 and "INVALID" in human.output and "document" in human.output


def test_verify_with_an_explicit_key_and_a_wrong_key(db: Path, tmp_path: Path) -> None:
    assessment_id = assessment(db)
    run("badge", assessment_id, "--format", "jwt", "--output", tmp_path, "--db", db)
    pem = run("issuer", "key", "--db", db)
    assert pem.exit_code == 0 and pem.stdout.startswith("-----BEGIN PUBLIC KEY-----")
    assert "PRIVATE" not in pem.stdout
    (tmp_path / "issuer.pem").write_text(pem.stdout)
    jwks = run("issuer", "key", "--jwks", "--db", db)
    document = json.loads(jwks.stdout)
    assert document["keys"][0]["kty"] == "OKP" and "d" not in document["keys"][0]
    (tmp_path / "issuer.jwks").write_text(jwks.stdout)
    badge_file = tmp_path / "security-auditor.jwt"
    assert run("verify", badge_file, "--key", tmp_path / "issuer.pem").exit_code == 0
    assert run("verify", badge_file, "--key", tmp_path / "issuer.jwks").exit_code == 0
    other_db = tmp_path / "other" / "aaaf.db"
    assessment(other_db)
    run("issuer", "key", "--db", other_db)
    wrong = run("verify", badge_file, "--db", other_db, "--json")
    assert wrong.exit_code == 1
    assert json.loads(wrong.stdout)["reason"].startswith("signature: signed with key")


def test_revoke_then_verify_against_the_status_list(db: Path, tmp_path: Path) -> None:
    assessment_id = assessment(db)
    run("badge", assessment_id, "--format", "png", "--output", tmp_path, "--db", db)
    revoked = run("badge", "revoke", assessment_id, "--reason", "fabricated evidence", "--db", db)
    assert revoked.exit_code == 0, revoked.output
    status_file = db.parent / "aaaf-status-list.jwt"
    assert status_file.is_file()
    result = run(
        "verify", tmp_path / "security-auditor.png", "--status-list", status_file, "--db", db, "--json"
    )
    assert result.exit_code == 1
    body = json.loads(result.stdout)
    assert body["revoked"] is True and body["revoke_reason"] == "fabricated evidence"
    assert body["reason"].startswith("status: revoked on ")
    listed = run("badge", "status-list", "--output", tmp_path / "list.jwt", "--db", db, "--json")
    written = json.loads(listed.stdout)
    assert written["status_list"] == str(tmp_path / "list.jwt") and written["revoked"] == 1
    assert written["signed_now"] is True and written["valid_until"]
    human = run(
        "verify", tmp_path / "security-auditor.png", "--status-list", tmp_path / "list.jwt", "--db", db
    )
    assert "REVOKED" in human.output and "fabricated evidence" in human.output


def test_held_badge_needs_review(db: Path, tmp_path: Path) -> None:
    assessment_id = assessment(db, review_state="pending_review")
    held = run("badge", assessment_id, "--format", "svg", "--output", tmp_path, "--db", db)
    assert held.exit_code == 2 and "BADGE_HELD" in held.output
    listed = run("review", "list", "--db", db, "--json")
    assert [a["assessment_id"] for a in json.loads(listed.stdout)] == [assessment_id]
    approved = run("review", "approve", assessment_id, "--db", db)
    assert approved.exit_code == 0, approved.output
    assert run("badge", assessment_id, "--format", "svg", "--output", tmp_path, "--db", db).exit_code == 0
    assert run("review", "reject", assessment_id, "--db", db).exit_code == 2  # no longer awaiting review


def test_badge_all_and_bad_input(db: Path, tmp_path: Path) -> None:
    first = assessment(db, agent_name="one")
    second = assessment(db, agent_name="two")
    result = run("badge", "--all", "--format", "md", "--output", tmp_path, "--db", db, "--json")
    assert result.exit_code == 0, result.output
    assert sorted(o["assessment_id"] for o in json.loads(result.stdout)) == sorted([first, second])
    assert run("badge", first, "--format", "gif", "--output", tmp_path, "--db", db).exit_code == 2
    assert run("badge", "--format", "md", "--db", db).exit_code == 2  # neither an id nor --all
    assert run("verify", tmp_path / "missing.png", "--db", db).exit_code == 2
    assert run("verify", tmp_path / "one.md", "--key", tmp_path / "nope.pem").exit_code == 2
    no_key = run("verify", tmp_path / "one.md", "--db", tmp_path / "empty" / "aaaf.db")
    assert no_key.exit_code == 2 and "--key" in no_key.output


def test_a_status_list_url_must_be_https_off_loopback(db: Path, tmp_path: Path) -> None:
    assessment_id = assessment(db)
    run("badge", assessment_id, "--format", "jwt", "--output", tmp_path, "--db", db)
    result = run(
        "verify", tmp_path / "security-auditor.jwt", "--status-list", "http://example.com/list", "--db", db
    )
    assert result.exit_code == 2 and "https" in result.output


def real_assessment(db: Path) -> str:
    """An assessment scored from 36 real tasks (so that an appeal can re-score it)."""
    db.parent.mkdir(parents=True, exist_ok=True)
    now = clock()
    with open_store(f"sqlite:///{db}") as store:
        org = store.scope(store.default_organization().id)
        agent = org.enroll_agent("coder")
        org.add_events(
            [
                (agent.id, validate_event(event, now=now, default_agent="coder"))
                for event in agent_log(None, 36, now=now, prefix="coder")
            ]
        )
        return str(assess_agent(org, "coder", now=now).id)


def test_an_accepted_appeal_supersedes_the_badge_and_a_new_one_is_issued(db: Path, tmp_path: Path) -> None:
    assessment_id = real_assessment(db)
    before, after = tmp_path / "before", tmp_path / "after"
    issued = run("badge", assessment_id, "--format", "png,json", "--output", before, "--db", db)
    assert issued.exit_code == 0, issued.output
    filed = run(
        "appeal", "file", assessment_id, "--dimensions", "accuracy", "--justification", "scope change",
        "--task", "coder-000", "--db", db, "--json",
    )  # fmt: skip
    assert filed.exit_code == 0, filed.output
    appeal_id = json.loads(filed.stdout)["id"]
    resolved = run("appeal", "resolve", appeal_id, "accepted", "--db", db, "--json")
    assert resolved.exit_code == 0, resolved.output
    assert json.loads(resolved.stdout)["resolution"]["superseded_badge"]["status_index"] == 0

    status_file = db.parent / "aaaf-status-list.jwt"  # rewritten beside the issuer key
    reason = f"superseded: appeal {appeal_id} accepted"
    for ext in ("png", "json"):
        old = run("verify", before / f"coder.{ext}", "--status-list", status_file, "--db", db, "--json")
        assert old.exit_code == 1, old.output
        body = json.loads(old.stdout)
        assert body["revoked"] is True and body["revoke_reason"] == reason
    human = run("verify", before / "coder.png", "--status-list", status_file, "--db", db)
    assert "REVOKED" in human.output and reason in human.output

    reissued = run("badge", assessment_id, "--format", "png,json", "--output", after, "--db", db)
    assert reissued.exit_code == 0, reissued.output
    new = run("verify", after / "coder.png", "--status-list", status_file, "--db", db, "--json")
    assert new.exit_code == 0, new.output
    new_body = json.loads(new.stdout)
    assert new_body["valid"] is True and new_body["revoked"] is False
    old_doc = json.loads((before / "coder.json").read_text())
    new_doc = json.loads((after / "coder.json").read_text())
    assert old_doc["id"] != new_doc["id"] == new_body["credential_id"]
    assert new_doc["credentialStatus"]["statusListIndex"] == "1"  # a fresh bit
    old_accuracy = old_doc["credentialSubject"]["performance"]["dimensions"]["accuracy"]
    new_accuracy = new_doc["credentialSubject"]["performance"]["dimensions"]["accuracy"]
    assert new_accuracy > old_accuracy  # the corrected score
    listed = run("badge", "status-list", "--db", db, "--json")
    assert json.loads(listed.stdout)["revoked"] == 1


def test_review_records_the_reviewer(db: Path) -> None:
    named = assessment(db, agent_name="named", review_state="pending_review")
    default = assessment(db, agent_name="default", review_state="pending_review")
    approved = run("review", "approve", named, "--reviewer", "rita", "--db", db, "--json")
    assert approved.exit_code == 0, approved.output
    body = json.loads(approved.stdout)
    assert body["review_state"] == "approved" and body["reviewed_by"] == "rita"
    rejected = run("review", "reject", default, "--db", db)
    assert rejected.exit_code == 0 and f"{os_user_name()} rejected" in rejected.output
    with open_store(f"sqlite:///{db}") as store:
        org = store.scope(store.default_organization().id)
        stored = {a.agent_name: a for a in (org.get_assessment(named), org.get_assessment(default))}
    assert stored["named"].reviewed_by == "rita" and stored["named"].reviewed_at is not None
    assert stored["default"].review_state == "rejected" and stored["default"].reviewed_by == os_user_name()
    assert stored["named"].to_dict()["reviewed_at"] == body["reviewed_at"]


def test_a_blank_reviewer_is_bad_input(db: Path) -> None:
    held = assessment(db, review_state="pending_review")
    blank = run("review", "approve", held, "--reviewer", "  ", "--db", db)
    assert blank.exit_code == 2 and "reviewer" in blank.output
