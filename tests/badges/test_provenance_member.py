"""The badge says where each axis's evidence came from (docs/stress-tests.md "Provenance").

The assessment's recorded ``evidence_sources`` goes into the signed credential twice, as OB 3.0
puts evidence: the ``credentialSubject.evidence_sources`` member (per axis, the tasks and events
stress-tested by this installation and reported by the organization; the stress runs), and the
credential's ``evidence`` — the assessment record's ``narrative`` in words and one ``Evidence``
per stress run.  The badge still verifies, with our verifier and openbadgeslib's, reads back the
same, and ``subject_summary`` reports it; a badge of an assessment recorded before provenance
carries neither and says so.
"""

from __future__ import annotations

from typing import Any

from openbadgeslib.ob3 import OB3Verifier

from aaaf.badges.credential import build_credential, credential_document, sign, status_entry
from aaaf.badges.data import badge_data_from_credential, provenance_of
from aaaf.badges.keys import IssuerKey
from aaaf.badges.verify import subject_summary, verify
from aaaf.scoring.evidence_sources import NOT_RECORDED
from tests.badges.conftest import BASE_URL, clock, sample_badge

RUN = "6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e"
# as an assessment records it: 141 tasks of run RUN and 30 the organization sent
RECORDED: dict[str, Any] = {
    "passive_events": 60,
    "stress_test_events": 700,
    "stress_runs": [RUN],
    "reported_stress_events": 0,
    "reported_stress_runs": [],
    "model_graded": {"orchestration_results": 3, "judged": 0, "judges": [], "note": "no judge"},
    "performance": {"stress_tested_tasks": 141, "reported_tasks": 30, "stress_tested_events": 282, "reported_events": 60},
    "capability": {"stress_tested_tasks": 141, "reported_tasks": 30, "stress_tested_events": 640, "reported_events": 60},
}  # fmt: skip


def test_the_credential_carries_each_axis_s_provenance_and_the_stress_runs(issuer: IssuerKey) -> None:
    data = sample_badge(evidence_sources=provenance_of(RECORDED))
    token = sign(build_credential(data, status=status_entry(data.status_list_url, 3), now=clock()), issuer)
    document = credential_document(token)
    member = document["credentialSubject"]["evidence_sources"]
    assert member == {
        "performance": RECORDED["performance"],
        "capability": RECORDED["capability"],
        "stress_runs": [RUN],
        "reported_stress_runs": [],
    }
    record, run = document["evidence"]
    assert record["id"] == f"{BASE_URL}/api/v1/assessments/{data.assessment_id}"
    assert record["narrative"] == (
        "Performance: 141 of 171 tasks stress-tested by this installation, 30 reported by the organization."
        "\n\nCapability: 141 of 171 tasks stress-tested by this installation, 30 reported by the organization."
        f"\n\nStress runs of this installation: {RUN}."
    )
    assert run == {
        "id": f"{BASE_URL}/api/v1/stress-runs/{RUN}",
        "type": ["Evidence"],
        "name": f"Stress run {RUN}",
        "description": (
            "A run of the stress-test library by this installation's own harness; the assessment scored "
            "its evidence as stress-tested."
        ),
        "genre": "Stress test run",
    }
    # both verifiers accept it; it reads back as signed
    checked = OB3Verifier(issuer.public.pem()).verify(token, expected_recipient=data.subject_id)
    assert checked.raw["credentialSubject"]["evidence_sources"] == member
    assert verify(token.encode(), [issuer.public], now=clock()).valid
    assert badge_data_from_credential(document).evidence_sources == member
    assert subject_summary(document)["evidence_sources"] == member


def test_a_badge_of_an_assessment_recorded_before_provenance_says_nothing_of_it(issuer: IssuerKey) -> None:
    before = {"passive_events": 0, "stress_test_events": 16, "stress_runs": [RUN]}  # no per-axis figures
    assert provenance_of(before) is None and provenance_of(None) is None
    data = sample_badge(evidence_sources=provenance_of(before))
    document = credential_document(sign(build_credential(data, status=None, now=clock()), issuer))
    assert "evidence_sources" not in document["credentialSubject"]
    (record,) = document["evidence"]
    assert "narrative" not in record
    assert subject_summary(document)["evidence_sources"] is None
    assert NOT_RECORDED.startswith("Where the evidence came from was not recorded")


def test_a_malformed_member_is_read_as_saying_nothing() -> None:
    """A credential is untrusted input: a member that is not counts is not shown as figures."""
    data = sample_badge(evidence_sources=provenance_of(RECORDED))
    document = build_credential(data, status=None, now=clock())
    document["credentialSubject"]["evidence_sources"]["performance"]["reported_tasks"] = -1
    assert subject_summary(document)["evidence_sources"] is None
