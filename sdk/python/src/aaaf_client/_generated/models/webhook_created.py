from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="WebhookCreated")



@_attrs_define
class WebhookCreated:
    """ A new webhook: ``secret`` (``whsec_`` + base64 of 32 random bytes) verifies its
    signatures and is shown this once.

        Attributes:
            id (str):
            organization_id (str):
            url (str):
            event_types (list[str]):
            active (bool):
            max_retries (int):
            retry_backoff_seconds (float):
            disabled_reason (None | str):
            created_at (str):
            updated_at (str):
            secret (str):
     """

    id: str
    organization_id: str
    url: str
    event_types: list[str]
    active: bool
    max_retries: int
    retry_backoff_seconds: float
    disabled_reason: None | str
    created_at: str
    updated_at: str
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        organization_id = self.organization_id

        url = self.url

        event_types = self.event_types



        active = self.active

        max_retries = self.max_retries

        retry_backoff_seconds = self.retry_backoff_seconds

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        created_at = self.created_at

        updated_at = self.updated_at

        secret = self.secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "organization_id": organization_id,
            "url": url,
            "event_types": event_types,
            "active": active,
            "max_retries": max_retries,
            "retry_backoff_seconds": retry_backoff_seconds,
            "disabled_reason": disabled_reason,
            "created_at": created_at,
            "updated_at": updated_at,
            "secret": secret,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        organization_id = d.pop("organization_id")

        url = d.pop("url")

        event_types = cast(list[str], d.pop("event_types"))


        active = d.pop("active")

        max_retries = d.pop("max_retries")

        retry_backoff_seconds = d.pop("retry_backoff_seconds")

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))


        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        secret = d.pop("secret")

        webhook_created = cls(
            id=id,
            organization_id=organization_id,
            url=url,
            event_types=event_types,
            active=active,
            max_retries=max_retries,
            retry_backoff_seconds=retry_backoff_seconds,
            disabled_reason=disabled_reason,
            created_at=created_at,
            updated_at=updated_at,
            secret=secret,
        )


        webhook_created.additional_properties = d
        return webhook_created

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
