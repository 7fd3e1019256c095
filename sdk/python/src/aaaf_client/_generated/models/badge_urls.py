from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="BadgeUrls")



@_attrs_define
class BadgeUrls:
    """ 
        Attributes:
            svg (str):
            png (str):
            json (str):
     """

    svg: str
    png: str
    json: str





    def to_dict(self) -> dict[str, Any]:
        svg = self.svg

        png = self.png

        json = self.json


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "svg": svg,
            "png": png,
            "json": json,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        svg = d.pop("svg")

        png = d.pop("png")

        json = d.pop("json")

        badge_urls = cls(
            svg=svg,
            png=png,
            json=json,
        )

        return badge_urls

