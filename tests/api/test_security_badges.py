"""A revoked badge stays revoked (docs/security.md "Badges"): the status list carries a
``validUntil``, an expired list is refused, and ``aaaf verify`` asks the issuer's live list
first, so an older list handed to it can add a revocation but never remove one."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from aaaf.badges.credential import split_token
from aaaf.badges.data import parse_datetime
from aaaf.badges.keys import parse_public_keys
from aaaf.badges.verify import verify
from tests.api.conftest import LiveServer, aaaf_script, agent_evidence, poll_until, wait_for_status


def _badged_agent(live: LiveServer) -> tuple[object, str]:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    agent = org.client.post("/api/v1/agents", json={"name": "revocable"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    assert wait_for_status(org.client, started["id"])["status"] == "completed"
    badge_url = f"/api/v1/badges/{started['id']}"
    assert poll_until(lambda: org.client.get(badge_url).status_code, lambda status: status == 200) == 200
    return org, badge_url


def test_a_status_list_handed_in_cannot_hide_a_later_revocation(live: LiveServer, tmp_path: Path) -> None:
    org, badge_url = _badged_agent(live)
    before = live.anonymous.get(f"/api/v1/organizations/{org.id}/status-list")  # type: ignore[attr-defined]
    assert before.status_code == 200
    _header, payload = split_token(before.text.strip())
    issued = parse_datetime(payload["validFrom"])
    assert parse_datetime(payload["validUntil"]) - issued == timedelta(hours=24)

    (tmp_path / "A.svg").write_bytes(live.anonymous.get(f"{badge_url}.svg").content)
    (tmp_path / "before.jwt").write_bytes(before.content)
    (tmp_path / "jwks.json").write_bytes(live.anonymous.get("/.well-known/jwks.json").content)
    revoked = org.client.post(f"{badge_url}/revoke", json={"reason": "gamed the evals"})  # type: ignore[attr-defined]
    assert revoked.status_code == 200, revoked.text

    # verified elsewhere (another installation's empty database), with yesterday's list
    answer = subprocess.run(
        [
            aaaf_script(),
            "verify",
            str(tmp_path / "A.svg"),
            "--key",
            str(tmp_path / "jwks.json"),
            "--status-list",
            str(tmp_path / "before.jwt"),
            "--db",
            f"sqlite:///{tmp_path / 'other.db'}",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert answer.returncode == 1, answer.stdout + answer.stderr
    result = json.loads(answer.stdout)
    assert result["valid"] is False and result["revoked"] is True, result
    assert "gamed the evals" in result["revoke_reason"]


def test_an_expired_or_undated_status_list_is_refused(live: LiveServer) -> None:
    org, badge_url = _badged_agent(live)
    status_list = live.anonymous.get(f"/api/v1/organizations/{org.id}/status-list").content  # type: ignore[attr-defined]
    keys = parse_public_keys(live.anonymous.get("/.well-known/jwks.json").content)
    badge = live.anonymous.get(f"{badge_url}.jwt").content
    now = datetime.now(UTC)
    fresh = verify(badge, keys, now=now, status_list=status_list)
    assert fresh.valid and fresh.revoked is False
    stale = verify(badge, keys, now=now + timedelta(hours=25), status_list=status_list)
    assert not stale.valid
    status = next(check for check in stale.checks if check.name == "status")
    assert not status.ok and "expired" in status.reason
