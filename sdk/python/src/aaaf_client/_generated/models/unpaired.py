from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Unpaired")



@_attrs_define
class Unpaired:
    """ 
        Attributes:
            control_only (list[str]):
            treatment_only (list[str]):
            unscored (list[Any]):
            errored (list[Any]):
     """

    control_only: list[str]
    treatment_only: list[str]
    unscored: list[Any]
    errored: list[Any]





    def to_dict(self) -> dict[str, Any]:
        control_only = self.control_only



        treatment_only = self.treatment_only



        unscored = self.unscored



        errored = self.errored




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "control_only": control_only,
            "treatment_only": treatment_only,
            "unscored": unscored,
            "errored": errored,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        control_only = cast(list[str], d.pop("control_only"))


        treatment_only = cast(list[str], d.pop("treatment_only"))


        unscored = cast(list[Any], d.pop("unscored"))


        errored = cast(list[Any], d.pop("errored"))


        unpaired = cls(
            control_only=control_only,
            treatment_only=treatment_only,
            unscored=unscored,
            errored=errored,
        )

        return unpaired

