"""What an accepted event holds that is probably a mistake (README "A tour of the CLI").

Unknown fields are kept (forward compatible, :mod:`aaaf.evidence.payloads`), and a domain or a
checklist item is free text; so a misspelt ``revison_count``, a ``domain`` outside the
organization's taxonomy or a checklist key it does not use would be stored silently and simply
never scored.  Collection accepts such an event and says so, naming the field: one warning
per finding, counted in the report (``warnings_total``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from aaaf.evidence.payloads import PAYLOAD_SHAPES

# the envelope's own keys (document 004 §6.2), beside `data`
ENVELOPE_KEYS = frozenset({"id", "agent", "agent_id", "type", "timestamp", "data"})
# payload fields where free text names a domain, and where keys name checklist items
_DOMAIN_FIELDS = ("domain",)
_CHECKLIST_FIELDS = ("review_checklist", "checklist")  # also spelt out in payload_warnings


# the fields of each payload shape, built once, not per event
_KNOWN_FIELDS: dict[str, frozenset[str]] = {
    name: frozenset(shape.__required_keys__) | frozenset(shape.__optional_keys__)
    for name, shape in PAYLOAD_SHAPES.items()
}
_NO_FIELDS: frozenset[str] = frozenset()


def payload_warnings(
    raw: Mapping[str, Any], event_type: str, taxonomy: frozenset[str], checklist: frozenset[str]
) -> list[tuple[str, str]]:
    """``(field, message)`` for each finding in a valid event ``raw`` of ``event_type`` (none
    to look for when validation found it :func:`quiet`: ``ValidEvent.quiet``)."""
    data = raw.get("data")
    # the common shape: nothing unknown, no free text out of place — no generator, no sorting
    # (measured: 30 -> 15 µs an event with a checklist and taxonomy set, ~10 % of collect's CPU);
    # exact types first, no isinstance(…, Mapping) (an ABC check per call): anything else is
    # left to _findings (callgrind: 13 700 -> 4 200 instructions an event, bench_api's events)
    if (
        type(raw) is dict
        and type(data) is dict
        and data.keys() <= _KNOWN_FIELDS.get(event_type, _NO_FIELDS)
        and quiet(raw, data, taxonomy, checklist)
    ):
        return []
    return list(_findings(raw, event_type, taxonomy, checklist))


def quiet(
    raw: dict[str, Any], data: dict[str, Any], taxonomy: frozenset[str], checklist: frozenset[str]
) -> bool:
    """Whether the event ``raw``, whose payload ``data`` has no unknown field, has nothing to warn of:
    no unknown envelope key, its domain in ``taxonomy`` and its checklist items in ``checklist``
    (either empty: nothing to check).  Validation asks it for a payload it proved well formed
    (``aaaf.evidence.fast_payloads``), so the event needs no second pass here."""
    if not raw.keys() <= ENVELOPE_KEYS:
        return False
    domain = data.get("domain")
    review = data.get("review_checklist")
    items = data.get("checklist")
    return (
        (domain is None or not taxonomy or (type(domain) is str and domain in taxonomy))
        and (review is None or not checklist or (type(review) is dict and review.keys() <= checklist))
        and (items is None or not checklist or (type(items) is dict and items.keys() <= checklist))
    )


def _findings(
    raw: Mapping[str, Any], event_type: str, taxonomy: frozenset[str], checklist: frozenset[str]
) -> Iterator[tuple[str, str]]:
    for key in sorted(set(raw) - ENVELOPE_KEYS):
        yield key, f"{key}: not a field of an event (id, agent, type, timestamp, data); stored, never read"
    data = raw.get("data")
    if not isinstance(data, Mapping):
        return
    known = _KNOWN_FIELDS.get(event_type, _NO_FIELDS)
    for key in sorted(set(data) - known):
        yield f"data.{key}", f"data.{key}: not a field of {event_type}; stored, never scored"
    for name in _DOMAIN_FIELDS:
        domain = data.get(name)
        if isinstance(domain, str) and taxonomy and domain not in taxonomy:
            yield (
                f"data.{name}",
                f"data.{name}: {domain!r} is not in the organization's taxonomy ({', '.join(sorted(taxonomy))}); "
                "it counts for no domain (aaaf config taxonomy adds one)",
            )
    for name in _CHECKLIST_FIELDS:
        items = data.get(name)
        if isinstance(items, Mapping) and checklist:
            for item in sorted(set(items) - checklist):
                yield (
                    f"data.{name}.{item}",
                    f"data.{name}.{item}: not one of the review checklist's items "
                    f"({', '.join(sorted(checklist))}); stored, never scored",
                )
