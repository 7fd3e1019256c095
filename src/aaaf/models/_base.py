"""The base of every public shape: pydantic v2 models that print as they did.

``dump(model)`` is the one way a public result becomes JSON-ready data, for the CLI's
``--json`` and the API alike: fields in declaration order, a key that was not given left
out (``exclude_unset`` — a conditional key such as ``audit`` or ``errors_note`` is absent,
not null), numbers kept as the int or float they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, ConfigDict, WithJsonSchema

#: A JSON number kept as given: 3 stays 3 and 3.0 stays 3.0 (a plain ``float`` field would
#: print 3 as 3.0 and change the output).
Number = Annotated[int | float, WithJsonSchema({"type": "number"})]


class PublicModel(BaseModel):
    """A public result: unknown fields refused, so a shape cannot grow behind its model."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class OpenModel(PublicModel):
    """A public result whose named fields are followed by scheme-specific terms (kept in
    the order given, after the named fields) — e.g. each dimension's docs/scoring.md §1 terms."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


def dump(model: BaseModel) -> dict[str, object]:
    """The JSON-ready form of a public result (what ``--json`` prints and the API answers)."""
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


def dump_list(models: Sequence[BaseModel]) -> list[dict[str, object]]:
    return [dump(model) for model in models]
