from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.reported_facts_checklist import ReportedFactsChecklist





T = TypeVar("T", bound="ReportedFacts")



@_attrs_define
class ReportedFacts:
    """ What the agent reported about a sampled task, before any finding.

        Attributes:
            completion_status (None | str):
            milestone_fraction (float | None):
            checklist (ReportedFactsChecklist):
            errors (int):
            weighted_errors (float):
     """

    completion_status: None | str
    milestone_fraction: float | None
    checklist: ReportedFactsChecklist
    errors: int
    weighted_errors: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reported_facts_checklist import ReportedFactsChecklist # noqa: PLC0415
        completion_status: None | str
        completion_status = self.completion_status

        milestone_fraction: float | None
        milestone_fraction = self.milestone_fraction

        checklist = self.checklist.to_dict()

        errors = self.errors

        weighted_errors = self.weighted_errors


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "completion_status": completion_status,
            "milestone_fraction": milestone_fraction,
            "checklist": checklist,
            "errors": errors,
            "weighted_errors": weighted_errors,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reported_facts_checklist import ReportedFactsChecklist # noqa: PLC0415
        d = dict(src_dict)
        def _parse_completion_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        completion_status = _parse_completion_status(d.pop("completion_status"))


        def _parse_milestone_fraction(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        milestone_fraction = _parse_milestone_fraction(d.pop("milestone_fraction"))


        checklist = ReportedFactsChecklist.from_dict(d.pop("checklist"))




        errors = d.pop("errors")

        weighted_errors = d.pop("weighted_errors")

        reported_facts = cls(
            completion_status=completion_status,
            milestone_fraction=milestone_fraction,
            checklist=checklist,
            errors=errors,
            weighted_errors=weighted_errors,
        )


        reported_facts.additional_properties = d
        return reported_facts

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
