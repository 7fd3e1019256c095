"""An accepted appeal writes everything in one unit of work (issue 10 §2): the old badge superseded,
the new scores, the appeal resolved — all of it or, when it is interrupted half-way, none of it.
On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aaaf.services import badges as service
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.store.repositories.appeals import AppealRepository
from tests.badges.conftest import clock, session_of
from tests.badges.test_supersession import COUNTER_EVIDENCE, assessed


@pytest.fixture()
def session(store: Any, badge_settings: Path) -> Any:
    return session_of(store)


def _state(session: Any, assessment_id: Any, appeal_id: Any) -> tuple[str, str, list[tuple[int, bool]]]:
    assessment = session.org.get_assessment(assessment_id)
    badges = [(b.status_index, b.revoked) for b in session.org.badge_credentials(assessment_id)]
    return json.dumps(assessment.result, sort_keys=True), session.org.get_appeal(appeal_id).status, badges


def test_an_appeal_interrupted_half_way_leaves_nothing_changed(
    session: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assessment = assessed(session)
    service.issue_badge(session, str(assessment.id), ["jwt"], tmp_path / "out", clock())
    appeal = file_appeal(
        session.org,
        str(assessment.id),
        dimensions=["accuracy"],
        justification="scope change, not an error",
        counter_evidence=COUNTER_EVIDENCE,
        now=clock(),
    )
    before = _state(session, assessment.id, appeal.id)
    assert before[1] == "filed" and before[2] == [(0, False)]

    def crash(*args: Any, **kwargs: Any) -> Any:  # after the badge and the scores were written
        raise RuntimeError("killed half-way")

    monkeypatch.setattr(AppealRepository, "resolve_appeal", crash)
    with pytest.raises(RuntimeError):
        resolve_appeal(session.org, str(appeal.id), decision="accepted", notes="agreed", now=clock())
    assert _state(session, assessment.id, appeal.id) == before  # scores, badge bit and appeal untouched

    monkeypatch.undo()
    resolved = resolve_appeal(session.org, str(appeal.id), decision="accepted", notes="agreed", now=clock())
    result, status, badges = _state(session, assessment.id, appeal.id)
    assert status == "accepted" and result != before[0]
    assert badges == [(0, True)]  # superseded, its bit set
    assert resolved.resolution["superseded_badge"]["status_index"] == 0
