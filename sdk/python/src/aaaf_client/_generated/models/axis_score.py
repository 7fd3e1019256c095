from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.axis_score_dimensions import AxisScoreDimensions
  from ..models.uncertainty import Uncertainty





T = TypeVar("T", bound="AxisScore")



@_attrs_define
class AxisScore:
    """ One axis (Performance or Capability): the composite, its tier and the dimensions.
    Open: further per-axis figures (e.g. an uncertainty) follow the named fields.

        Attributes:
            composite_score (float | None):
            tier (None | str):
            covered (int | None):
            total (int | None):
            dimensions (AxisScoreDimensions):
            uncertainty (None | Uncertainty | Unset):
     """

    composite_score: float | None
    tier: None | str
    covered: int | None
    total: int | None
    dimensions: AxisScoreDimensions
    uncertainty: None | Uncertainty | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.axis_score_dimensions import AxisScoreDimensions # noqa: PLC0415
        from ..models.uncertainty import Uncertainty # noqa: PLC0415
        composite_score: float | None
        composite_score = self.composite_score

        tier: None | str
        tier = self.tier

        covered: int | None
        covered = self.covered

        total: int | None
        total = self.total

        dimensions = self.dimensions.to_dict()

        uncertainty: dict[str, Any] | None | Unset
        if isinstance(self.uncertainty, Unset):
            uncertainty = UNSET
        elif isinstance(self.uncertainty, Uncertainty):
            uncertainty = self.uncertainty.to_dict()
        else:
            uncertainty = self.uncertainty


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "composite_score": composite_score,
            "tier": tier,
            "covered": covered,
            "total": total,
            "dimensions": dimensions,
        })
        if uncertainty is not UNSET:
            field_dict["uncertainty"] = uncertainty

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.axis_score_dimensions import AxisScoreDimensions # noqa: PLC0415
        from ..models.uncertainty import Uncertainty # noqa: PLC0415
        d = dict(src_dict)
        def _parse_composite_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        composite_score = _parse_composite_score(d.pop("composite_score"))


        def _parse_tier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tier = _parse_tier(d.pop("tier"))


        def _parse_covered(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        covered = _parse_covered(d.pop("covered"))


        def _parse_total(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        total = _parse_total(d.pop("total"))


        dimensions = AxisScoreDimensions.from_dict(d.pop("dimensions"))




        def _parse_uncertainty(data: object) -> None | Uncertainty | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                uncertainty_type_0 = Uncertainty.from_dict(data)



                return uncertainty_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Uncertainty | Unset, data)

        uncertainty = _parse_uncertainty(d.pop("uncertainty", UNSET))


        axis_score = cls(
            composite_score=composite_score,
            tier=tier,
            covered=covered,
            total=total,
            dimensions=dimensions,
            uncertainty=uncertainty,
        )


        axis_score.additional_properties = d
        return axis_score

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
