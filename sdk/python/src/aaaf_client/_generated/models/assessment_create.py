from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assessment_create_type import AssessmentCreateType
from ..models.assessment_create_type import check_assessment_create_type
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AssessmentCreate")



@_attrs_define
class AssessmentCreate:
    """ docs/api.md ``POST /api/v1/assessments``.

        Attributes:
            agent_id (str):
            type_ (AssessmentCreateType | Unset):  Default: 'passive_only'.
            dimension (None | str | Unset):
            include_stress_test (bool | Unset):  Default: False.
            window_start (None | str | Unset):
            window_end (None | str | Unset):
     """

    agent_id: str
    type_: AssessmentCreateType | Unset = 'passive_only'
    dimension: None | str | Unset = UNSET
    include_stress_test: bool | Unset = False
    window_start: None | str | Unset = UNSET
    window_end: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_


        dimension: None | str | Unset
        if isinstance(self.dimension, Unset):
            dimension = UNSET
        else:
            dimension = self.dimension

        include_stress_test = self.include_stress_test

        window_start: None | str | Unset
        if isinstance(self.window_start, Unset):
            window_start = UNSET
        else:
            window_start = self.window_start

        window_end: None | str | Unset
        if isinstance(self.window_end, Unset):
            window_end = UNSET
        else:
            window_end = self.window_end


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
        })
        if type_ is not UNSET:
            field_dict["type"] = type_
        if dimension is not UNSET:
            field_dict["dimension"] = dimension
        if include_stress_test is not UNSET:
            field_dict["include_stress_test"] = include_stress_test
        if window_start is not UNSET:
            field_dict["window_start"] = window_start
        if window_end is not UNSET:
            field_dict["window_end"] = window_end

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        _type_ = d.pop("type", UNSET)
        type_: AssessmentCreateType | Unset
        if isinstance(_type_,  Unset):
            type_ = UNSET
        else:
            type_ = check_assessment_create_type(_type_)




        def _parse_dimension(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dimension = _parse_dimension(d.pop("dimension", UNSET))


        include_stress_test = d.pop("include_stress_test", UNSET)

        def _parse_window_start(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        window_start = _parse_window_start(d.pop("window_start", UNSET))


        def _parse_window_end(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        window_end = _parse_window_end(d.pop("window_end", UNSET))


        assessment_create = cls(
            agent_id=agent_id,
            type_=type_,
            dimension=dimension,
            include_stress_test=include_stress_test,
            window_start=window_start,
            window_end=window_end,
        )

        return assessment_create

