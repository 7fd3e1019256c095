from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CreatedApiKey")



@_attrs_define
class CreatedApiKey:
    """ A new key: ``api_key`` is the key itself, shown this once.

        Attributes:
            id (str):
            organization_id (str):
            name (None | str):
            prefix (str):
            scopes (list[str]):
            created_at (str):
            revoked_at (None | str):
            last_used_at (None | str):
            api_key (str):
     """

    id: str
    organization_id: str
    name: None | str
    prefix: str
    scopes: list[str]
    created_at: str
    revoked_at: None | str
    last_used_at: None | str
    api_key: str





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        organization_id = self.organization_id

        name: None | str
        name = self.name

        prefix = self.prefix

        scopes = self.scopes



        created_at = self.created_at

        revoked_at: None | str
        revoked_at = self.revoked_at

        last_used_at: None | str
        last_used_at = self.last_used_at

        api_key = self.api_key


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "organization_id": organization_id,
            "name": name,
            "prefix": prefix,
            "scopes": scopes,
            "created_at": created_at,
            "revoked_at": revoked_at,
            "last_used_at": last_used_at,
            "api_key": api_key,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        organization_id = d.pop("organization_id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        prefix = d.pop("prefix")

        scopes = cast(list[str], d.pop("scopes"))


        created_at = d.pop("created_at")

        def _parse_revoked_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))


        def _parse_last_used_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at"))


        api_key = d.pop("api_key")

        created_api_key = cls(
            id=id,
            organization_id=organization_id,
            name=name,
            prefix=prefix,
            scopes=scopes,
            created_at=created_at,
            revoked_at=revoked_at,
            last_used_at=last_used_at,
            api_key=api_key,
        )

        return created_api_key

