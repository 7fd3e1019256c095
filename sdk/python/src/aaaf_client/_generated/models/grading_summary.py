from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="GradingSummary")



@_attrs_define
class GradingSummary:
    """ What grading recorded in a run: graded assertions, judge scores, failed judgements
    (``failure_reasons``: the first three, ``judge: reason``).

        Attributes:
            run_id (str):
            assertions (int):
            assertions_graded_here (int):
            assertions_failed (int):
            judge_scores (int):
            judge_failures (int):
            failure_reasons (list[str]):
     """

    run_id: str
    assertions: int
    assertions_graded_here: int
    assertions_failed: int
    judge_scores: int
    judge_failures: int
    failure_reasons: list[str]





    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        assertions = self.assertions

        assertions_graded_here = self.assertions_graded_here

        assertions_failed = self.assertions_failed

        judge_scores = self.judge_scores

        judge_failures = self.judge_failures

        failure_reasons = self.failure_reasons




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "run_id": run_id,
            "assertions": assertions,
            "assertions_graded_here": assertions_graded_here,
            "assertions_failed": assertions_failed,
            "judge_scores": judge_scores,
            "judge_failures": judge_failures,
            "failure_reasons": failure_reasons,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        run_id = d.pop("run_id")

        assertions = d.pop("assertions")

        assertions_graded_here = d.pop("assertions_graded_here")

        assertions_failed = d.pop("assertions_failed")

        judge_scores = d.pop("judge_scores")

        judge_failures = d.pop("judge_failures")

        failure_reasons = cast(list[str], d.pop("failure_reasons"))


        grading_summary = cls(
            run_id=run_id,
            assertions=assertions,
            assertions_graded_here=assertions_graded_here,
            assertions_failed=assertions_failed,
            judge_scores=judge_scores,
            judge_failures=judge_failures,
            failure_reasons=failure_reasons,
        )

        return grading_summary

