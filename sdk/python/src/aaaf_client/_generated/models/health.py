from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.queue_status import QueueStatus





T = TypeVar("T", bound="Health")



@_attrs_define
class Health:
    """ 
        Attributes:
            status (str): ok, or degraded (see reason).
            database (str):
            version (str):
            reason (None | str | Unset):
            queue (None | QueueStatus | Unset):
     """

    status: str
    database: str
    version: str
    reason: None | str | Unset = UNSET
    queue: None | QueueStatus | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.queue_status import QueueStatus # noqa: PLC0415
        status = self.status

        database = self.database

        version = self.version

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        queue: dict[str, Any] | None | Unset
        if isinstance(self.queue, Unset):
            queue = UNSET
        elif isinstance(self.queue, QueueStatus):
            queue = self.queue.to_dict()
        else:
            queue = self.queue


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "status": status,
            "database": database,
            "version": version,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason
        if queue is not UNSET:
            field_dict["queue"] = queue

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.queue_status import QueueStatus # noqa: PLC0415
        d = dict(src_dict)
        status = d.pop("status")

        database = d.pop("database")

        version = d.pop("version")

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        def _parse_queue(data: object) -> None | QueueStatus | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                queue_type_0 = QueueStatus.from_dict(data)



                return queue_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QueueStatus | Unset, data)

        queue = _parse_queue(d.pop("queue", UNSET))


        health = cls(
            status=status,
            database=database,
            version=version,
            reason=reason,
            queue=queue,
        )


        health.additional_properties = d
        return health

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
