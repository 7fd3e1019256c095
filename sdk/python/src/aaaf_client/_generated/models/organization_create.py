from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.organization_create_capability_weights_type_0 import OrganizationCreateCapabilityWeightsType0
  from ..models.organization_create_performance_weights_type_0 import OrganizationCreatePerformanceWeightsType0





T = TypeVar("T", bound="OrganizationCreate")



@_attrs_define
class OrganizationCreate:
    """ docs/api.md ``POST /api/v1/organizations``; configuration keys are optional.

        Attributes:
            name (str):
            domain_taxonomy (list[str] | None | Unset):
            performance_weights (None | OrganizationCreatePerformanceWeightsType0 | Unset):
            capability_weights (None | OrganizationCreateCapabilityWeightsType0 | Unset):
            assessment_window_days (int | None | Unset):
            validity_period_days (int | None | Unset):
            minimum_tasks_performance (int | None | Unset):
            minimum_tasks_capability (int | None | Unset):
     """

    name: str
    domain_taxonomy: list[str] | None | Unset = UNSET
    performance_weights: None | OrganizationCreatePerformanceWeightsType0 | Unset = UNSET
    capability_weights: None | OrganizationCreateCapabilityWeightsType0 | Unset = UNSET
    assessment_window_days: int | None | Unset = UNSET
    validity_period_days: int | None | Unset = UNSET
    minimum_tasks_performance: int | None | Unset = UNSET
    minimum_tasks_capability: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.organization_create_capability_weights_type_0 import OrganizationCreateCapabilityWeightsType0 # noqa: PLC0415
        from ..models.organization_create_performance_weights_type_0 import OrganizationCreatePerformanceWeightsType0 # noqa: PLC0415
        name = self.name

        domain_taxonomy: list[str] | None | Unset
        if isinstance(self.domain_taxonomy, Unset):
            domain_taxonomy = UNSET
        elif isinstance(self.domain_taxonomy, list):
            domain_taxonomy = self.domain_taxonomy


        else:
            domain_taxonomy = self.domain_taxonomy

        performance_weights: dict[str, Any] | None | Unset
        if isinstance(self.performance_weights, Unset):
            performance_weights = UNSET
        elif isinstance(self.performance_weights, OrganizationCreatePerformanceWeightsType0):
            performance_weights = self.performance_weights.to_dict()
        else:
            performance_weights = self.performance_weights

        capability_weights: dict[str, Any] | None | Unset
        if isinstance(self.capability_weights, Unset):
            capability_weights = UNSET
        elif isinstance(self.capability_weights, OrganizationCreateCapabilityWeightsType0):
            capability_weights = self.capability_weights.to_dict()
        else:
            capability_weights = self.capability_weights

        assessment_window_days: int | None | Unset
        if isinstance(self.assessment_window_days, Unset):
            assessment_window_days = UNSET
        else:
            assessment_window_days = self.assessment_window_days

        validity_period_days: int | None | Unset
        if isinstance(self.validity_period_days, Unset):
            validity_period_days = UNSET
        else:
            validity_period_days = self.validity_period_days

        minimum_tasks_performance: int | None | Unset
        if isinstance(self.minimum_tasks_performance, Unset):
            minimum_tasks_performance = UNSET
        else:
            minimum_tasks_performance = self.minimum_tasks_performance

        minimum_tasks_capability: int | None | Unset
        if isinstance(self.minimum_tasks_capability, Unset):
            minimum_tasks_capability = UNSET
        else:
            minimum_tasks_capability = self.minimum_tasks_capability


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if domain_taxonomy is not UNSET:
            field_dict["domain_taxonomy"] = domain_taxonomy
        if performance_weights is not UNSET:
            field_dict["performance_weights"] = performance_weights
        if capability_weights is not UNSET:
            field_dict["capability_weights"] = capability_weights
        if assessment_window_days is not UNSET:
            field_dict["assessment_window_days"] = assessment_window_days
        if validity_period_days is not UNSET:
            field_dict["validity_period_days"] = validity_period_days
        if minimum_tasks_performance is not UNSET:
            field_dict["minimum_tasks_performance"] = minimum_tasks_performance
        if minimum_tasks_capability is not UNSET:
            field_dict["minimum_tasks_capability"] = minimum_tasks_capability

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.organization_create_capability_weights_type_0 import OrganizationCreateCapabilityWeightsType0 # noqa: PLC0415
        from ..models.organization_create_performance_weights_type_0 import OrganizationCreatePerformanceWeightsType0 # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_domain_taxonomy(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                domain_taxonomy_type_0 = cast(list[str], data)

                return domain_taxonomy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        domain_taxonomy = _parse_domain_taxonomy(d.pop("domain_taxonomy", UNSET))


        def _parse_performance_weights(data: object) -> None | OrganizationCreatePerformanceWeightsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                performance_weights_type_0 = OrganizationCreatePerformanceWeightsType0.from_dict(data)



                return performance_weights_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OrganizationCreatePerformanceWeightsType0 | Unset, data)

        performance_weights = _parse_performance_weights(d.pop("performance_weights", UNSET))


        def _parse_capability_weights(data: object) -> None | OrganizationCreateCapabilityWeightsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                capability_weights_type_0 = OrganizationCreateCapabilityWeightsType0.from_dict(data)



                return capability_weights_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OrganizationCreateCapabilityWeightsType0 | Unset, data)

        capability_weights = _parse_capability_weights(d.pop("capability_weights", UNSET))


        def _parse_assessment_window_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        assessment_window_days = _parse_assessment_window_days(d.pop("assessment_window_days", UNSET))


        def _parse_validity_period_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        validity_period_days = _parse_validity_period_days(d.pop("validity_period_days", UNSET))


        def _parse_minimum_tasks_performance(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        minimum_tasks_performance = _parse_minimum_tasks_performance(d.pop("minimum_tasks_performance", UNSET))


        def _parse_minimum_tasks_capability(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        minimum_tasks_capability = _parse_minimum_tasks_capability(d.pop("minimum_tasks_capability", UNSET))


        organization_create = cls(
            name=name,
            domain_taxonomy=domain_taxonomy,
            performance_weights=performance_weights,
            capability_weights=capability_weights,
            assessment_window_days=assessment_window_days,
            validity_period_days=validity_period_days,
            minimum_tasks_performance=minimum_tasks_performance,
            minimum_tasks_capability=minimum_tasks_capability,
        )

        return organization_create

