from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AppealCause")



@_attrs_define
class AppealCause:
    """ An appeal of one of the agent's assessments decided between the two assessments.

        Attributes:
            appeal_id (str):
            assessment_id (str):
            status (str):
            resolved_at (str):
            dimensions_challenged (list[str] | Unset):
            reviewer_notes (None | str | Unset):
     """

    appeal_id: str
    assessment_id: str
    status: str
    resolved_at: str
    dimensions_challenged: list[str] | Unset = UNSET
    reviewer_notes: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        appeal_id = self.appeal_id

        assessment_id = self.assessment_id

        status = self.status

        resolved_at = self.resolved_at

        dimensions_challenged: list[str] | Unset = UNSET
        if not isinstance(self.dimensions_challenged, Unset):
            dimensions_challenged = self.dimensions_challenged



        reviewer_notes: None | str | Unset
        if isinstance(self.reviewer_notes, Unset):
            reviewer_notes = UNSET
        else:
            reviewer_notes = self.reviewer_notes


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "appeal_id": appeal_id,
            "assessment_id": assessment_id,
            "status": status,
            "resolved_at": resolved_at,
        })
        if dimensions_challenged is not UNSET:
            field_dict["dimensions_challenged"] = dimensions_challenged
        if reviewer_notes is not UNSET:
            field_dict["reviewer_notes"] = reviewer_notes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        appeal_id = d.pop("appeal_id")

        assessment_id = d.pop("assessment_id")

        status = d.pop("status")

        resolved_at = d.pop("resolved_at")

        dimensions_challenged = cast(list[str], d.pop("dimensions_challenged", UNSET))


        def _parse_reviewer_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reviewer_notes = _parse_reviewer_notes(d.pop("reviewer_notes", UNSET))


        appeal_cause = cls(
            appeal_id=appeal_id,
            assessment_id=assessment_id,
            status=status,
            resolved_at=resolved_at,
            dimensions_challenged=dimensions_challenged,
            reviewer_notes=reviewer_notes,
        )

        return appeal_cause

