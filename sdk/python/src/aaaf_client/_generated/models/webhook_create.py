from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookCreate")



@_attrs_define
class WebhookCreate:
    """ 
        Attributes:
            url (str): http(s) URL the events are POSTed to.
            event_types (list[str]): Event types (docs/webhooks.md): assessment.started, assessment.completed,
                assessment.failed, badge.expiring, badge.expired, appeal.filed, appeal.resolved, evidence.threshold_reached.
            max_retries (int | Unset): Retries after a failed attempt (3 by default). Default: 3.
            retry_backoff_seconds (float | Unset): The first retry's wait; doubled for each further retry, with jitter.
                Default: 60.0.
     """

    url: str
    event_types: list[str]
    max_retries: int | Unset = 3
    retry_backoff_seconds: float | Unset = 60.0





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types = self.event_types



        max_retries = self.max_retries

        retry_backoff_seconds = self.retry_backoff_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
            "event_types": event_types,
        })
        if max_retries is not UNSET:
            field_dict["max_retries"] = max_retries
        if retry_backoff_seconds is not UNSET:
            field_dict["retry_backoff_seconds"] = retry_backoff_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        event_types = cast(list[str], d.pop("event_types"))


        max_retries = d.pop("max_retries", UNSET)

        retry_backoff_seconds = d.pop("retry_backoff_seconds", UNSET)

        webhook_create = cls(
            url=url,
            event_types=event_types,
            max_retries=max_retries,
            retry_backoff_seconds=retry_backoff_seconds,
        )

        return webhook_create

