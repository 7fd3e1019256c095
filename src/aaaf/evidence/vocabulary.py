"""The closed vocabularies evidence is checked against (SCORING.md §1, §3, §5; document 004 §6.2).

Kept in one module so that validation, the store's CHECK constraint and the documentation
name the same words.  Where the pure core already names a vocabulary it is imported, not
repeated: ``TRUST_DIMENSIONS`` (document 000's 16 names, in its table's order) is the
trust scheme's own tuple, so an ``eval_result`` is accepted exactly for the dimensions the
engine scores.
"""

from __future__ import annotations

from aaaf.scoring.records import EVENT_TYPES
from aaaf.scoring.trust import TRUST_DIMENSIONS

# AAAF's own extension: what the memory collector produces (docs/memory-format.md).
MEMORY_OPERATION = "memory_operation"

# Every type the validator accepts: document 004's eight, SCORING.md's two, and ours
# (the core's record types may already list ours; each name once, in order).
EVIDENCE_EVENT_TYPES: tuple[str, ...] = tuple(dict.fromkeys((*EVENT_TYPES, MEMORY_OPERATION)))

COMPLETION_STATUSES: tuple[str, ...] = ("accepted", "partial", "rejected", "failed")
SEVERITIES: tuple[str, ...] = ("critical", "major", "minor")
DELEGATION_CHOICES: tuple[str, ...] = ("self", "delegate")
DELEGATION_OUTCOMES: tuple[str, ...] = ("success", "partial", "failure")
MEMORY_OPERATIONS: tuple[str, ...] = ("search", "write")

__all__ = [
    "COMPLETION_STATUSES",
    "DELEGATION_CHOICES",
    "DELEGATION_OUTCOMES",
    "EVIDENCE_EVENT_TYPES",
    "MEMORY_OPERATION",
    "MEMORY_OPERATIONS",
    "SEVERITIES",
    "TRUST_DIMENSIONS",
]
