from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageDay")



@_attrs_define
class UsageDay:
    """ 
        Attributes:
            date (str):
            api_calls (int):
            events_accepted (int):
            assessments_run (int):
     """

    date: str
    api_calls: int
    events_accepted: int
    assessments_run: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        date = self.date

        api_calls = self.api_calls

        events_accepted = self.events_accepted

        assessments_run = self.assessments_run


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "date": date,
            "api_calls": api_calls,
            "events_accepted": events_accepted,
            "assessments_run": assessments_run,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        date = d.pop("date")

        api_calls = d.pop("api_calls")

        events_accepted = d.pop("events_accepted")

        assessments_run = d.pop("assessments_run")

        usage_day = cls(
            date=date,
            api_calls=api_calls,
            events_accepted=events_accepted,
            assessments_run=assessments_run,
        )


        usage_day.additional_properties = d
        return usage_day

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
