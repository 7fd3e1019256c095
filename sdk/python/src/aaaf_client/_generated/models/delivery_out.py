from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.delivery_attempt import DeliveryAttempt





T = TypeVar("T", bound="DeliveryOut")



@_attrs_define
class DeliveryOut:
    """ 
        Attributes:
            id (str):
            webhook_id (str):
            message_id (str): The `webhook-id` header, the same on every retry.
            event (str):
            status (str): pending, succeeded or failed.
            attempt_count (int):
            next_attempt_at (None | str):
            last_attempt_at (None | str):
            last_status_code (int | None):
            last_error (None | str):
            attempts (list[DeliveryAttempt]):
            created_at (str):
     """

    id: str
    webhook_id: str
    message_id: str
    event: str
    status: str
    attempt_count: int
    next_attempt_at: None | str
    last_attempt_at: None | str
    last_status_code: int | None
    last_error: None | str
    attempts: list[DeliveryAttempt]
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_attempt import DeliveryAttempt # noqa: PLC0415
        id = self.id

        webhook_id = self.webhook_id

        message_id = self.message_id

        event = self.event

        status = self.status

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        next_attempt_at = self.next_attempt_at

        last_attempt_at: None | str
        last_attempt_at = self.last_attempt_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)



        created_at = self.created_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "webhook_id": webhook_id,
            "message_id": message_id,
            "event": event,
            "status": status,
            "attempt_count": attempt_count,
            "next_attempt_at": next_attempt_at,
            "last_attempt_at": last_attempt_at,
            "last_status_code": last_status_code,
            "last_error": last_error,
            "attempts": attempts,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_attempt import DeliveryAttempt # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        webhook_id = d.pop("webhook_id")

        message_id = d.pop("message_id")

        event = d.pop("event")

        status = d.pop("status")

        attempt_count = d.pop("attempt_count")

        def _parse_next_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))


        def _parse_last_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))


        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code"))


        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))


        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in (_attempts):
            attempts_item = DeliveryAttempt.from_dict(attempts_item_data)



            attempts.append(attempts_item)


        created_at = d.pop("created_at")

        delivery_out = cls(
            id=id,
            webhook_id=webhook_id,
            message_id=message_id,
            event=event,
            status=status,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            last_attempt_at=last_attempt_at,
            last_status_code=last_status_code,
            last_error=last_error,
            attempts=attempts,
            created_at=created_at,
        )


        delivery_out.additional_properties = d
        return delivery_out

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
