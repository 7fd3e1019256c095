from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.appeal_cause import AppealCause
  from ..models.audit_cause import AuditCause
  from ..models.axis_change import AxisChange
  from ..models.configuration_change import ConfigurationChange





T = TypeVar("T", bound="AssessmentChanges")



@_attrs_define
class AssessmentChanges:
    """ The assessment against the agent's previous completed one (``previous_id`` null: none).

        Attributes:
            assessment_id (str):
            previous_id (None | str | Unset):
            axes (list[AxisChange] | Unset):
            configuration_changes (list[ConfigurationChange] | Unset):
            audits (list[AuditCause] | Unset):
            appeals (list[AppealCause] | Unset):
     """

    assessment_id: str
    previous_id: None | str | Unset = UNSET
    axes: list[AxisChange] | Unset = UNSET
    configuration_changes: list[ConfigurationChange] | Unset = UNSET
    audits: list[AuditCause] | Unset = UNSET
    appeals: list[AppealCause] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.appeal_cause import AppealCause # noqa: PLC0415
        from ..models.audit_cause import AuditCause # noqa: PLC0415
        from ..models.axis_change import AxisChange # noqa: PLC0415
        from ..models.configuration_change import ConfigurationChange # noqa: PLC0415
        assessment_id = self.assessment_id

        previous_id: None | str | Unset
        if isinstance(self.previous_id, Unset):
            previous_id = UNSET
        else:
            previous_id = self.previous_id

        axes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.axes, Unset):
            axes = []
            for axes_item_data in self.axes:
                axes_item = axes_item_data.to_dict()
                axes.append(axes_item)



        configuration_changes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.configuration_changes, Unset):
            configuration_changes = []
            for configuration_changes_item_data in self.configuration_changes:
                configuration_changes_item = configuration_changes_item_data.to_dict()
                configuration_changes.append(configuration_changes_item)



        audits: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.audits, Unset):
            audits = []
            for audits_item_data in self.audits:
                audits_item = audits_item_data.to_dict()
                audits.append(audits_item)



        appeals: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.appeals, Unset):
            appeals = []
            for appeals_item_data in self.appeals:
                appeals_item = appeals_item_data.to_dict()
                appeals.append(appeals_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assessment_id": assessment_id,
        })
        if previous_id is not UNSET:
            field_dict["previous_id"] = previous_id
        if axes is not UNSET:
            field_dict["axes"] = axes
        if configuration_changes is not UNSET:
            field_dict["configuration_changes"] = configuration_changes
        if audits is not UNSET:
            field_dict["audits"] = audits
        if appeals is not UNSET:
            field_dict["appeals"] = appeals

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.appeal_cause import AppealCause # noqa: PLC0415
        from ..models.audit_cause import AuditCause # noqa: PLC0415
        from ..models.axis_change import AxisChange # noqa: PLC0415
        from ..models.configuration_change import ConfigurationChange # noqa: PLC0415
        d = dict(src_dict)
        assessment_id = d.pop("assessment_id")

        def _parse_previous_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        previous_id = _parse_previous_id(d.pop("previous_id", UNSET))


        _axes = d.pop("axes", UNSET)
        axes: list[AxisChange] | Unset = UNSET
        if _axes is not UNSET:
            axes = []
            for axes_item_data in _axes:
                axes_item = AxisChange.from_dict(axes_item_data)



                axes.append(axes_item)


        _configuration_changes = d.pop("configuration_changes", UNSET)
        configuration_changes: list[ConfigurationChange] | Unset = UNSET
        if _configuration_changes is not UNSET:
            configuration_changes = []
            for configuration_changes_item_data in _configuration_changes:
                configuration_changes_item = ConfigurationChange.from_dict(configuration_changes_item_data)



                configuration_changes.append(configuration_changes_item)


        _audits = d.pop("audits", UNSET)
        audits: list[AuditCause] | Unset = UNSET
        if _audits is not UNSET:
            audits = []
            for audits_item_data in _audits:
                audits_item = AuditCause.from_dict(audits_item_data)



                audits.append(audits_item)


        _appeals = d.pop("appeals", UNSET)
        appeals: list[AppealCause] | Unset = UNSET
        if _appeals is not UNSET:
            appeals = []
            for appeals_item_data in _appeals:
                appeals_item = AppealCause.from_dict(appeals_item_data)



                appeals.append(appeals_item)


        assessment_changes = cls(
            assessment_id=assessment_id,
            previous_id=previous_id,
            axes=axes,
            configuration_changes=configuration_changes,
            audits=audits,
            appeals=appeals,
        )

        return assessment_changes

