from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.uncertainty_tier_probabilities import UncertaintyTierProbabilities





T = TypeVar("T", bound="Uncertainty")



@_attrs_define
class Uncertainty:
    """ docs/uncertainty.md's statement of how sure an axis's composite is: the 95 % interval over
    the bootstrap's sufficient resamples, each tier's share of the resamples, how many there
    were and how many were insufficient.

        Attributes:
            ci (list[float] | None):
            tier_probabilities (UncertaintyTierProbabilities):
            resamples (int):
            insufficient (int):
     """

    ci: list[float] | None
    tier_probabilities: UncertaintyTierProbabilities
    resamples: int
    insufficient: int





    def to_dict(self) -> dict[str, Any]:
        from ..models.uncertainty_tier_probabilities import UncertaintyTierProbabilities # noqa: PLC0415
        ci: list[float] | None
        if isinstance(self.ci, list):
            ci = self.ci


        else:
            ci = self.ci

        tier_probabilities = self.tier_probabilities.to_dict()

        resamples = self.resamples

        insufficient = self.insufficient


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ci": ci,
            "tier_probabilities": tier_probabilities,
            "resamples": resamples,
            "insufficient": insufficient,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.uncertainty_tier_probabilities import UncertaintyTierProbabilities # noqa: PLC0415
        d = dict(src_dict)
        def _parse_ci(data: object) -> list[float] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ci_type_0 = cast(list[float], data)

                return ci_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None, data)

        ci = _parse_ci(d.pop("ci"))


        tier_probabilities = UncertaintyTierProbabilities.from_dict(d.pop("tier_probabilities"))




        resamples = d.pop("resamples")

        insufficient = d.pop("insufficient")

        uncertainty = cls(
            ci=ci,
            tier_probabilities=tier_probabilities,
            resamples=resamples,
            insufficient=insufficient,
        )

        return uncertainty

