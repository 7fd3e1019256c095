"""Generated evidence near the edges of the ingest's fast paths, for the differential fuzzers
(tests/evidence/test_fuzz_fast_paths.py, tests/api/test_fuzz_ingest.py): payloads of the
plainly checked types with fields dropped, added, mistyped, reordered or at their bounds;
envelopes with odd agents, ids and keys; RFC 3339 spellings and near misses; JSON text with
what only its parser sees (repeated keys, long integers, escapes).

Bounded: every test runs a fixed number of derandomized examples (``bounded``);
``AAAF_FUZZ_SCALE`` multiplies them (``make soak`` runs them at 50 times).
"""

from __future__ import annotations

import json
import math
import os
from datetime import datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from aaaf.evidence.canonical import MAX_SAFE_INTEGER
from aaaf.evidence.limits import DEFAULT_LIMITS, EventLimits

SCALE = float(os.environ.get("AAAF_FUZZ_SCALE", "1"))
FAST_TYPES = ("task_assigned", "task_completed", "tool_invoked", "delegation_decision")


def bounded(examples: int) -> settings:
    """``examples`` derandomized examples (times ``AAAF_FUZZ_SCALE``), no deadline, no database."""
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


INTEGERS = [0, 1, 2, 3, 4, 5, 6, -1, MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER]
INTEGERS += [-MAX_SAFE_INTEGER - 1, 2**63 - 1, 2**63, 2**64, -(2**63)]
FLOATS = [0.0, -0.0, 0.5, 1.0, 1.0000000000000002, 0.9999999999999999, 5e-324, 1e308, 1.7976931348623157e308]
FLOATS += [float(MAX_SAFE_INTEGER), 9007199254740994.0, 1234567890123456.0, 1e16, 1e-7, -1e-9, 3.0]
FLOATS += [math.inf, -math.inf, math.nan]
STRINGS = ["", " ", "t-1", "code", "Code", "code ", "security", "é", "e\u0301", "\U0001f600", "\u2028"]
STRINGS += ["\ufeff", "\uffff", "\ud83d", "\udc00", "a\x00b", "\x00", "\\", '"', "\\u0000", "\\\\u0000"]
STRINGS += ["\n\t\r\b\f\v", "\x7f\x1b", "accepted", "ACCEPTED", "failed", "partial", "self", "delegate"]
STRINGS += ["Self", "2026-04-16T14:00:00Z", "[{", "]}", "NaN", "-Infinity", "null", "x" * 257, "é" * 129]
STRINGS += ["x" * 256, "memory_search_performed", "output_format_correct", "memroy_search_performed"]

any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=8)
scalars = st.one_of(
    st.sampled_from(INTEGERS),
    st.integers(min_value=-10, max_value=10),
    st.sampled_from(FLOATS),
    st.floats(),
    st.booleans(),
    st.none(),
    st.sampled_from(STRINGS),
    any_text,
)
keys = st.one_of(st.sampled_from(["a", "name", "passed", "task_id", "\x00", "\ud800", "é", ""]), any_text)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
huge_strings = st.sampled_from([65_536, 65_537, 65_400, 200]).map(lambda size: "x" * size)

TIMESTAMPS = [
    "2026-04-16T14:00:00Z",
    "2026-04-16t14:00:00.5z",
    "2026-04-16 14:00:00-05:30",
    "2026-04-16T14:00:00.1234567+00:00",
    "2026-04-16T14:00:00+23:59",
    "2026-04-16T14:00:00-16:00",
    "2026-04-16T14:00:00+15:59",
    "0001-01-01T00:00:00+00:01",
    "0001-01-01T00:00:00-00:01",
    "2024-02-29T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-04-16T14:00:00",
    "2026-04-16",
]


