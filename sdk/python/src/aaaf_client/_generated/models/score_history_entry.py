from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.score_history_entry_details import ScoreHistoryEntryDetails





T = TypeVar("T", bound="ScoreHistoryEntry")



@_attrs_define
class ScoreHistoryEntry:
    """ One recorded score of a scheme (docs/scoring.md §4): ``aaaf trust history --json``
    lists them, ``aaaf trust review --json`` answers one.  An anomalous score is not
    ``committed`` until a reviewer approves it.

        Attributes:
            id (str):
            organization_id (str):
            agent_id (str):
            scheme (str):
            score (float | None):
            tier (None | str):
            details (ScoreHistoryEntryDetails):
            was_anomalous (bool):
            committed (bool):
            reviewed_by (None | str):
            reviewed_at (None | str):
            review_decision (None | str):
            computed_at (str):
            at (str):
     """

    id: str
    organization_id: str
    agent_id: str
    scheme: str
    score: float | None
    tier: None | str
    details: ScoreHistoryEntryDetails
    was_anomalous: bool
    committed: bool
    reviewed_by: None | str
    reviewed_at: None | str
    review_decision: None | str
    computed_at: str
    at: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.score_history_entry_details import ScoreHistoryEntryDetails # noqa: PLC0415
        id = self.id

        organization_id = self.organization_id

        agent_id = self.agent_id

        scheme = self.scheme

        score: float | None
        score = self.score

        tier: None | str
        tier = self.tier

        details = self.details.to_dict()

        was_anomalous = self.was_anomalous

        committed = self.committed

        reviewed_by: None | str
        reviewed_by = self.reviewed_by

        reviewed_at: None | str
        reviewed_at = self.reviewed_at

        review_decision: None | str
        review_decision = self.review_decision

        computed_at = self.computed_at

        at = self.at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "organization_id": organization_id,
            "agent_id": agent_id,
            "scheme": scheme,
            "score": score,
            "tier": tier,
            "details": details,
            "was_anomalous": was_anomalous,
            "committed": committed,
            "reviewed_by": reviewed_by,
            "reviewed_at": reviewed_at,
            "review_decision": review_decision,
            "computed_at": computed_at,
            "at": at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.score_history_entry_details import ScoreHistoryEntryDetails # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        organization_id = d.pop("organization_id")

        agent_id = d.pop("agent_id")

        scheme = d.pop("scheme")

        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        def _parse_tier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tier = _parse_tier(d.pop("tier"))


        details = ScoreHistoryEntryDetails.from_dict(d.pop("details"))




        was_anomalous = d.pop("was_anomalous")

        committed = d.pop("committed")

        def _parse_reviewed_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reviewed_by = _parse_reviewed_by(d.pop("reviewed_by"))


        def _parse_reviewed_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reviewed_at = _parse_reviewed_at(d.pop("reviewed_at"))


        def _parse_review_decision(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        review_decision = _parse_review_decision(d.pop("review_decision"))


        computed_at = d.pop("computed_at")

        at = d.pop("at")

        score_history_entry = cls(
            id=id,
            organization_id=organization_id,
            agent_id=agent_id,
            scheme=scheme,
            score=score,
            tier=tier,
            details=details,
            was_anomalous=was_anomalous,
            committed=committed,
            reviewed_by=reviewed_by,
            reviewed_at=reviewed_at,
            review_decision=review_decision,
            computed_at=computed_at,
            at=at,
        )

        return score_history_entry

