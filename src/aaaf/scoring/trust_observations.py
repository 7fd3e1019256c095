"""Trust observations: juries and time decay (SCORING.md §3 'Jury', 'Time decay').

Part of the trust scheme (:mod:`aaaf.scoring.trust`): ``eval_result`` events become one
observation each, or one per ``(eval_set, dimension)`` jury, decayed by their age at ``at``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import iso
from aaaf.scoring.trust_config import TRUST_WEIGHTS, TrustConfig

# ----------------------------------------------------------------------------- jury and decay


def jury_trim_count(n: int, trim_fraction: float = 0.2) -> int:
    """How many votes are dropped from *each* end of a jury of n: ⌊0.2 n⌋ (0 for n < 5).

    The small epsilon keeps ⌊0.2 × 10⌋ at 2 although 0.2 × 10 is exact; it only matters
    for configured fractions that are not exact in binary.
    """
    return math.floor(trim_fraction * n + 1e-9)


def jury_value(scores: Sequence[float], trim_fraction: float = 0.2, aggregate: str = "median") -> float:
    """One observation from a jury's votes: sort, trim ⌊f n⌋ each end, median (or mean) of the rest."""
    if not scores:
        raise ValueError("a jury needs at least one vote")
    ordered = sorted(float(s) for s in scores)
    k = jury_trim_count(len(ordered), trim_fraction)
    kept = ordered[k : len(ordered) - k]
    if aggregate == "mean":
        return math.fsum(kept) / len(kept)
    return float(statistics.median(kept))


def decay_points(age_days: float, grace_days: float = 7.0, points_per_week: float = 1.0) -> float:
    """Points an observation of age d days has lost: max(0, d − 7) / 7 (1 point per week after grace)."""
    return max(0.0, age_days - grace_days) * points_per_week / 7.0


def decayed_score(
    score: float, age_days: float, grace_days: float = 7.0, points_per_week: float = 1.0
) -> float:
    """``max(0, score − max(0, d − 7) / 7)`` (SCORING.md §3 'Time decay')."""
    return max(0.0, score - decay_points(age_days, grace_days, points_per_week))


def age_in_days(timestamp: datetime, at: datetime) -> float:
    """Fractional days from ``timestamp`` to ``at``."""
    return (at - timestamp) / timedelta(days=1)


@dataclass(frozen=True)
class JuryVote:
    """One juror's vote in a jury, and whether trimming dropped it."""

    juror: str
    score: float
    timestamp: datetime
    event_id: str
    dropped: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "juror": self.juror,
            "score": self.score,
            "timestamp": iso(self.timestamp),
            "event_id": self.event_id,
            "dropped": self.dropped,
        }


@dataclass(frozen=True)
class JuryDetail:
    """How one ``(eval_set, dimension)`` jury became one observation."""

    eval_set: str
    size: int
    trimmed_each_end: int
    aggregate: str
    votes: tuple[JuryVote, ...]
    superseded: tuple[JuryVote, ...] = ()

    @property
    def dropped_jurors(self) -> tuple[str, ...]:
        return tuple(vote.juror for vote in self.votes if vote.dropped)

    def to_dict(self) -> dict[str, Any]:
        return {
            "eval_set": self.eval_set,
            "size": self.size,
            "trimmed_each_end": self.trimmed_each_end,
            "aggregate": self.aggregate,
            "dropped_jurors": list(self.dropped_jurors),
            "votes": [vote.to_dict() for vote in self.votes],
            "superseded_votes": [vote.to_dict() for vote in self.superseded],
        }


@dataclass(frozen=True)
class Observation:
    """One observation of a dimension: a single ``eval_result`` or a whole jury, then decayed."""

    dimension: str
    score: float
    timestamp: datetime
    age_days: float
    decay_points: float
    decayed_score: float
    eval_set: str | None
    event_ids: tuple[str, ...]
    jury: JuryDetail | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "jury" if self.jury is not None else "single",
            "score": self.score,
            "decayed_score": self.decayed_score,
            "age_days": self.age_days,
            "decay_points": self.decay_points,
            "timestamp": iso(self.timestamp),
            "eval_set": self.eval_set,
            "event_ids": list(self.event_ids),
            "jury": self.jury.to_dict() if self.jury is not None else None,
        }


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text if text else None


def _vote_order(event: EventRecord) -> tuple[datetime, str, str]:
    """Latest-wins order for one juror's repeated votes, the §1 rule: latest timestamp, ties by
    canonical JSON, then the store id — independent of the log's order."""
    from aaaf.scoring.fold import canonical_json

    return (event.timestamp, canonical_json(event), event.id)