@st.composite
def timestamp_texts(draw: st.DrawFn) -> str:
    """An RFC 3339 spelling or a near miss: T, t or space; Z, z or offsets up to ±25:60 (with
    seconds, without a colon); 0 to 10 digits of fraction; years 0000-9999, day 0-32."""
    year = draw(
        st.one_of(
            st.sampled_from([1, 2, 999, 1969, 1970, 2000, 2024, 2026, 9998, 9999]), st.integers(0, 9999)
        )
    )
    month = draw(st.one_of(st.sampled_from([1, 2, 12]), st.integers(0, 13)))
    day = draw(st.one_of(st.sampled_from([1, 28, 29, 30, 31]), st.integers(0, 32)))
    hour = draw(st.one_of(st.sampled_from([0, 23]), st.integers(0, 25)))
    minute = draw(st.one_of(st.sampled_from([0, 59]), st.integers(0, 60)))
    second = draw(st.one_of(st.sampled_from([0, 59]), st.integers(0, 61)))
    separator = draw(st.sampled_from(["T", "T", "t", " ", "_"]))
    digits = draw(st.one_of(st.none(), st.integers(0, 10)))
    fraction = (
        ""
        if digits is None
        else "." + "".join(draw(st.lists(st.sampled_from("0123456789"), min_size=digits, max_size=digits)))
    )
    sign = draw(st.sampled_from("+-"))
    hours = draw(st.one_of(st.sampled_from([0, 5, 14, 15, 16, 23]), st.integers(0, 25)))
    minutes = draw(st.one_of(st.sampled_from([0, 30, 59]), st.integers(0, 60)))
    suffix = draw(
        st.sampled_from(
            ["Z", "Z", "z", "", f"{sign}{hours:02d}:{minutes:02d}", f"{sign}{hours:02d}:{minutes:02d}",
             f"{sign}{hours:02d}:{minutes:02d}:{second:02d}", f"{sign}{hours:02d}{minutes:02d}", f"{sign}{hours:02d}"]
        )
    )  # fmt: skip
    return (
        f"{year:04d}-{month:02d}-{day:02d}{separator}{hour:02d}:{minute:02d}:{second:02d}{fraction}{suffix}"
    )


@st.composite
def past_timestamps(draw: st.DrawFn) -> str:
    """A valid RFC 3339 spelling of an instant from year 1 to 2026-11-01, in any form: T, t or
    space, Z, z or an offset up to ±23:59, 0 to 9 digits of fraction."""
    instant = draw(
        st.one_of(
            st.datetimes(datetime(2020, 1, 1), datetime(2026, 11, 1)),
            st.datetimes(datetime(1, 1, 2), datetime(2026, 11, 1)),
        )
    )
    minutes = draw(
        st.one_of(st.sampled_from([0, 0, 330, -300, 959, -960, 1439, -1439]), st.integers(-1439, 1439))
    )
    local = instant + timedelta(minutes=minutes)
    digits = draw(st.sampled_from([0, 0, 1, 3, 6, 6, 7, 9]))
    fraction = f"{local.microsecond:06d}{draw(st.integers(0, 999)):03d}"[:digits]
    sign, offset = "+-"[minutes < 0], abs(minutes)
    suffix = f"{sign}{offset // 60:02d}:{offset % 60:02d}"
    if minutes == 0:
        suffix = draw(st.sampled_from(["Z", "z", "+00:00", "-00:00"]))
    separator = draw(st.sampled_from("TTt "))
    date = f"{local.year:04d}-{local.month:02d}-{local.day:02d}"  # (strftime's %Y is not padded)
    return f"{date}{separator}{local:%H:%M:%S}{'.' if digits else ''}{fraction}{suffix}"


any_timestamp = st.one_of(st.sampled_from(TIMESTAMPS), timestamp_texts(), past_timestamps())
# a bound that is easy to cross: ids of 3 characters, strings of 60 bytes (and the defaults)
LIMITS = st.sampled_from(
    [DEFAULT_LIMITS, EventLimits(id_chars=3, string_bytes=60), EventLimits(string_bytes=130)]
)

