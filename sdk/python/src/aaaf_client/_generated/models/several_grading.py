from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.grading_summary import GradingSummary





T = TypeVar("T", bound="SeveralGrading")



@_attrs_define
class SeveralGrading:
    """ What grading recorded in the control and in each treatment, in the order given.

        Attributes:
            control (GradingSummary): What grading recorded in a run: graded assertions, judge scores, failed judgements
                (``failure_reasons``: the first three, ``judge: reason``).
            treatments (list[GradingSummary]):
     """

    control: GradingSummary
    treatments: list[GradingSummary]





    def to_dict(self) -> dict[str, Any]:
        from ..models.grading_summary import GradingSummary # noqa: PLC0415
        control = self.control.to_dict()

        treatments = []
        for treatments_item_data in self.treatments:
            treatments_item = treatments_item_data.to_dict()
            treatments.append(treatments_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "control": control,
            "treatments": treatments,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.grading_summary import GradingSummary # noqa: PLC0415
        d = dict(src_dict)
        control = GradingSummary.from_dict(d.pop("control"))




        treatments = []
        _treatments = d.pop("treatments")
        for treatments_item_data in (_treatments):
            treatments_item = GradingSummary.from_dict(treatments_item_data)



            treatments.append(treatments_item)


        several_grading = cls(
            control=control,
            treatments=treatments,
        )

        return several_grading

