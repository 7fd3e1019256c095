"""The stress tasks a run would put an agent through (``aaaf stress-test --list --json``;
docs/stress-tests.md "Listing the tasks") and a page of published task libraries
(``aaaf stress-libraries list --json``, as ``GET /api/v1/stress-libraries`` answers it)."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel
from aaaf.models.benchmark import StressLibrary


class StressTaskListing(PublicModel):
    """One task, in run order: ``sequence_position`` is its place in its learning sequence
    (``category``; None outside one), ``library`` where it came from (``aaaf-standard`` or a
    library directory's name)."""

    id: str
    task_type: str
    domain: str | None
    complexity_level: int
    autonomy_level: int | None
    dimensions: list[str]
    category: str | None
    sequence_position: int | None
    tools: list[str]
    time_baseline_seconds: Number
    library: str


class StressLibraryPage(PublicModel):
    """The organization's own libraries and every shared one (one page: ``next_cursor`` None)."""

    items: list[StressLibrary]
    next_cursor: str | None
