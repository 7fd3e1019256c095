"""The stored result of an assessment (docs/architecture.md "The store"): what the
``result`` column of an assessment holds, as a versioned model.

Like inspect_ai's ``EvalLog``, the stored result says which version of its shape it is
(``version``), so a reader never guesses: :func:`read_stored_result` reads every version
stored before, upgrades it to the current one and checks it against :class:`StoredResult`;
:func:`stored_result_dict` is what the store writes (the current version), and the store
reads every stored result through :func:`upgraded`.

Versions:

* **1** — results stored before the shape had a version (no ``version`` key).  The earliest
  of them also lack ``type`` (they were all ``passive_only``) and ``evidence_summary``, and
  results stored before the configuration snapshot, the calibration record or the evidence
  provenance lack ``config``, ``calibration`` and ``evidence_sources``.
* **2** — ``version``, ``type`` and ``evidence_summary`` always present; the optional parts are
  absent rather than guessed.  Upgrading 1 → 2 adds ``version`` and the two defaults and
  changes nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pydantic import Field

from aaaf.errors import AAAFError
from aaaf.models._base import Number, OpenModel

STORED_RESULT_VERSION = 2
"""The version :func:`stored_result_dict` writes."""


class StoredAxis(OpenModel):
    """One axis: the composite, its tier and coverage, the weights used, its uncertainty
    (docs/uncertainty.md; absent or null without the bootstrap) and each dimension's result
    (its score and terms, docs/scoring.md §1)."""

    composite_score: Number | None
    tier: str | None
    covered: int
    total: int
    weights_used: dict[str, Number]
    uncertainty: dict[str, object] | None = None
    dimensions: dict[str, dict[str, object]]


class StoredResult(OpenModel):
    """The stored result of one assessment, version :data:`STORED_RESULT_VERSION`; open: a
    part a later release adds is kept as stored."""

    version: int = Field(description="The version of this shape (see the module's list).")
    type: str
    window_start: str
    window_end: str
    performance: StoredAxis | None
    capability: StoredAxis | None
    evidence_summary: dict[str, object]
    audit: dict[str, object] | None = None
    calibration: dict[str, object] | None = None
    config: dict[str, object] | None = None
    evidence_sources: dict[str, object] | None = None


def _from_1(stored: dict[str, object]) -> dict[str, object]:
    """Version 1 (no ``version``) → 2: the defaults version 1 left implicit."""
    upgraded = {"version": 2, **stored}
    upgraded.setdefault("type", "passive_only")  # the only type before ``type`` was stored
    upgraded.setdefault("evidence_summary", {})
    return upgraded


#: version → the step to the next version
_UPGRADES: dict[int, Callable[[dict[str, object]], dict[str, object]]] = {1: _from_1}


def upgraded(stored: Mapping[str, object]) -> dict[str, object]:
    """A stored result of any version as the current version's dict (cheap: no validation,
    a current one is copied as it is).  A version newer than this release knows is refused:
    reading it as an older shape would drop what it added."""
    data = dict(stored)
    version = data.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise AAAFError(
            "INVALID_REQUEST",
            f"A stored assessment result has no valid version ({version!r}).",
            {"version": version},
        )
    if version > STORED_RESULT_VERSION:
        raise AAAFError(
            "INVALID_REQUEST",
            f"A stored assessment result is of version {version}; this release reads up to "
            f"{STORED_RESULT_VERSION}: upgrade AAAF to read it.",
            {"version": version, "readable": STORED_RESULT_VERSION},
        )
    while version < STORED_RESULT_VERSION:
        data = _UPGRADES[version](data)
        version += 1  # each step is to the next version (and writes it as ``version``)
    return data


def read_stored_result(stored: Mapping[str, object]) -> StoredResult:
    """A stored result of any version, upgraded and checked against the current model."""
    return StoredResult.model_validate(upgraded(stored))


def stored_result_dict(result: Mapping[str, object]) -> dict[str, object]:
    """What the store writes for ``result`` (a scheme result's dict, with or without a
    version): the current version, keys in the order given.  Not validated here (the batch
    path writes thousands at once); :func:`read_stored_result` checks a result against the
    model where it is read as one."""
    return upgraded(result)
