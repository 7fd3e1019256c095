from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.stress_run import StressRun





T = TypeVar("T", bound="StressRunQueued")



@_attrs_define
class StressRunQueued:
    """ The answer to starting a stress test: the queued run and the assessment it is for.

        Attributes:
            stress_run (StressRun): One run: what was requested, the library and version, its dates, attempts and summary
                (``summary.error`` says why a ``failed`` run failed), and the assessment that merged it.
            assessment_id (str):
     """

    stress_run: StressRun
    assessment_id: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.stress_run import StressRun # noqa: PLC0415
        stress_run = self.stress_run.to_dict()

        assessment_id = self.assessment_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "stress_run": stress_run,
            "assessment_id": assessment_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stress_run import StressRun # noqa: PLC0415
        d = dict(src_dict)
        stress_run = StressRun.from_dict(d.pop("stress_run"))




        assessment_id = d.pop("assessment_id")

        stress_run_queued = cls(
            stress_run=stress_run,
            assessment_id=assessment_id,
        )

        return stress_run_queued

