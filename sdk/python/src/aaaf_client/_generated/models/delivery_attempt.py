from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DeliveryAttempt")



@_attrs_define
class DeliveryAttempt:
    """ 
        Attributes:
            attempt (int):
            at (str):
            status_code (int | None):
            duration_ms (float | None): None for an attempt whose outcome was never recorded.
            error (None | str):
            interrupted (bool | Unset): The sender stopped (a crash) after the attempt began and before its outcome was
                recorded; `at` is when it was claimed. The endpoint may have received it. Default: False.
            in_progress (bool | Unset): The attempt began and is still within its sender's lease: its outcome is not known
                yet (it becomes `interrupted` only if the lease runs out unrecorded). Default: False.
     """

    attempt: int
    at: str
    status_code: int | None
    duration_ms: float | None
    error: None | str
    interrupted: bool | Unset = False
    in_progress: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        at = self.at

        status_code: int | None
        status_code = self.status_code

        duration_ms: float | None
        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        interrupted = self.interrupted

        in_progress = self.in_progress


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt": attempt,
            "at": at,
            "status_code": status_code,
            "duration_ms": duration_ms,
            "error": error,
        })
        if interrupted is not UNSET:
            field_dict["interrupted"] = interrupted
        if in_progress is not UNSET:
            field_dict["in_progress"] = in_progress

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        at = d.pop("at")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))


        def _parse_duration_ms(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        duration_ms = _parse_duration_ms(d.pop("duration_ms"))


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        interrupted = d.pop("interrupted", UNSET)

        in_progress = d.pop("in_progress", UNSET)

        delivery_attempt = cls(
            attempt=attempt,
            at=at,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            interrupted=interrupted,
            in_progress=in_progress,
        )


        delivery_attempt.additional_properties = d
        return delivery_attempt

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
