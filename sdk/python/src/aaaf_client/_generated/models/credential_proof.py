from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CredentialProof")



@_attrs_define
class CredentialProof:
    """ The compact JWT the credential was signed as (VC-JWT).

        Attributes:
            type_ (str):
            jwt (str):
     """

    type_: str
    jwt: str





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        jwt = self.jwt


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "jwt": jwt,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = d.pop("type")

        jwt = d.pop("jwt")

        credential_proof = cls(
            type_=type_,
            jwt=jwt,
        )

        return credential_proof

