from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.weights_update_capability_weights_type_0 import WeightsUpdateCapabilityWeightsType0
  from ..models.weights_update_performance_weights_type_0 import WeightsUpdatePerformanceWeightsType0





T = TypeVar("T", bound="WeightsUpdate")



@_attrs_define
class WeightsUpdate:
    """ 
        Attributes:
            performance_weights (None | Unset | WeightsUpdatePerformanceWeightsType0):
            capability_weights (None | Unset | WeightsUpdateCapabilityWeightsType0):
     """

    performance_weights: None | Unset | WeightsUpdatePerformanceWeightsType0 = UNSET
    capability_weights: None | Unset | WeightsUpdateCapabilityWeightsType0 = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.weights_update_capability_weights_type_0 import WeightsUpdateCapabilityWeightsType0 # noqa: PLC0415
        from ..models.weights_update_performance_weights_type_0 import WeightsUpdatePerformanceWeightsType0 # noqa: PLC0415
        performance_weights: dict[str, Any] | None | Unset
        if isinstance(self.performance_weights, Unset):
            performance_weights = UNSET
        elif isinstance(self.performance_weights, WeightsUpdatePerformanceWeightsType0):
            performance_weights = self.performance_weights.to_dict()
        else:
            performance_weights = self.performance_weights

        capability_weights: dict[str, Any] | None | Unset
        if isinstance(self.capability_weights, Unset):
            capability_weights = UNSET
        elif isinstance(self.capability_weights, WeightsUpdateCapabilityWeightsType0):
            capability_weights = self.capability_weights.to_dict()
        else:
            capability_weights = self.capability_weights


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if performance_weights is not UNSET:
            field_dict["performance_weights"] = performance_weights
        if capability_weights is not UNSET:
            field_dict["capability_weights"] = capability_weights

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.weights_update_capability_weights_type_0 import WeightsUpdateCapabilityWeightsType0 # noqa: PLC0415
        from ..models.weights_update_performance_weights_type_0 import WeightsUpdatePerformanceWeightsType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_performance_weights(data: object) -> None | Unset | WeightsUpdatePerformanceWeightsType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                performance_weights_type_0 = WeightsUpdatePerformanceWeightsType0.from_dict(data)



                return performance_weights_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WeightsUpdatePerformanceWeightsType0, data)

        performance_weights = _parse_performance_weights(d.pop("performance_weights", UNSET))


        def _parse_capability_weights(data: object) -> None | Unset | WeightsUpdateCapabilityWeightsType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                capability_weights_type_0 = WeightsUpdateCapabilityWeightsType0.from_dict(data)



                return capability_weights_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WeightsUpdateCapabilityWeightsType0, data)

        capability_weights = _parse_capability_weights(d.pop("capability_weights", UNSET))


        weights_update = cls(
            performance_weights=performance_weights,
            capability_weights=capability_weights,
        )

        return weights_update

