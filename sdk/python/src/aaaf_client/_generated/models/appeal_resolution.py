from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.appeal_resolution_decision import AppealResolutionDecision
from ..models.appeal_resolution_decision import check_appeal_resolution_decision
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AppealResolution")



@_attrs_define
class AppealResolution:
    """ 
        Attributes:
            decision (AppealResolutionDecision):
            notes (None | str | Unset):
     """

    decision: AppealResolutionDecision
    notes: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "decision": decision,
        })
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decision = check_appeal_resolution_decision(d.pop("decision"))




        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))


        appeal_resolution = cls(
            decision=decision,
            notes=notes,
        )

        return appeal_resolution

