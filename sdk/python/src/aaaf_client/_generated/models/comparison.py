from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.comparison_badges import ComparisonBadges
  from ..models.comparison_calibration_type_0 import ComparisonCalibrationType0
  from ..models.comparison_grading import ComparisonGrading
  from ..models.comparison_hotelling_type_0 import ComparisonHotellingType0
  from ..models.comparison_judges import ComparisonJudges
  from ..models.comparison_layers import ComparisonLayers
  from ..models.comparison_method import ComparisonMethod
  from ..models.comparison_standardisation_type_0 import ComparisonStandardisationType0
  from ..models.composite_diff import CompositeDiff
  from ..models.run_ref import RunRef
  from ..models.unpaired import Unpaired





T = TypeVar("T", bound="Comparison")



@_attrs_define
class Comparison:
    """ One treatment against the control: verdict, action and every figure behind it
    (``grading``/``calibration``: how the runs' assertions and judges were graded here).

        Attributes:
            verdict (str):
            action (str):
            rule (str):
            reason (str):
            headline (str):
            control (RunRef):
            treatment (RunRef):
            n_paired (int):
            unpaired (Unpaired):
            incomplete (list[Any]):
            composite (CompositeDiff): The composite's means, difference and confidence interval (docs/scoring.md §6).
            layers (ComparisonLayers):
            judges (ComparisonJudges):
            badges (ComparisonBadges):
            hotelling (ComparisonHotellingType0 | None):
            standardisation (ComparisonStandardisationType0 | None):
            method (ComparisonMethod):
            grading (ComparisonGrading | None | Unset):
            calibration (ComparisonCalibrationType0 | None | Unset):
     """

    verdict: str
    action: str
    rule: str
    reason: str
    headline: str
    control: RunRef
    treatment: RunRef
    n_paired: int
    unpaired: Unpaired
    incomplete: list[Any]
    composite: CompositeDiff
    layers: ComparisonLayers
    judges: ComparisonJudges
    badges: ComparisonBadges
    hotelling: ComparisonHotellingType0 | None
    standardisation: ComparisonStandardisationType0 | None
    method: ComparisonMethod
    grading: ComparisonGrading | None | Unset = UNSET
    calibration: ComparisonCalibrationType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.comparison_badges import ComparisonBadges # noqa: PLC0415
        from ..models.comparison_calibration_type_0 import ComparisonCalibrationType0 # noqa: PLC0415
        from ..models.comparison_grading import ComparisonGrading # noqa: PLC0415
        from ..models.comparison_hotelling_type_0 import ComparisonHotellingType0 # noqa: PLC0415
        from ..models.comparison_judges import ComparisonJudges # noqa: PLC0415
        from ..models.comparison_layers import ComparisonLayers # noqa: PLC0415
        from ..models.comparison_method import ComparisonMethod # noqa: PLC0415
        from ..models.comparison_standardisation_type_0 import ComparisonStandardisationType0 # noqa: PLC0415
        from ..models.composite_diff import CompositeDiff # noqa: PLC0415
        from ..models.run_ref import RunRef # noqa: PLC0415
        from ..models.unpaired import Unpaired # noqa: PLC0415
        verdict = self.verdict

        action = self.action

        rule = self.rule

        reason = self.reason

        headline = self.headline

        control = self.control.to_dict()

        treatment = self.treatment.to_dict()

        n_paired = self.n_paired

        unpaired = self.unpaired.to_dict()

        incomplete = self.incomplete



        composite = self.composite.to_dict()

        layers = self.layers.to_dict()

        judges = self.judges.to_dict()

        badges = self.badges.to_dict()

        hotelling: dict[str, Any] | None
        if isinstance(self.hotelling, ComparisonHotellingType0):
            hotelling = self.hotelling.to_dict()
        else:
            hotelling = self.hotelling

        standardisation: dict[str, Any] | None
        if isinstance(self.standardisation, ComparisonStandardisationType0):
            standardisation = self.standardisation.to_dict()
        else:
            standardisation = self.standardisation

        method = self.method.to_dict()

        grading: dict[str, Any] | None | Unset
        if isinstance(self.grading, Unset):
            grading = UNSET
        elif isinstance(self.grading, ComparisonGrading):
            grading = self.grading.to_dict()
        else:
            grading = self.grading

        calibration: dict[str, Any] | None | Unset
        if isinstance(self.calibration, Unset):
            calibration = UNSET
        elif isinstance(self.calibration, ComparisonCalibrationType0):
            calibration = self.calibration.to_dict()
        else:
            calibration = self.calibration


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "verdict": verdict,
            "action": action,
            "rule": rule,
            "reason": reason,
            "headline": headline,
            "control": control,
            "treatment": treatment,
            "n_paired": n_paired,
            "unpaired": unpaired,
            "incomplete": incomplete,
            "composite": composite,
            "layers": layers,
            "judges": judges,
            "badges": badges,
            "hotelling": hotelling,
            "standardisation": standardisation,
            "method": method,
        })
        if grading is not UNSET:
            field_dict["grading"] = grading
        if calibration is not UNSET:
            field_dict["calibration"] = calibration

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.comparison_badges import ComparisonBadges # noqa: PLC0415
        from ..models.comparison_calibration_type_0 import ComparisonCalibrationType0 # noqa: PLC0415
        from ..models.comparison_grading import ComparisonGrading # noqa: PLC0415
        from ..models.comparison_hotelling_type_0 import ComparisonHotellingType0 # noqa: PLC0415
        from ..models.comparison_judges import ComparisonJudges # noqa: PLC0415
        from ..models.comparison_layers import ComparisonLayers # noqa: PLC0415
        from ..models.comparison_method import ComparisonMethod # noqa: PLC0415
        from ..models.comparison_standardisation_type_0 import ComparisonStandardisationType0 # noqa: PLC0415
        from ..models.composite_diff import CompositeDiff # noqa: PLC0415
        from ..models.run_ref import RunRef # noqa: PLC0415
        from ..models.unpaired import Unpaired # noqa: PLC0415
        d = dict(src_dict)
        verdict = d.pop("verdict")

        action = d.pop("action")

        rule = d.pop("rule")

        reason = d.pop("reason")

        headline = d.pop("headline")

        control = RunRef.from_dict(d.pop("control"))




        treatment = RunRef.from_dict(d.pop("treatment"))




        n_paired = d.pop("n_paired")

        unpaired = Unpaired.from_dict(d.pop("unpaired"))




        incomplete = cast(list[Any], d.pop("incomplete"))


        composite = CompositeDiff.from_dict(d.pop("composite"))




        layers = ComparisonLayers.from_dict(d.pop("layers"))




        judges = ComparisonJudges.from_dict(d.pop("judges"))




        badges = ComparisonBadges.from_dict(d.pop("badges"))




        def _parse_hotelling(data: object) -> ComparisonHotellingType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                hotelling_type_0 = ComparisonHotellingType0.from_dict(data)



                return hotelling_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ComparisonHotellingType0 | None, data)

        hotelling = _parse_hotelling(d.pop("hotelling"))


        def _parse_standardisation(data: object) -> ComparisonStandardisationType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                standardisation_type_0 = ComparisonStandardisationType0.from_dict(data)



                return standardisation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ComparisonStandardisationType0 | None, data)

        standardisation = _parse_standardisation(d.pop("standardisation"))


        method = ComparisonMethod.from_dict(d.pop("method"))




        def _parse_grading(data: object) -> ComparisonGrading | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                grading_type_0 = ComparisonGrading.from_dict(data)



                return grading_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ComparisonGrading | None | Unset, data)

        grading = _parse_grading(d.pop("grading", UNSET))


        def _parse_calibration(data: object) -> ComparisonCalibrationType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calibration_type_0 = ComparisonCalibrationType0.from_dict(data)



                return calibration_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ComparisonCalibrationType0 | None | Unset, data)

        calibration = _parse_calibration(d.pop("calibration", UNSET))


        comparison = cls(
            verdict=verdict,
            action=action,
            rule=rule,
            reason=reason,
            headline=headline,
            control=control,
            treatment=treatment,
            n_paired=n_paired,
            unpaired=unpaired,
            incomplete=incomplete,
            composite=composite,
            layers=layers,
            judges=judges,
            badges=badges,
            hotelling=hotelling,
            standardisation=standardisation,
            method=method,
            grading=grading,
            calibration=calibration,
        )

        return comparison

