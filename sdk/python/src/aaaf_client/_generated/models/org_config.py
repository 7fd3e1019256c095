from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.org_config_capability_weights import OrgConfigCapabilityWeights
  from ..models.org_config_performance_weights import OrgConfigPerformanceWeights
  from ..models.org_config_speed_baselines import OrgConfigSpeedBaselines





T = TypeVar("T", bound="OrgConfig")



@_attrs_define
class OrgConfig:
    """ Every setting: the stored values over the defaults.

        Attributes:
            assessment_window_days (int):
            recency_weights (list[list[float]]):
            minimum_tasks_performance (int):
            minimum_tasks_capability (int):
            performance_weights (OrgConfigPerformanceWeights):
            capability_weights (OrgConfigCapabilityWeights):
            domain_taxonomy (list[str]):
            review_checklist (list[Any]):
            speed_baselines (OrgConfigSpeedBaselines):
            baseline_errors_per_task (float):
            calibration_threshold (float):
            validity_period_days (int):
            reassessment_task_threshold (int):
            rate_limit_per_minute (int):
            benchmark_opt_in (bool):
     """

    assessment_window_days: int
    recency_weights: list[list[float]]
    minimum_tasks_performance: int
    minimum_tasks_capability: int
    performance_weights: OrgConfigPerformanceWeights
    capability_weights: OrgConfigCapabilityWeights
    domain_taxonomy: list[str]
    review_checklist: list[Any]
    speed_baselines: OrgConfigSpeedBaselines
    baseline_errors_per_task: float
    calibration_threshold: float
    validity_period_days: int
    reassessment_task_threshold: int
    rate_limit_per_minute: int
    benchmark_opt_in: bool





    def to_dict(self) -> dict[str, Any]:
        from ..models.org_config_capability_weights import OrgConfigCapabilityWeights # noqa: PLC0415
        from ..models.org_config_performance_weights import OrgConfigPerformanceWeights # noqa: PLC0415
        from ..models.org_config_speed_baselines import OrgConfigSpeedBaselines # noqa: PLC0415
        assessment_window_days = self.assessment_window_days

        recency_weights = []
        for recency_weights_item_data in self.recency_weights:
            recency_weights_item = recency_weights_item_data


            recency_weights.append(recency_weights_item)



        minimum_tasks_performance = self.minimum_tasks_performance

        minimum_tasks_capability = self.minimum_tasks_capability

        performance_weights = self.performance_weights.to_dict()

        capability_weights = self.capability_weights.to_dict()

        domain_taxonomy = self.domain_taxonomy



        review_checklist = self.review_checklist



        speed_baselines = self.speed_baselines.to_dict()

        baseline_errors_per_task = self.baseline_errors_per_task

        calibration_threshold = self.calibration_threshold

        validity_period_days = self.validity_period_days

        reassessment_task_threshold = self.reassessment_task_threshold

        rate_limit_per_minute = self.rate_limit_per_minute

        benchmark_opt_in = self.benchmark_opt_in


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assessment_window_days": assessment_window_days,
            "recency_weights": recency_weights,
            "minimum_tasks_performance": minimum_tasks_performance,
            "minimum_tasks_capability": minimum_tasks_capability,
            "performance_weights": performance_weights,
            "capability_weights": capability_weights,
            "domain_taxonomy": domain_taxonomy,
            "review_checklist": review_checklist,
            "speed_baselines": speed_baselines,
            "baseline_errors_per_task": baseline_errors_per_task,
            "calibration_threshold": calibration_threshold,
            "validity_period_days": validity_period_days,
            "reassessment_task_threshold": reassessment_task_threshold,
            "rate_limit_per_minute": rate_limit_per_minute,
            "benchmark_opt_in": benchmark_opt_in,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.org_config_capability_weights import OrgConfigCapabilityWeights # noqa: PLC0415
        from ..models.org_config_performance_weights import OrgConfigPerformanceWeights # noqa: PLC0415
        from ..models.org_config_speed_baselines import OrgConfigSpeedBaselines # noqa: PLC0415
        d = dict(src_dict)
        assessment_window_days = d.pop("assessment_window_days")

        recency_weights = []
        _recency_weights = d.pop("recency_weights")
        for recency_weights_item_data in (_recency_weights):
            recency_weights_item = cast(list[float], recency_weights_item_data)

            recency_weights.append(recency_weights_item)


        minimum_tasks_performance = d.pop("minimum_tasks_performance")

        minimum_tasks_capability = d.pop("minimum_tasks_capability")

        performance_weights = OrgConfigPerformanceWeights.from_dict(d.pop("performance_weights"))




        capability_weights = OrgConfigCapabilityWeights.from_dict(d.pop("capability_weights"))




        domain_taxonomy = cast(list[str], d.pop("domain_taxonomy"))


        review_checklist = cast(list[Any], d.pop("review_checklist"))


        speed_baselines = OrgConfigSpeedBaselines.from_dict(d.pop("speed_baselines"))




        baseline_errors_per_task = d.pop("baseline_errors_per_task")

        calibration_threshold = d.pop("calibration_threshold")

        validity_period_days = d.pop("validity_period_days")

        reassessment_task_threshold = d.pop("reassessment_task_threshold")

        rate_limit_per_minute = d.pop("rate_limit_per_minute")

        benchmark_opt_in = d.pop("benchmark_opt_in")

        org_config = cls(
            assessment_window_days=assessment_window_days,
            recency_weights=recency_weights,
            minimum_tasks_performance=minimum_tasks_performance,
            minimum_tasks_capability=minimum_tasks_capability,
            performance_weights=performance_weights,
            capability_weights=capability_weights,
            domain_taxonomy=domain_taxonomy,
            review_checklist=review_checklist,
            speed_baselines=speed_baselines,
            baseline_errors_per_task=baseline_errors_per_task,
            calibration_threshold=calibration_threshold,
            validity_period_days=validity_period_days,
            reassessment_task_threshold=reassessment_task_threshold,
            rate_limit_per_minute=rate_limit_per_minute,
            benchmark_opt_in=benchmark_opt_in,
        )

        return org_config

