from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.run_ref import RunRef
  from ..models.several_comparison_calibration_type_0 import SeveralComparisonCalibrationType0
  from ..models.several_grading import SeveralGrading
  from ..models.treatment_comparison import TreatmentComparison





T = TypeVar("T", bound="SeveralComparison")



@_attrs_define
class SeveralComparison:
    """ Several treatments against one control; ``verdict`` is the worst of theirs.

        Attributes:
            control (RunRef):
            comparisons (list[TreatmentComparison]):
            verdict (str):
            action (str):
            headline (str):
            treatments (int):
            family_confidence (float):
            grading (None | SeveralGrading | Unset):
            calibration (None | SeveralComparisonCalibrationType0 | Unset):
     """

    control: RunRef
    comparisons: list[TreatmentComparison]
    verdict: str
    action: str
    headline: str
    treatments: int
    family_confidence: float
    grading: None | SeveralGrading | Unset = UNSET
    calibration: None | SeveralComparisonCalibrationType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_ref import RunRef # noqa: PLC0415
        from ..models.several_comparison_calibration_type_0 import SeveralComparisonCalibrationType0 # noqa: PLC0415
        from ..models.several_grading import SeveralGrading # noqa: PLC0415
        from ..models.treatment_comparison import TreatmentComparison # noqa: PLC0415
        control = self.control.to_dict()

        comparisons = []
        for comparisons_item_data in self.comparisons:
            comparisons_item = comparisons_item_data.to_dict()
            comparisons.append(comparisons_item)



        verdict = self.verdict

        action = self.action

        headline = self.headline

        treatments = self.treatments

        family_confidence = self.family_confidence

        grading: dict[str, Any] | None | Unset
        if isinstance(self.grading, Unset):
            grading = UNSET
        elif isinstance(self.grading, SeveralGrading):
            grading = self.grading.to_dict()
        else:
            grading = self.grading

        calibration: dict[str, Any] | None | Unset
        if isinstance(self.calibration, Unset):
            calibration = UNSET
        elif isinstance(self.calibration, SeveralComparisonCalibrationType0):
            calibration = self.calibration.to_dict()
        else:
            calibration = self.calibration


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "control": control,
            "comparisons": comparisons,
            "verdict": verdict,
            "action": action,
            "headline": headline,
            "treatments": treatments,
            "family_confidence": family_confidence,
        })
        if grading is not UNSET:
            field_dict["grading"] = grading
        if calibration is not UNSET:
            field_dict["calibration"] = calibration

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_ref import RunRef # noqa: PLC0415
        from ..models.several_comparison_calibration_type_0 import SeveralComparisonCalibrationType0 # noqa: PLC0415
        from ..models.several_grading import SeveralGrading # noqa: PLC0415
        from ..models.treatment_comparison import TreatmentComparison # noqa: PLC0415
        d = dict(src_dict)
        control = RunRef.from_dict(d.pop("control"))




        comparisons = []
        _comparisons = d.pop("comparisons")
        for comparisons_item_data in (_comparisons):
            comparisons_item = TreatmentComparison.from_dict(comparisons_item_data)



            comparisons.append(comparisons_item)


        verdict = d.pop("verdict")

        action = d.pop("action")

        headline = d.pop("headline")

        treatments = d.pop("treatments")

        family_confidence = d.pop("family_confidence")

        def _parse_grading(data: object) -> None | SeveralGrading | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                grading_type_0 = SeveralGrading.from_dict(data)



                return grading_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeveralGrading | Unset, data)

        grading = _parse_grading(d.pop("grading", UNSET))


        def _parse_calibration(data: object) -> None | SeveralComparisonCalibrationType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calibration_type_0 = SeveralComparisonCalibrationType0.from_dict(data)



                return calibration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeveralComparisonCalibrationType0 | Unset, data)

        calibration = _parse_calibration(d.pop("calibration", UNSET))


        several_comparison = cls(
            control=control,
            comparisons=comparisons,
            verdict=verdict,
            action=action,
            headline=headline,
            treatments=treatments,
            family_confidence=family_confidence,
            grading=grading,
            calibration=calibration,
        )

        return several_comparison

