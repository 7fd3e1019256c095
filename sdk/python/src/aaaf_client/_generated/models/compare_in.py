from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.compare_in_weights_type_0 import CompareInWeightsType0





T = TypeVar("T", bound="CompareIn")



@_attrs_define
class CompareIn:
    """ ``aaaf compare``'s inputs and options (docs/scoring.md §5; docs/scoring.md §5 v1.0 options).

        Attributes:
            control (str): The control run's id.
            treatments (list[str]): One or more treatment run ids.
            resamples (int | Unset):  Default: 10000.
            confidence (float | Unset):  Default: 0.95.
            seed (int | Unset):  Default: 0.
            ci_method (str | Unset): One of percentile, bca. Default: 'percentile'.
            weights (CompareInWeightsType0 | None | Unset): Explicit layer weights (sum 1).
            standardize (bool | Unset):  Default: False.
            hotelling (bool | Unset):  Default: False.
            allow_incomplete (bool | Unset):  Default: False.
     """

    control: str
    treatments: list[str]
    resamples: int | Unset = 10000
    confidence: float | Unset = 0.95
    seed: int | Unset = 0
    ci_method: str | Unset = 'percentile'
    weights: CompareInWeightsType0 | None | Unset = UNSET
    standardize: bool | Unset = False
    hotelling: bool | Unset = False
    allow_incomplete: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        from ..models.compare_in_weights_type_0 import CompareInWeightsType0 # noqa: PLC0415
        control = self.control

        treatments = self.treatments



        resamples = self.resamples

        confidence = self.confidence

        seed = self.seed

        ci_method = self.ci_method

        weights: dict[str, Any] | None | Unset
        if isinstance(self.weights, Unset):
            weights = UNSET
        elif isinstance(self.weights, CompareInWeightsType0):
            weights = self.weights.to_dict()
        else:
            weights = self.weights

        standardize = self.standardize

        hotelling = self.hotelling

        allow_incomplete = self.allow_incomplete


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "control": control,
            "treatments": treatments,
        })
        if resamples is not UNSET:
            field_dict["resamples"] = resamples
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if seed is not UNSET:
            field_dict["seed"] = seed
        if ci_method is not UNSET:
            field_dict["ci_method"] = ci_method
        if weights is not UNSET:
            field_dict["weights"] = weights
        if standardize is not UNSET:
            field_dict["standardize"] = standardize
        if hotelling is not UNSET:
            field_dict["hotelling"] = hotelling
        if allow_incomplete is not UNSET:
            field_dict["allow_incomplete"] = allow_incomplete

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compare_in_weights_type_0 import CompareInWeightsType0 # noqa: PLC0415
        d = dict(src_dict)
        control = d.pop("control")

        treatments = cast(list[str], d.pop("treatments"))


        resamples = d.pop("resamples", UNSET)

        confidence = d.pop("confidence", UNSET)

        seed = d.pop("seed", UNSET)

        ci_method = d.pop("ci_method", UNSET)

        def _parse_weights(data: object) -> CompareInWeightsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                weights_type_0 = CompareInWeightsType0.from_dict(data)



                return weights_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CompareInWeightsType0 | None | Unset, data)

        weights = _parse_weights(d.pop("weights", UNSET))


        standardize = d.pop("standardize", UNSET)

        hotelling = d.pop("hotelling", UNSET)

        allow_incomplete = d.pop("allow_incomplete", UNSET)

        compare_in = cls(
            control=control,
            treatments=treatments,
            resamples=resamples,
            confidence=confidence,
            seed=seed,
            ci_method=ci_method,
            weights=weights,
            standardize=standardize,
            hotelling=hotelling,
            allow_incomplete=allow_incomplete,
        )

        return compare_in

