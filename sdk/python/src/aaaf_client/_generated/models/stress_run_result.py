from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.stress_run_result_details import StressRunResultDetails





T = TypeVar("T", bound="StressRunResult")



@_attrs_define
class StressRunResult:
    """ One executed task of a run, in execution order.

        Attributes:
            task_key (None | str):
            outcome (str):
            score (float | None):
            details (StressRunResultDetails):
            assessment_id (None | str):
     """

    task_key: None | str
    outcome: str
    score: float | None
    details: StressRunResultDetails
    assessment_id: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.stress_run_result_details import StressRunResultDetails # noqa: PLC0415
        task_key: None | str
        task_key = self.task_key

        outcome = self.outcome

        score: float | None
        score = self.score

        details = self.details.to_dict()

        assessment_id: None | str
        assessment_id = self.assessment_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "task_key": task_key,
            "outcome": outcome,
            "score": score,
            "details": details,
            "assessment_id": assessment_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stress_run_result_details import StressRunResultDetails # noqa: PLC0415
        d = dict(src_dict)
        def _parse_task_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_key = _parse_task_key(d.pop("task_key"))


        outcome = d.pop("outcome")

        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        details = StressRunResultDetails.from_dict(d.pop("details"))




        def _parse_assessment_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assessment_id = _parse_assessment_id(d.pop("assessment_id"))


        stress_run_result = cls(
            task_key=task_key,
            outcome=outcome,
            score=score,
            details=details,
            assessment_id=assessment_id,
        )

        return stress_run_result

