from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.visibility_change_visibility import check_visibility_change_visibility
from ..models.visibility_change_visibility import VisibilityChangeVisibility
from typing import cast






T = TypeVar("T", bound="VisibilityChange")



@_attrs_define
class VisibilityChange:
    """ 
        Attributes:
            visibility (VisibilityChangeVisibility):
     """

    visibility: VisibilityChangeVisibility





    def to_dict(self) -> dict[str, Any]:
        visibility: str = self.visibility


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "visibility": visibility,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        visibility = check_visibility_change_visibility(d.pop("visibility"))




        visibility_change = cls(
            visibility=visibility,
        )

        return visibility_change

