from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="RunRef")



@_attrs_define
class RunRef:
    """ 
        Attributes:
            run_id (str):
            variant (None | str):
            n_samples (int):
     """

    run_id: str
    variant: None | str
    n_samples: int





    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        variant: None | str
        variant = self.variant

        n_samples = self.n_samples


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "run_id": run_id,
            "variant": variant,
            "n_samples": n_samples,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        run_id = d.pop("run_id")

        def _parse_variant(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        variant = _parse_variant(d.pop("variant"))


        n_samples = d.pop("n_samples")

        run_ref = cls(
            run_id=run_id,
            variant=variant,
            n_samples=n_samples,
        )

        return run_ref

