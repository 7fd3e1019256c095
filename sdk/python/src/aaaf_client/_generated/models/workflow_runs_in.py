from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WorkflowRunsIn")



@_attrs_define
class WorkflowRunsIn:
    """ Workflow runs to store (``workflow_run`` events) and the definitions they may name.

        Attributes:
            runs (list[Any]): Up to 1 000 `workflow_run` events (docs/scoring.md §2, §6).
            workflows (list[Any] | Unset): Workflow definitions ({name, steps: [{id, depends_on, retry_count,
                timeout_seconds}]}) the runs may name (docs/scoring.md §6).
     """

    runs: list[Any]
    workflows: list[Any] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        runs = self.runs



        workflows: list[Any] | Unset = UNSET
        if not isinstance(self.workflows, Unset):
            workflows = self.workflows




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "runs": runs,
        })
        if workflows is not UNSET:
            field_dict["workflows"] = workflows

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        runs = cast(list[Any], d.pop("runs"))


        workflows = cast(list[Any], d.pop("workflows", UNSET))


        workflow_runs_in = cls(
            runs=runs,
            workflows=workflows,
        )

        return workflow_runs_in

