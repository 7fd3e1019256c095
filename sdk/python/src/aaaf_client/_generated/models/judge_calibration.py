from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="JudgeCalibration")



@_attrs_define
class JudgeCalibration:
    """ A judge's Spearman ρ against the human labels and whether it may be used.

        Attributes:
            spearman (float | None):
            n (int):
            dropped (int):
            accepted (bool):
            dimension (None | str):
            reason (str):
     """

    spearman: float | None
    n: int
    dropped: int
    accepted: bool
    dimension: None | str
    reason: str





    def to_dict(self) -> dict[str, Any]:
        spearman: float | None
        spearman = self.spearman

        n = self.n

        dropped = self.dropped

        accepted = self.accepted

        dimension: None | str
        dimension = self.dimension

        reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "spearman": spearman,
            "n": n,
            "dropped": dropped,
            "accepted": accepted,
            "dimension": dimension,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_spearman(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        spearman = _parse_spearman(d.pop("spearman"))


        n = d.pop("n")

        dropped = d.pop("dropped")

        accepted = d.pop("accepted")

        def _parse_dimension(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dimension = _parse_dimension(d.pop("dimension"))


        reason = d.pop("reason")

        judge_calibration = cls(
            spearman=spearman,
            n=n,
            dropped=dropped,
            accepted=accepted,
            dimension=dimension,
            reason=reason,
        )

        return judge_calibration

