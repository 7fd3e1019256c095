from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookUpdate")



@_attrs_define
class WebhookUpdate:
    """ 
        Attributes:
            url (None | str | Unset):
            event_types (list[str] | None | Unset): Event types (docs/webhooks.md): assessment.started,
                assessment.completed, assessment.failed, badge.expiring, badge.expired, appeal.filed, appeal.resolved,
                evidence.threshold_reached.
            active (bool | None | Unset):
            max_retries (int | None | Unset):
            retry_backoff_seconds (float | None | Unset):
     """

    url: None | str | Unset = UNSET
    event_types: list[str] | None | Unset = UNSET
    active: bool | None | Unset = UNSET
    max_retries: int | None | Unset = UNSET
    retry_backoff_seconds: float | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        event_types: list[str] | None | Unset
        if isinstance(self.event_types, Unset):
            event_types = UNSET
        elif isinstance(self.event_types, list):
            event_types = self.event_types


        else:
            event_types = self.event_types

        active: bool | None | Unset
        if isinstance(self.active, Unset):
            active = UNSET
        else:
            active = self.active

        max_retries: int | None | Unset
        if isinstance(self.max_retries, Unset):
            max_retries = UNSET
        else:
            max_retries = self.max_retries

        retry_backoff_seconds: float | None | Unset
        if isinstance(self.retry_backoff_seconds, Unset):
            retry_backoff_seconds = UNSET
        else:
            retry_backoff_seconds = self.retry_backoff_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if active is not UNSET:
            field_dict["active"] = active
        if max_retries is not UNSET:
            field_dict["max_retries"] = max_retries
        if retry_backoff_seconds is not UNSET:
            field_dict["retry_backoff_seconds"] = retry_backoff_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))


        def _parse_event_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                event_types_type_0 = cast(list[str], data)

                return event_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        event_types = _parse_event_types(d.pop("event_types", UNSET))


        def _parse_active(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        active = _parse_active(d.pop("active", UNSET))


        def _parse_max_retries(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_retries = _parse_max_retries(d.pop("max_retries", UNSET))


        def _parse_retry_backoff_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        retry_backoff_seconds = _parse_retry_backoff_seconds(d.pop("retry_backoff_seconds", UNSET))


        webhook_update = cls(
            url=url,
            event_types=event_types,
            active=active,
            max_retries=max_retries,
            retry_backoff_seconds=retry_backoff_seconds,
        )

        return webhook_update

