from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AssessmentStarted")



@_attrs_define
class AssessmentStarted:
    """ 
        Attributes:
            id (str):
            agent_id (str):
            status (str):
            type_ (str):
            created_at (str):
     """

    id: str
    agent_id: str
    status: str
    type_: str
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        agent_id = self.agent_id

        status = self.status

        type_ = self.type_

        created_at = self.created_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "agent_id": agent_id,
            "status": status,
            "type": type_,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        agent_id = d.pop("agent_id")

        status = d.pop("status")

        type_ = d.pop("type")

        created_at = d.pop("created_at")

        assessment_started = cls(
            id=id,
            agent_id=agent_id,
            status=status,
            type_=type_,
            created_at=created_at,
        )


        assessment_started.additional_properties = d
        return assessment_started

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
