from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AxisEvidence")



@_attrs_define
class AxisEvidence:
    """ Where one axis's evidence came from (docs/stress-tests.md "Provenance"): its tasks and
    events stress-tested by this installation (its own stress runs) and those reported by the
    organization (events it sent, logs it imported).  The events are those the axis's
    dimensions used (docs/scoring.md §1, traceability); a task mixing both counts as reported.

        Attributes:
            stress_tested_tasks (int):
            reported_tasks (int):
            stress_tested_events (int):
            reported_events (int):
     """

    stress_tested_tasks: int
    reported_tasks: int
    stress_tested_events: int
    reported_events: int





    def to_dict(self) -> dict[str, Any]:
        stress_tested_tasks = self.stress_tested_tasks

        reported_tasks = self.reported_tasks

        stress_tested_events = self.stress_tested_events

        reported_events = self.reported_events


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "stress_tested_tasks": stress_tested_tasks,
            "reported_tasks": reported_tasks,
            "stress_tested_events": stress_tested_events,
            "reported_events": reported_events,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        stress_tested_tasks = d.pop("stress_tested_tasks")

        reported_tasks = d.pop("reported_tasks")

        stress_tested_events = d.pop("stress_tested_events")

        reported_events = d.pop("reported_events")

        axis_evidence = cls(
            stress_tested_tasks=stress_tested_tasks,
            reported_tasks=reported_tasks,
            stress_tested_events=stress_tested_events,
            reported_events=reported_events,
        )

        return axis_evidence

