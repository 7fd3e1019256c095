from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.grading_summary import GradingSummary





T = TypeVar("T", bound="ComparisonGrading")



@_attrs_define
class ComparisonGrading:
    """ What grading recorded in the control and in the treatment.

        Attributes:
            control (GradingSummary): What grading recorded in a run: graded assertions, judge scores, failed judgements
                (``failure_reasons``: the first three, ``judge: reason``).
            treatment (GradingSummary): What grading recorded in a run: graded assertions, judge scores, failed judgements
                (``failure_reasons``: the first three, ``judge: reason``).
     """

    control: GradingSummary
    treatment: GradingSummary





    def to_dict(self) -> dict[str, Any]:
        from ..models.grading_summary import GradingSummary # noqa: PLC0415
        control = self.control.to_dict()

        treatment = self.treatment.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "control": control,
            "treatment": treatment,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.grading_summary import GradingSummary # noqa: PLC0415
        d = dict(src_dict)
        control = GradingSummary.from_dict(d.pop("control"))




        treatment = GradingSummary.from_dict(d.pop("treatment"))




        comparison_grading = cls(
            control=control,
            treatment=treatment,
        )

        return comparison_grading

