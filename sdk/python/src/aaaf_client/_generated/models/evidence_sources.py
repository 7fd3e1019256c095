from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.axis_evidence import AxisEvidence
  from ..models.model_graded import ModelGraded





T = TypeVar("T", bound="EvidenceSources")



@_attrs_define
class EvidenceSources:
    """ Where an assessment's scored evidence (inside its window) came from.

    ``passive_events`` are reported by the organization, ``stress_test_events`` were
    stress-tested by this installation in ``stress_runs`` (runs its own harness executed).
    ``reported_stress_events`` claim a stress test this installation did not run — imported
    logs (``reported_stress_runs``) or events marked as stress evidence without one of its
    runs — and count as reported.  ``performance`` / ``capability`` split each axis's tasks by
    provenance.  Assessments recorded before provenance carry only the first three fields (and
    ``model_graded``).

        Attributes:
            passive_events (int):
            stress_test_events (int):
            stress_runs (list[str]):
            reported_stress_events (int | None | Unset):
            reported_stress_runs (list[str] | None | Unset):
            model_graded (ModelGraded | None | Unset):
            performance (AxisEvidence | None | Unset):
            capability (AxisEvidence | None | Unset):
     """

    passive_events: int
    stress_test_events: int
    stress_runs: list[str]
    reported_stress_events: int | None | Unset = UNSET
    reported_stress_runs: list[str] | None | Unset = UNSET
    model_graded: ModelGraded | None | Unset = UNSET
    performance: AxisEvidence | None | Unset = UNSET
    capability: AxisEvidence | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.axis_evidence import AxisEvidence # noqa: PLC0415
        from ..models.model_graded import ModelGraded # noqa: PLC0415
        passive_events = self.passive_events

        stress_test_events = self.stress_test_events

        stress_runs = self.stress_runs



        reported_stress_events: int | None | Unset
        if isinstance(self.reported_stress_events, Unset):
            reported_stress_events = UNSET
        else:
            reported_stress_events = self.reported_stress_events

        reported_stress_runs: list[str] | None | Unset
        if isinstance(self.reported_stress_runs, Unset):
            reported_stress_runs = UNSET
        elif isinstance(self.reported_stress_runs, list):
            reported_stress_runs = self.reported_stress_runs


        else:
            reported_stress_runs = self.reported_stress_runs

        model_graded: dict[str, Any] | None | Unset
        if isinstance(self.model_graded, Unset):
            model_graded = UNSET
        elif isinstance(self.model_graded, ModelGraded):
            model_graded = self.model_graded.to_dict()
        else:
            model_graded = self.model_graded

        performance: dict[str, Any] | None | Unset
        if isinstance(self.performance, Unset):
            performance = UNSET
        elif isinstance(self.performance, AxisEvidence):
            performance = self.performance.to_dict()
        else:
            performance = self.performance

        capability: dict[str, Any] | None | Unset
        if isinstance(self.capability, Unset):
            capability = UNSET
        elif isinstance(self.capability, AxisEvidence):
            capability = self.capability.to_dict()
        else:
            capability = self.capability


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "passive_events": passive_events,
            "stress_test_events": stress_test_events,
            "stress_runs": stress_runs,
        })
        if reported_stress_events is not UNSET:
            field_dict["reported_stress_events"] = reported_stress_events
        if reported_stress_runs is not UNSET:
            field_dict["reported_stress_runs"] = reported_stress_runs
        if model_graded is not UNSET:
            field_dict["model_graded"] = model_graded
        if performance is not UNSET:
            field_dict["performance"] = performance
        if capability is not UNSET:
            field_dict["capability"] = capability

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.axis_evidence import AxisEvidence # noqa: PLC0415
        from ..models.model_graded import ModelGraded # noqa: PLC0415
        d = dict(src_dict)
        passive_events = d.pop("passive_events")

        stress_test_events = d.pop("stress_test_events")

        stress_runs = cast(list[str], d.pop("stress_runs"))


        def _parse_reported_stress_events(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        reported_stress_events = _parse_reported_stress_events(d.pop("reported_stress_events", UNSET))


        def _parse_reported_stress_runs(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                reported_stress_runs_type_0 = cast(list[str], data)

                return reported_stress_runs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        reported_stress_runs = _parse_reported_stress_runs(d.pop("reported_stress_runs", UNSET))


        def _parse_model_graded(data: object) -> ModelGraded | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_graded_type_0 = ModelGraded.from_dict(data)



                return model_graded_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ModelGraded | None | Unset, data)

        model_graded = _parse_model_graded(d.pop("model_graded", UNSET))


        def _parse_performance(data: object) -> AxisEvidence | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                performance_type_0 = AxisEvidence.from_dict(data)



                return performance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AxisEvidence | None | Unset, data)

        performance = _parse_performance(d.pop("performance", UNSET))


        def _parse_capability(data: object) -> AxisEvidence | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                capability_type_0 = AxisEvidence.from_dict(data)



                return capability_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AxisEvidence | None | Unset, data)

        capability = _parse_capability(d.pop("capability", UNSET))


        evidence_sources = cls(
            passive_events=passive_events,
            stress_test_events=stress_test_events,
            stress_runs=stress_runs,
            reported_stress_events=reported_stress_events,
            reported_stress_runs=reported_stress_runs,
            model_graded=model_graded,
            performance=performance,
            capability=capability,
        )

        return evidence_sources

