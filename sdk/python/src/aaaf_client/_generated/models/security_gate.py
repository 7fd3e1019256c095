from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SecurityGate")



@_attrs_define
class SecurityGate:
    """ 
        Attributes:
            threshold (float):
            cap (float):
            max_tier (str):
            security (float | None):
     """

    threshold: float
    cap: float
    max_tier: str
    security: float | None





    def to_dict(self) -> dict[str, Any]:
        threshold = self.threshold

        cap = self.cap

        max_tier = self.max_tier

        security: float | None
        security = self.security


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "threshold": threshold,
            "cap": cap,
            "max_tier": max_tier,
            "security": security,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        threshold = d.pop("threshold")

        cap = d.pop("cap")

        max_tier = d.pop("max_tier")

        def _parse_security(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        security = _parse_security(d.pop("security"))


        security_gate = cls(
            threshold=threshold,
            cap=cap,
            max_tier=max_tier,
            security=security,
        )

        return security_gate

