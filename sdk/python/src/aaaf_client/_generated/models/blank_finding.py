from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.blank_finding_checklist import BlankFindingChecklist





T = TypeVar("T", bound="BlankFinding")



@_attrs_define
class BlankFinding:
    """ The finding fields of a drawn task, left blank for the auditor.

        Attributes:
            auditor (None):
            completion_status (None):
            milestone_fraction (None):
            checklist (BlankFindingChecklist):
            errors (None):
            notes (None):
     """

    auditor: None
    completion_status: None
    milestone_fraction: None
    checklist: BlankFindingChecklist
    errors: None
    notes: None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.blank_finding_checklist import BlankFindingChecklist # noqa: PLC0415
        auditor = self.auditor

        completion_status = self.completion_status

        milestone_fraction = self.milestone_fraction

        checklist = self.checklist.to_dict()

        errors = self.errors

        notes = self.notes


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "auditor": auditor,
            "completion_status": completion_status,
            "milestone_fraction": milestone_fraction,
            "checklist": checklist,
            "errors": errors,
            "notes": notes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.blank_finding_checklist import BlankFindingChecklist # noqa: PLC0415
        d = dict(src_dict)
        auditor = d.pop("auditor")

        completion_status = d.pop("completion_status")

        milestone_fraction = d.pop("milestone_fraction")

        checklist = BlankFindingChecklist.from_dict(d.pop("checklist"))




        errors = d.pop("errors")

        notes = d.pop("notes")

        blank_finding = cls(
            auditor=auditor,
            completion_status=completion_status,
            milestone_fraction=milestone_fraction,
            checklist=checklist,
            errors=errors,
            notes=notes,
        )


        blank_finding.additional_properties = d
        return blank_finding

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
