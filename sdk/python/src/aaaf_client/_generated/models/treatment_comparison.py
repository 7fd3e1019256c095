from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.composite_diff import CompositeDiff
  from ..models.run_ref import RunRef
  from ..models.treatment_comparison_badges import TreatmentComparisonBadges
  from ..models.treatment_comparison_hotelling_type_0 import TreatmentComparisonHotellingType0
  from ..models.treatment_comparison_judges import TreatmentComparisonJudges
  from ..models.treatment_comparison_layers import TreatmentComparisonLayers
  from ..models.treatment_comparison_method import TreatmentComparisonMethod
  from ..models.treatment_comparison_standardisation_type_0 import TreatmentComparisonStandardisationType0
  from ..models.unpaired import Unpaired





T = TypeVar("T", bound="TreatmentComparison")



@_attrs_define
class TreatmentComparison:
    """ One of several treatments against the control: ``treatment`` names it
    (``run_id/variant``), ``treatment_run`` describes it.

        Attributes:
            treatment (str):
            verdict (str):
            action (str):
            rule (str):
            reason (str):
            headline (str):
            control (RunRef):
            n_paired (int):
            unpaired (Unpaired):
            incomplete (list[Any]):
            composite (CompositeDiff): The composite's means, difference and confidence interval (docs/scoring.md §6).
            layers (TreatmentComparisonLayers):
            judges (TreatmentComparisonJudges):
            badges (TreatmentComparisonBadges):
            hotelling (None | TreatmentComparisonHotellingType0):
            standardisation (None | TreatmentComparisonStandardisationType0):
            method (TreatmentComparisonMethod):
            treatment_run (RunRef):
     """

    treatment: str
    verdict: str
    action: str
    rule: str
    reason: str
    headline: str
    control: RunRef
    n_paired: int
    unpaired: Unpaired
    incomplete: list[Any]
    composite: CompositeDiff
    layers: TreatmentComparisonLayers
    judges: TreatmentComparisonJudges
    badges: TreatmentComparisonBadges
    hotelling: None | TreatmentComparisonHotellingType0
    standardisation: None | TreatmentComparisonStandardisationType0
    method: TreatmentComparisonMethod
    treatment_run: RunRef





    def to_dict(self) -> dict[str, Any]:
        from ..models.composite_diff import CompositeDiff # noqa: PLC0415
        from ..models.run_ref import RunRef # noqa: PLC0415
        from ..models.treatment_comparison_badges import TreatmentComparisonBadges # noqa: PLC0415
        from ..models.treatment_comparison_hotelling_type_0 import TreatmentComparisonHotellingType0 # noqa: PLC0415
        from ..models.treatment_comparison_judges import TreatmentComparisonJudges # noqa: PLC0415
        from ..models.treatment_comparison_layers import TreatmentComparisonLayers # noqa: PLC0415
        from ..models.treatment_comparison_method import TreatmentComparisonMethod # noqa: PLC0415
        from ..models.treatment_comparison_standardisation_type_0 import TreatmentComparisonStandardisationType0 # noqa: PLC0415
        from ..models.unpaired import Unpaired # noqa: PLC0415
        treatment = self.treatment

        verdict = self.verdict

        action = self.action

        rule = self.rule

        reason = self.reason

        headline = self.headline

        control = self.control.to_dict()

        n_paired = self.n_paired

        unpaired = self.unpaired.to_dict()

        incomplete = self.incomplete



        composite = self.composite.to_dict()

        layers = self.layers.to_dict()

        judges = self.judges.to_dict()

        badges = self.badges.to_dict()

        hotelling: dict[str, Any] | None
        if isinstance(self.hotelling, TreatmentComparisonHotellingType0):
            hotelling = self.hotelling.to_dict()
        else:
            hotelling = self.hotelling

        standardisation: dict[str, Any] | None
        if isinstance(self.standardisation, TreatmentComparisonStandardisationType0):
            standardisation = self.standardisation.to_dict()
        else:
            standardisation = self.standardisation

        method = self.method.to_dict()

        treatment_run = self.treatment_run.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "treatment": treatment,
            "verdict": verdict,
            "action": action,
            "rule": rule,
            "reason": reason,
            "headline": headline,
            "control": control,
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
            "treatment_run": treatment_run,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.composite_diff import CompositeDiff # noqa: PLC0415
        from ..models.run_ref import RunRef # noqa: PLC0415
        from ..models.treatment_comparison_badges import TreatmentComparisonBadges # noqa: PLC0415
        from ..models.treatment_comparison_hotelling_type_0 import TreatmentComparisonHotellingType0 # noqa: PLC0415
        from ..models.treatment_comparison_judges import TreatmentComparisonJudges # noqa: PLC0415
        from ..models.treatment_comparison_layers import TreatmentComparisonLayers # noqa: PLC0415
        from ..models.treatment_comparison_method import TreatmentComparisonMethod # noqa: PLC0415
        from ..models.treatment_comparison_standardisation_type_0 import TreatmentComparisonStandardisationType0 # noqa: PLC0415
        from ..models.unpaired import Unpaired # noqa: PLC0415
        d = dict(src_dict)
        treatment = d.pop("treatment")

        verdict = d.pop("verdict")

        action = d.pop("action")

        rule = d.pop("rule")

        reason = d.pop("reason")

        headline = d.pop("headline")

        control = RunRef.from_dict(d.pop("control"))




        n_paired = d.pop("n_paired")

        unpaired = Unpaired.from_dict(d.pop("unpaired"))




        incomplete = cast(list[Any], d.pop("incomplete"))


        composite = CompositeDiff.from_dict(d.pop("composite"))




        layers = TreatmentComparisonLayers.from_dict(d.pop("layers"))




        judges = TreatmentComparisonJudges.from_dict(d.pop("judges"))




        badges = TreatmentComparisonBadges.from_dict(d.pop("badges"))




        def _parse_hotelling(data: object) -> None | TreatmentComparisonHotellingType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                hotelling_type_0 = TreatmentComparisonHotellingType0.from_dict(data)



                return hotelling_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TreatmentComparisonHotellingType0, data)

        hotelling = _parse_hotelling(d.pop("hotelling"))


        def _parse_standardisation(data: object) -> None | TreatmentComparisonStandardisationType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                standardisation_type_0 = TreatmentComparisonStandardisationType0.from_dict(data)



                return standardisation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TreatmentComparisonStandardisationType0, data)

        standardisation = _parse_standardisation(d.pop("standardisation"))


        method = TreatmentComparisonMethod.from_dict(d.pop("method"))




        treatment_run = RunRef.from_dict(d.pop("treatment_run"))




        treatment_comparison = cls(
            treatment=treatment,
            verdict=verdict,
            action=action,
            rule=rule,
            reason=reason,
            headline=headline,
            control=control,
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
            treatment_run=treatment_run,
        )

        return treatment_comparison

