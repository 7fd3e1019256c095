from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.review_decision import check_review_decision
from ..models.review_decision import ReviewDecision
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Review")



@_attrs_define
class Review:
    """ 
        Attributes:
            decision (ReviewDecision):
            reviewer (None | str | Unset):
     """

    decision: ReviewDecision
    reviewer: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        reviewer: None | str | Unset
        if isinstance(self.reviewer, Unset):
            reviewer = UNSET
        else:
            reviewer = self.reviewer


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "decision": decision,
        })
        if reviewer is not UNSET:
            field_dict["reviewer"] = reviewer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decision = check_review_decision(d.pop("decision"))




        def _parse_reviewer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reviewer = _parse_reviewer(d.pop("reviewer", UNSET))


        review = cls(
            decision=decision,
            reviewer=reviewer,
        )

        return review

