"""Collectors: where raw events come from (document 004 §8 phase 1) — task logs, memory
files, manual entry.  Each yields raw events; ``aaaf.evidence.validation`` judges them."""

from aaaf.evidence.collectors.manual import event_from_flags, event_from_text
from aaaf.evidence.collectors.memory import (
    MemoryItem,
    collect_memory_events,
    parse_memory_text,
    read_memory_dir,
)
from aaaf.evidence.collectors.task_logs import read_jsonl

__all__ = [
    "MemoryItem",
    "collect_memory_events",
    "event_from_flags",
    "event_from_text",
    "parse_memory_text",
    "read_jsonl",
    "read_memory_dir",
]