# well-formed values of each field of the plainly checked types (and a few of the full check's)
_GOOD: dict[str, st.SearchStrategy[Any]] = {
    "task_id": st.sampled_from(["t-1", "t-2", "tâche", "x" * 256, "a\tb"]),
    "complexity_level": st.integers(1, 5),
    "autonomy_level": st.integers(0, 3),
    "domain": st.sampled_from(["code", "security", "cooking", "é"]),
    "assigned_at": st.one_of(past_timestamps(), any_timestamp),
    "completion_status": st.sampled_from(["accepted", "failed", "partial", "rejected"]),
    "time_to_complete_seconds": st.one_of(st.integers(0, 10**6), st.floats(0, 1e9), st.sampled_from([0, 0.0])),
    "revision_count": st.integers(0, 9),
    "errors": st.lists(st.sampled_from(["e", "", "é", "\\"]), max_size=2),
    "milestone_fraction": st.one_of(st.sampled_from([0, 1, 0.0, 1.0]), st.floats(0, 1)),
    "milestones": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["m", ""]), "passed": st.booleans()}), max_size=2),
    "review_checklist": st.dictionaries(st.sampled_from(["memory_search_performed", "output_format_correct", "x"]), st.booleans(), max_size=2),
    "cost_usd": st.one_of(st.integers(0, 100), st.floats(0, 1e6)),
    "budget_usd": st.floats(0, 1e6),
    "tool": st.sampled_from(["grep", "web_search", "é"]),
    "success": st.booleans(),
    "unnecessary": st.booleans(),
    "error_recovered": st.booleans(),
    "task_fragment": st.sampled_from(["part", "é", "[x]"]),
    "decision": st.sampled_from(["self", "delegate"]),
    "delegate_to": st.one_of(st.none(), st.sampled_from(["helper", ""])),
    "ground_truth": st.sampled_from(["self", "delegate"]),
    "optimal_delegate": st.one_of(st.none(), st.sampled_from(["helper"])),
    "correct": st.booleans(),
    "tools_used": st.just([{"tool": "grep", "invocations": 1, "successes": 1, "unnecessary": 0}]),
}  # fmt: skip
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # (required, optional)
    "task_assigned": (("task_id", "complexity_level", "domain", "assigned_at"), ("autonomy_level",)),
    "task_completed": (
        ("task_id", "completion_status", "time_to_complete_seconds", "revision_count", "errors"),
        ("milestone_fraction", "milestones", "domain", "complexity_level", "autonomy_level",
         "review_checklist", "cost_usd", "budget_usd", "tools_used"),
    ),
    "tool_invoked": (("task_id", "tool", "success", "unnecessary", "error_recovered"), ()),
    "delegation_decision": (
        ("task_id", "task_fragment", "decision", "ground_truth"),
        ("delegate_to", "optimal_delegate", "correct"),
    ),
}  # fmt: skip
_NAMES = [*sorted(_GOOD), "note", "Task_id", "task_id ", "checklist", "delegation_decisions", "severity", ""]
_BAD_VALUES = st.one_of(
    scalars, values, huge_strings, st.sampled_from([{1: True}, {"a": 1}, ["e", None], ("a",), {"a"}])
)


@st.composite
def payloads(draw: st.DrawFn, event_type: str) -> dict[str, Any]:
    """A payload of ``event_type``: its required fields and some optional ones well formed,
    then up to three changes (a field dropped, given any value or added), keys reordered."""
    required, optional = FIELDS[event_type]
    names = (
        list(required) + draw(st.lists(st.sampled_from(optional), unique=True))
        if optional
        else list(required)
    )
    data: dict[Any, Any] = {name: draw(_GOOD[name]) for name in names}
    count = draw(st.sampled_from([0, 0, 1, 1, 2, 3]))
    for change in draw(
        st.lists(st.sampled_from(["drop", "set", "set", "add", "add", "key"]), min_size=count, max_size=count)
    ):
        if change == "drop" and data:
            data.pop(draw(st.sampled_from(sorted(data, key=str))))
        elif change == "set" and data:
            data[draw(st.sampled_from(sorted(data, key=str)))] = draw(_BAD_VALUES)
        elif change == "add":
            data[draw(st.sampled_from(_NAMES))] = draw(st.one_of(_BAD_VALUES, *_GOOD.values()))
        elif change == "key":  # what a Python caller may give: not a string, or not Unicode
            data[draw(st.sampled_from([1, None, "\ud800", "a\x00"]))] = True
    order = draw(st.permutations(list(data)))
    return {name: data[name] for name in order}


AGENTS = ("fuzz-a", "fuzz-b")


