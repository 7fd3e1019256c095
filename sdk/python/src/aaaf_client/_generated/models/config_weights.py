from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.config_weights_capability_weights import ConfigWeightsCapabilityWeights
  from ..models.config_weights_performance_weights import ConfigWeightsPerformanceWeights





T = TypeVar("T", bound="ConfigWeights")



@_attrs_define
class ConfigWeights:
    """ Both axes' dimension weights (each sums to 1.0 ± 0.001; docs/scoring.md §1).

        Attributes:
            performance_weights (ConfigWeightsPerformanceWeights):
            capability_weights (ConfigWeightsCapabilityWeights):
     """

    performance_weights: ConfigWeightsPerformanceWeights
    capability_weights: ConfigWeightsCapabilityWeights





    def to_dict(self) -> dict[str, Any]:
        from ..models.config_weights_capability_weights import ConfigWeightsCapabilityWeights # noqa: PLC0415
        from ..models.config_weights_performance_weights import ConfigWeightsPerformanceWeights # noqa: PLC0415
        performance_weights = self.performance_weights.to_dict()

        capability_weights = self.capability_weights.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "performance_weights": performance_weights,
            "capability_weights": capability_weights,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.config_weights_capability_weights import ConfigWeightsCapabilityWeights # noqa: PLC0415
        from ..models.config_weights_performance_weights import ConfigWeightsPerformanceWeights # noqa: PLC0415
        d = dict(src_dict)
        performance_weights = ConfigWeightsPerformanceWeights.from_dict(d.pop("performance_weights"))




        capability_weights = ConfigWeightsCapabilityWeights.from_dict(d.pop("capability_weights"))




        config_weights = cls(
            performance_weights=performance_weights,
            capability_weights=capability_weights,
        )

        return config_weights

