from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
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
     """

    assessment_id: str
    previous_id: None | str | Unset = UNSET
    axes: list[AxisChange] | Unset = UNSET
    configuration_changes: list[ConfigurationChange] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
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


        assessment_changes = cls(
            assessment_id=assessment_id,
            previous_id=previous_id,
            axes=axes,
            configuration_changes=configuration_changes,
        )

        return assessment_changes