@st.composite
def raw_events(
    draw: st.DrawFn,
    agents: tuple[str, ...] = AGENTS,
    keys: tuple[str, ...] = ("k1", "k2", "k3"),
    odd_keys: tuple[Any, ...] = ("", 1, "k\x00", "\ud800", "x" * 257, "k\n", "k\\"),
) -> dict[str, Any]:
    """An event of a plainly checked type (now and then another), its envelope also near its edges:
    ``agent`` or ``agent_id`` (or both, or neither), an ``id`` from a few (so repeated) or odd, a
    timestamp (the payload's ``assigned_at`` at times), an unknown envelope key."""
    odd = draw(st.lists(st.integers(0, 15), min_size=5, max_size=5))  # which parts are odd: 1 in 16 each
    event_type = draw(st.sampled_from(FAST_TYPES if odd[0] else ("task_revised", "Task_assigned")))
    data = draw(payloads(event_type)) if event_type in FAST_TYPES else {"task_id": "t-1"}
    raw: dict[str, Any] = {}
    agent = draw(st.sampled_from(agents if odd[1] else ("", 7, "fuzz-unknown")))
    for name in draw(st.sampled_from([["agent_id"], ["agent"], ["agent", "agent_id"]])):
        raw[name] = agent
    key = draw(st.one_of(st.none(), st.sampled_from(keys if odd[2] else odd_keys)))
    if key is not None:
        raw["id"] = key
    raw["type"] = event_type
    stamp = data.get("assigned_at")
    if type(stamp) is str and draw(st.booleans()):
        raw["timestamp"] = stamp
    else:
        raw["timestamp"] = draw(past_timestamps() if odd[3] else any_timestamp)
    raw["data"] = data
    if not odd[4]:
        raw[draw(st.sampled_from(["note", "Data", "timestamp ", "agentId"]))] = draw(scalars)
    order = draw(st.permutations(list(raw)))
    return {name: raw[name] for name in order}


@st.composite
def json_texts(draw: st.DrawFn, value: Any = None) -> str:
    """JSON text of a generated value, spelt as a client may: repeated keys, numbers in other
    spellings (exponents, long digit runs, ``-0``, out of a double's range), escapes of every
    kind, NaN and Infinity, odd whitespace."""
    if value is None:
        value = draw(values)
    return _render(draw, value)


def _render(draw: st.DrawFn, value: Any) -> str:
    space = draw(st.sampled_from(["", "", " ", "\n\t", "\r\n "]))
    if isinstance(value, dict):
        items = [f"{_string(draw, str(key))}:{space}{_render(draw, item)}" for key, item in value.items()]
        if items and draw(st.integers(0, 4)) == 0:  # a repeated key: the last one wins
            items.append(f"{_string(draw, str(next(iter(value))))}:{_render(draw, draw(scalars))}")
        return "{" + space + ("," + space).join(items) + space + "}"
    if isinstance(value, list | tuple | set):  # (a Python caller's tuple or set: a JSON client's list)
        items = sorted(value, key=repr) if isinstance(value, set) else value
        return "[" + space + ("," + space).join(_render(draw, item) for item in items) + space + "]"
    if isinstance(value, str):
        return _string(draw, value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return draw(st.sampled_from([str(value), str(value), f"{value}.0", f"{value}e0", f"{value}E+00"]))
    if math.isnan(value) or math.isinf(value):
        return json.dumps(value)  # NaN, Infinity, -Infinity
    return draw(
        st.sampled_from([repr(value), repr(value), f"{value:.17e}", f"{value:.25f}", "-0", "-0.0", "1e400", "-1e400", "1e-400", "0.1000000000000000055511151231257827"])
    )  # fmt: skip


def _string(draw: st.DrawFn, text: str) -> str:
    kind = draw(st.sampled_from(["ascii", "raw", "raw", "escape-all"]))
    if kind == "escape-all":  # every character as \\uXXXX (surrogate pairs for the astral ones)
        units = text.encode("utf-16-le", "surrogatepass")
        return '"' + "".join(f"\\u{int.from_bytes(units[i:i + 2], 'little'):04{draw(st.sampled_from('xX'))}}" for i in range(0, len(units), 2)) + '"'  # fmt: skip
    return json.dumps(text, ensure_ascii=kind == "ascii").replace("/", draw(st.sampled_from(["/", "\\/"])))
