from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ModelGraded")



@_attrs_define
class ModelGraded:
    """ Who graded the model-graded sub-scores of the stress-tested orchestration results
    (``note`` says how many had no judge).

        Attributes:
            orchestration_results (int):
            judged (int):
            judges (list[str]):
            note (None | str):
     """

    orchestration_results: int
    judged: int
    judges: list[str]
    note: None | str





    def to_dict(self) -> dict[str, Any]:
        orchestration_results = self.orchestration_results

        judged = self.judged

        judges = self.judges



        note: None | str
        note = self.note


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "orchestration_results": orchestration_results,
            "judged": judged,
            "judges": judges,
            "note": note,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        orchestration_results = d.pop("orchestration_results")

        judged = d.pop("judged")

        judges = cast(list[str], d.pop("judges"))


        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))


        model_graded = cls(
            orchestration_results=orchestration_results,
            judged=judged,
            judges=judges,
            note=note,
        )

        return model_graded

