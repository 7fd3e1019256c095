from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="OAuthClient")



@_attrs_define
class OAuthClient:
    """ An OAuth 2.0 client's record: its public ``client_id`` and scopes, never the secret.

        Attributes:
            id (str):
            organization_id (str):
            client_id (str):
            name (None | str):
            scopes (list[str]):
            created_at (str):
            revoked_at (None | str):
     """

    id: str
    organization_id: str
    client_id: str
    name: None | str
    scopes: list[str]
    created_at: str
    revoked_at: None | str





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        organization_id = self.organization_id

        client_id = self.client_id

        name: None | str
        name = self.name

        scopes = self.scopes



        created_at = self.created_at

        revoked_at: None | str
        revoked_at = self.revoked_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "organization_id": organization_id,
            "client_id": client_id,
            "name": name,
            "scopes": scopes,
            "created_at": created_at,
            "revoked_at": revoked_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        organization_id = d.pop("organization_id")

        client_id = d.pop("client_id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        scopes = cast(list[str], d.pop("scopes"))


        created_at = d.pop("created_at")

        def _parse_revoked_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))


        o_auth_client = cls(
            id=id,
            organization_id=organization_id,
            client_id=client_id,
            name=name,
            scopes=scopes,
            created_at=created_at,
            revoked_at=revoked_at,
        )

        return o_auth_client

