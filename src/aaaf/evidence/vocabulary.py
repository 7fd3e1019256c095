"""The closed vocabularies evidence is checked against (SCORING.md §1, §3, §5; document 004 §6.2).

Kept in one module so that validation, the store's CHECK constraint and the documentation
name the same words.  ``TRUST_DIMENSIONS`` lives here because ``aaaf.scoring.defaults`` does
not (yet) define it; the 16 names are document 000's table, in its order.
"""

from __future__ import annotations

from aaaf.scoring.records import EVENT_TYPES

# Document 000 §1: the 16 trust dimensions an `eval_result` may name (SCORING.md §3).
TRUST_DIMENSIONS: tuple[str, ...] = (
    "accuracy",
    "reliability",
    "safety",
    "selfAudit",
    "security",
    "latency",
    "bond",
    "scopeHonesty",
    "memoryQuality",
    "costEfficiency",
    "evalRigor",
    "teamwork",
    "modelCompliance",
    "runtimeCompliance",
    "harnessStability",
    "skillMastery",
)

# AAAF's own extension: what the memory collector produces (docs/memory-format.md).
MEMORY_OPERATION = "memory_operation"

# Every type the validator accepts: document 004's eight, SCORING.md's two, and ours.
EVIDENCE_EVENT_TYPES: tuple[str, ...] = (*EVENT_TYPES, MEMORY_OPERATION)

COMPLETION_STATUSES: tuple[str, ...] = ("accepted", "partial", "rejected", "failed")
SEVERITIES: tuple[str, ...] = ("critical", "major", "minor")
DELEGATION_CHOICES: tuple[str, ...] = ("self", "delegate")
DELEGATION_OUTCOMES: tuple[str, ...] = ("success", "partial", "failure")
MEMORY_OPERATIONS: tuple[str, ...] = ("search", "write")
