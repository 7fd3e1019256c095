"""Evidence: validated events in (SCORING.md §1), from the API, task logs, memory files and
manual entry.  Validation lives in ``validation``; raw-event sources in ``collectors``."""

from aaaf.evidence.models import EventError, EventValidationError, ValidEvent
from aaaf.evidence.validation import (
    DEFAULT_FUTURE_TOLERANCE_SECONDS,
    validate_batch,
    validate_event,
    validate_stream,
)
from aaaf.evidence.vocabulary import EVIDENCE_EVENT_TYPES, TRUST_DIMENSIONS

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
