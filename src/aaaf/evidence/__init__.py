"""Evidence: validated events in (SCORING.md §1), from the API, task logs, memory files and
manual entry.  Validation lives in ``validation``; raw-event sources in ``collectors``.

The names below load on first use (:mod:`aaaf._lazy`): the validator compiles its payload
shapes when imported (~0.25 s), which a command that stores no event (``aaaf agents``) never pays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aaaf._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "EventError": "aaaf.evidence.models",
    "EventValidationError": "aaaf.evidence.models",
    "ValidEvent": "aaaf.evidence.models",
    "DEFAULT_FUTURE_TOLERANCE_SECONDS": "aaaf.evidence.validation",
    "validate_batch": "aaaf.evidence.validation",
    "validate_event": "aaaf.evidence.validation",
    "validate_stream": "aaaf.evidence.validation",
    "EVIDENCE_EVENT_TYPES": "aaaf.evidence.vocabulary",
    "TRUST_DIMENSIONS": "aaaf.evidence.vocabulary",
}

__all__ = [
    "DEFAULT_FUTURE_TOLERANCE_SECONDS",
    "EVIDENCE_EVENT_TYPES",
    "TRUST_DIMENSIONS",
    "EventError",
    "EventValidationError",
    "ValidEvent",
    "validate_batch",
    "validate_event",
    "validate_stream",
]

if TYPE_CHECKING:
    from aaaf.evidence.models import EventError, EventValidationError, ValidEvent
    from aaaf.evidence.validation import (
        DEFAULT_FUTURE_TOLERANCE_SECONDS,
        validate_batch,
        validate_event,
        validate_stream,
    )
    from aaaf.evidence.vocabulary import EVIDENCE_EVENT_TYPES, TRUST_DIMENSIONS

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
