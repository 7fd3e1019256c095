from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.jwk import Jwk





T = TypeVar("T", bound="Jwks")



@_attrs_define
class Jwks:
    """ The issuer's public keys (a JWK Set, RFC 7517), to verify badges offline.

        Attributes:
            keys (list[Jwk]):
     """

    keys: list[Jwk]





    def to_dict(self) -> dict[str, Any]:
        from ..models.jwk import Jwk # noqa: PLC0415
        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "keys": keys,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.jwk import Jwk # noqa: PLC0415
        d = dict(src_dict)
        keys = []
        _keys = d.pop("keys")
        for keys_item_data in (_keys):
            keys_item = Jwk.from_dict(keys_item_data)



            keys.append(keys_item)


        jwks = cls(
            keys=keys,
        )

        return jwks

