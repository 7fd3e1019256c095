from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DimensionScore")



@_attrs_define
class DimensionScore:
    """ One dimension (docs/scoring.md §3): ``score`` (null without evidence), how many tasks
    and events it rests on, then the dimension's own terms (docs/scoring.md §1) and ``details``.

        Attributes:
            score (float | None):
            sample_size (int | None | Unset):
            evidence_count (int | None | Unset):
     """

    score: float | None
    sample_size: int | None | Unset = UNSET
    evidence_count: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        score: float | None
        score = self.score

        sample_size: int | None | Unset
        if isinstance(self.sample_size, Unset):
            sample_size = UNSET
        else:
            sample_size = self.sample_size

        evidence_count: int | None | Unset
        if isinstance(self.evidence_count, Unset):
            evidence_count = UNSET
        else:
            evidence_count = self.evidence_count


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "score": score,
        })
        if sample_size is not UNSET:
            field_dict["sample_size"] = sample_size
        if evidence_count is not UNSET:
            field_dict["evidence_count"] = evidence_count

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        def _parse_sample_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        sample_size = _parse_sample_size(d.pop("sample_size", UNSET))


        def _parse_evidence_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        evidence_count = _parse_evidence_count(d.pop("evidence_count", UNSET))


        dimension_score = cls(
            score=score,
            sample_size=sample_size,
            evidence_count=evidence_count,
        )


        dimension_score.additional_properties = d
        return dimension_score

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
