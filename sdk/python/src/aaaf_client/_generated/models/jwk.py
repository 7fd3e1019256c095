from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Jwk")



@_attrs_define
class Jwk:
    """ One Ed25519 public key of the issuer (RFC 8037).

        Attributes:
            kty (str):
            crv (str):
            x (str):
            kid (str):
            alg (str):
            use (str):
     """

    kty: str
    crv: str
    x: str
    kid: str
    alg: str
    use: str





    def to_dict(self) -> dict[str, Any]:
        kty = self.kty

        crv = self.crv

        x = self.x

        kid = self.kid

        alg = self.alg

        use = self.use


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kty": kty,
            "crv": crv,
            "x": x,
            "kid": kid,
            "alg": alg,
            "use": use,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kty = d.pop("kty")

        crv = d.pop("crv")

        x = d.pop("x")

        kid = d.pop("kid")

        alg = d.pop("alg")

        use = d.pop("use")

        jwk = cls(
            kty=kty,
            crv=crv,
            x=x,
            kid=kid,
            alg=alg,
            use=use,
        )

        return jwk