def _jury_observation(
    dimension: str, eval_set: str, events: Sequence[EventRecord], at: datetime, config: TrustConfig
) -> Observation:
    by_juror: dict[str, list[EventRecord]] = {}
    for event in events:
        juror = _text(event.data.get("juror"))
        assert juror is not None  # grouped as a jury only with a juror
        by_juror.setdefault(juror, []).append(event)
    counting: list[EventRecord] = []
    superseded: list[EventRecord] = []
    for juror in sorted(by_juror):
        votes_of_juror = by_juror[juror]
        if len(votes_of_juror) == 1:
            counting.append(votes_of_juror[0])
            continue
        ordered = sorted(votes_of_juror, key=_vote_order)
        counting.append(ordered[-1])
        superseded.extend(ordered[:-1])
    # sort by score; ties by juror name so which juror is reported dropped never depends on order
    counting.sort(key=lambda e: (float(e.data["score"]), str(e.data["juror"])))
    n = len(counting)
    k = jury_trim_count(n, config.jury_trim_fraction)
    votes = tuple(
        JuryVote(
            juror=str(event.data["juror"]),
            score=float(event.data["score"]),
            timestamp=event.timestamp,
            event_id=event.id,
            dropped=index < k or index >= n - k,
        )
        for index, event in enumerate(counting)
    )
    value = jury_value([v.score for v in votes], config.jury_trim_fraction, config.jury_aggregate)
    timestamp = max(event.timestamp for event in events)
    age = age_in_days(timestamp, at)
    lost = decay_points(age, config.decay_grace_days, config.decay_points_per_week)
    superseded_votes = tuple(
        JuryVote(str(e.data["juror"]), float(e.data["score"]), e.timestamp, e.id, dropped=True)
        for e in sorted(superseded, key=lambda e: (str(e.data["juror"]), *_vote_order(e)))
    )
    return Observation(
        dimension=dimension,
        score=value,
        timestamp=timestamp,
        age_days=age,
        decay_points=lost,
        decayed_score=max(0.0, value - lost),
        eval_set=eval_set,
        event_ids=tuple(sorted(event.id for event in events)),
        jury=JuryDetail(
            eval_set=eval_set,
            size=n,
            trimmed_each_end=k,
            aggregate=config.jury_aggregate,
            votes=votes,
            superseded=superseded_votes,
        ),
    )


def observations(
    eval_events: Sequence[EventRecord], *, at: datetime, config: TrustConfig | None = None
) -> dict[str, list[Observation]]:
    """Every dimension's observations at ``at`` (SCORING.md §3 'Jury', 'Time decay').

    Only ``eval_result`` events at or before ``at`` naming one of the 16 dimensions with a
    finite score count.  Votes carrying both ``eval_set`` and ``juror`` form juries by
    ``(eval_set, dimension)``; any other ``eval_result`` is an observation on its own.
    Observations come sorted by (timestamp, eval_set, first event id), so the result does
    not depend on the order of the log.
    """
    config = config or TrustConfig()
    require_aware(at)
    singles: list[Observation] = []
    juries: dict[tuple[str, str], list[EventRecord]] = {}
    for event in eval_events:
        if event.type != "eval_result" or event.timestamp > at:
            continue
        dimension = event.data.get("dimension")
        score = as_finite(event.data.get("score"))
        if dimension not in TRUST_WEIGHTS or score is None:
            continue
        eval_set = _text(event.data.get("eval_set"))
        juror = _text(event.data.get("juror"))
        if eval_set is not None and juror is not None:
            juries.setdefault((str(dimension), eval_set), []).append(event)
            continue
        value = score
        age = age_in_days(event.timestamp, at)
        lost = decay_points(age, config.decay_grace_days, config.decay_points_per_week)
        singles.append(
            Observation(
                dimension=str(dimension),
                score=value,
                timestamp=event.timestamp,
                age_days=age,
                decay_points=lost,
                decayed_score=max(0.0, value - lost),
                eval_set=eval_set,
                event_ids=(event.id,),
            )
        )
    found = singles + [
        _jury_observation(dimension, eval_set, events, at, config)
        for (dimension, eval_set), events in juries.items()
    ]
    found.sort(key=lambda o: (o.timestamp, o.eval_set or "", o.event_ids[0], o.score))
    out: dict[str, list[Observation]] = {}
    for observation in found:
        out.setdefault(observation.dimension, []).append(observation)
    return out


def _finite_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def as_finite(value: Any) -> float | None:
    """The value as a float when it is a finite number (not a bool), else None."""
    return float(value) if _finite_number(value) else None


def require_aware(at: datetime) -> None:
    """Refuse a naive time (ValueError): the time asked for must be timezone-aware."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError("the time asked for must be timezone-aware")
