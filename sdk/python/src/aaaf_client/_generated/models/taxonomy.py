from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Taxonomy")



@_attrs_define
class Taxonomy:
    """ The domains the organization's agents may claim (docs/scoring.md §3.5 domain_breadth).

        Attributes:
            domain_taxonomy (list[str]):
     """

    domain_taxonomy: list[str]





    def to_dict(self) -> dict[str, Any]:
        domain_taxonomy = self.domain_taxonomy




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "domain_taxonomy": domain_taxonomy,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        domain_taxonomy = cast(list[str], d.pop("domain_taxonomy"))


        taxonomy = cls(
            domain_taxonomy=domain_taxonomy,
        )

        return taxonomy

