from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Organization")



@_attrs_define
class Organization:
    """ A tenant; its API key hash is never shown.

        Attributes:
            id (str):
            name (str):
            domain_taxonomy (list[str]):
            status (str):
            created_at (str):
            updated_at (str):
     """

    id: str
    name: str
    domain_taxonomy: list[str]
    status: str
    created_at: str
    updated_at: str





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        domain_taxonomy = self.domain_taxonomy



        status = self.status

        created_at = self.created_at

        updated_at = self.updated_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "name": name,
            "domain_taxonomy": domain_taxonomy,
            "status": status,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        domain_taxonomy = cast(list[str], d.pop("domain_taxonomy"))


        status = d.pop("status")

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        organization = cls(
            id=id,
            name=name,
            domain_taxonomy=domain_taxonomy,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
        )

        return organization

