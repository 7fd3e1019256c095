from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event_out_data import EventOutData





T = TypeVar("T", bound="EventOut")



@_attrs_define
class EventOut:
    """ 
        Attributes:
            id (str):
            key (None | str):
            agent_id (str):
            type_ (str):
            timestamp (str):
            task_id (None | str):
            data (EventOutData):
     """

    id: str
    key: None | str
    agent_id: str
    type_: str
    timestamp: str
    task_id: None | str
    data: EventOutData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_out_data import EventOutData # noqa: PLC0415
        id = self.id

        key: None | str
        key = self.key

        agent_id = self.agent_id

        type_ = self.type_

        timestamp = self.timestamp

        task_id: None | str
        task_id = self.task_id

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "key": key,
            "agent_id": agent_id,
            "type": type_,
            "timestamp": timestamp,
            "task_id": task_id,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_out_data import EventOutData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key = _parse_key(d.pop("key"))


        agent_id = d.pop("agent_id")

        type_ = d.pop("type")

        timestamp = d.pop("timestamp")

        def _parse_task_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_id = _parse_task_id(d.pop("task_id"))


        data = EventOutData.from_dict(d.pop("data"))




        event_out = cls(
            id=id,
            key=key,
            agent_id=agent_id,
            type_=type_,
            timestamp=timestamp,
            task_id=task_id,
            data=data,
        )


        event_out.additional_properties = d
        return event_out

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
