from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Badge")



@_attrs_define
class Badge:
    """ 
        Attributes:
            label (str):
            value (bool | None):
            detail (str):
     """

    label: str
    value: bool | None
    detail: str





    def to_dict(self) -> dict[str, Any]:
        label = self.label

        value: bool | None
        value = self.value

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "label": label,
            "value": value,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        label = d.pop("label")

        def _parse_value(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        value = _parse_value(d.pop("value"))


        detail = d.pop("detail")

        badge = cls(
            label=label,
            value=value,
            detail=detail,
        )

        return badge

