"""How an organization's scoring configuration is stored (document 004 §7.2, SCORING.md).

``AAAFConfig`` (aaaf.scoring.defaults) is the one place defaults live; the database
stores only what an organization set:

* ``org_configs`` columns: window, validity, minimum tasks, recency weights (in document
  004's ``{"0_7_days": 1.0, ...}`` form) and the re-assessment threshold;
* ``dimension_weight_configs`` rows: one axis's weights, all dimensions at once;
* ``organizations.domain_taxonomy``: the taxonomy;
* ``org_configs.extra``: every other *(config)* knob (review checklist, speed baselines,
  calibration threshold, ...), by ``AAAFConfig`` field name.

Input is validated here (``INVALID_REQUEST`` naming the key) and weights through
``AAAFConfig.with_overrides`` (``WEIGHT_SUM_INVALID``, SCORING.md §0).

Every change is recorded (issue 21) in ``org_config_changes``: when, which settings changed
(``{name: {"before", "after"}}``) and the whole configuration before and after, by the
document 004 §6.2 names (:func:`config_snapshot`).  :func:`config_in_force_at` rebuilds the
configuration an organization had at any instant from it — what an appeal re-scores an
assessment with (the configuration in force when the assessment ran).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.dimensions import weights_for_declared
from aaaf.scoring.results import iso
from aaaf.store import tables as t
from aaaf.store.row_mapping import record_from_row

# AAAFConfig field -> org_configs column
COLUMN_FIELDS: Mapping[str, str] = {
    "window_days": "assessment_window_days",
    "validity_days": "validity_period_days",
    "min_tasks_performance": "min_tasks_performance",
    "min_tasks_capability": "min_tasks_capability",
    "reassessment_task_threshold": "reassessment_task_threshold",
}
WEIGHT_FIELDS: Mapping[str, str] = {"performance_weights": "performance", "capability_weights": "capability"}
CONFIG_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AAAFConfig))
EXTRA_FIELDS: tuple[str, ...] = tuple(
    name
    for name in CONFIG_FIELDS
    if name not in COLUMN_FIELDS and name not in WEIGHT_FIELDS and name not in ("recency_weights", "taxonomy")
)
# the names AAAFConfig.to_dict() and document 004 §6.2 use, accepted as aliases
ALIASES: Mapping[str, str] = {
    "assessment_window_days": "window_days",
    "validity_period_days": "validity_days",
    "minimum_tasks_performance": "min_tasks_performance",
    "minimum_tasks_capability": "min_tasks_capability",
    "domain_taxonomy": "taxonomy",
    "review_checklist": "checklist",
}

_POSITIVE_INTS = (
    "window_days",
    "validity_days",
    "rate_limit_per_minute",
    "event_retention_days",
    "stress_result_retention_days",
)
_BOOLEANS = ("review_before_issue", "benchmark_opt_in")
_NON_NEGATIVE_INTS = (
    "min_tasks_performance",
    "min_tasks_capability",
    "reassessment_task_threshold",
    "consistency_min_group",
    "expiring_notice_days",
    "appeal_window_days",
    "audit_min_tasks",
    "uncertainty_seed",
    "uncertainty_resamples",
)
_POSITIVE_FLOATS = ("baseline_errors_per_task",)
_NON_NEGATIVE_FLOATS = ("calibration_threshold", "future_tolerance_seconds")
_UNIT_FLOATS = ("audit_rate", "audit_honesty_threshold", "borderline_probability")


def _invalid(key: str, message: str, value: Any) -> AAAFError:
    return AAAFError(
        "INVALID_REQUEST",
        f"Invalid configuration value for {key}: {message}.",
        {"field": key, "value": value},
    )


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _string_list(key: str, value: Any, *, allow_empty: bool) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _invalid(key, "expected a list of strings", value)
    items = tuple(value)
    if not all(isinstance(item, str) and item.strip() for item in items):
        raise _invalid(key, "every entry must be a non-empty string", value)
    if len(set(items)) != len(items):
        raise _invalid(key, "entries must be unique", value)
    if not items and not allow_empty:
        raise _invalid(key, "the list must not be empty", value)
    return items


def recency_weights_from_json(stored: Mapping[str, Any] | Sequence[Any]) -> tuple[tuple[int, float], ...]:
    """Recency weights from document 004's ``{"0_7_days": 1.0}`` form or ``[[7, 1.0], ...]`` pairs."""
    pairs: list[tuple[int, float]] = []
    if isinstance(stored, Mapping):
        bands: list[tuple[int, int]] = []
        for label, weight in stored.items():
            parts = str(label).split("_")
            if len(parts) != 3 or parts[2] != "days" or not parts[0].isdigit() or not parts[1].isdigit():
                raise _invalid(
                    "recency_weights", f"key {label!r} is not of the form '<from>_<to>_days'", stored
                )
            bands.append((int(parts[0]), int(parts[1])))
            pairs.append((int(parts[1]), weight))
        # the bands must tile the ages from 0 without a gap: 0_7, 8_14, 15_30
        expected_from = 0
        for low, high in sorted(bands, key=lambda band: band[1]):
            if low != expected_from or high < low:
                raise _invalid(
                    "recency_weights",
                    f"age bands must follow each other from 0 without gap or overlap "
                    f"(a band from {expected_from} days expected, got {low}_{high}_days)",
                    stored,
                )
            expected_from = high + 1
    else:
        for pair in stored:
            if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise _invalid("recency_weights", "expected [max_age_days, weight] pairs", stored)
            max_age, weight = pair
            if isinstance(max_age, bool) or not isinstance(max_age, int) or max_age < 0:
                raise _invalid("recency_weights", "a max age must be a non-negative integer", stored)
            pairs.append((max_age, weight))
    if not pairs:
        raise _invalid("recency_weights", "at least one age band is needed", stored)
    for _, weight in pairs:
        if not _is_number(weight) or not 0.0 <= weight <= 1.0:
            raise _invalid("recency_weights", "weights must be numbers in [0, 1]", stored)
    if not any(weight > 0 for _, weight in pairs):
        raise _invalid("recency_weights", "at least one age band needs a weight above 0", stored)
    pairs.sort()
    if len({age for age, _ in pairs}) != len(pairs):
        raise _invalid("recency_weights", "age bands overlap", stored)
    return tuple((age, float(weight)) for age, weight in pairs)


def recency_weights_to_json(pairs: Sequence[tuple[int, float]]) -> dict[str, float]:
    """Document 004 §7.2's stored form: bands ``<from>_<to>_days`` from 0, inclusive."""
    out: dict[str, float] = {}
    lower = 0
    for max_age, weight in sorted(pairs):
        out[f"{lower}_{max_age}_days"] = float(weight)
        lower = max_age + 1
    return out


def normalise_changes(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Config changes keyed by ``AAAFConfig`` field names, with values checked and typed."""
    out: dict[str, Any] = {}
    for raw_key, value in changes.items():
        key = ALIASES.get(raw_key, raw_key)
        if key not in CONFIG_FIELDS:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Unknown configuration key {raw_key!r}.",
                {"field": raw_key, "known": sorted(set(CONFIG_FIELDS) | set(ALIASES))},
            )
        out[key] = _normalise_value(key, value, raw_key)
    return out


def _normalise_value(key: str, value: Any, label: str | None = None) -> Any:
    """``value`` checked and typed for the field ``key``; errors name ``label`` (the key as given)."""
    name = label or key
    if key in _POSITIVE_INTS or key in _NON_NEGATIVE_INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _invalid(name, f"expected a whole number, got {value!r}", value)
        minimum = 1 if key in _POSITIVE_INTS else 0
        if value < minimum:
            raise _invalid(name, f"out of range: must be at least {minimum}", value)
        return value
    if key in _BOOLEANS:
        if not isinstance(value, bool):
            raise _invalid(name, f"expected true or false, got {value!r}", value)
        return value
    if key in _POSITIVE_FLOATS or key in _NON_NEGATIVE_FLOATS:
        if not _is_number(value) or value < 0 or (key in _POSITIVE_FLOATS and value == 0):
            raise _invalid(
                name,
                "expected a finite non-negative number" + (", above 0" if key in _POSITIVE_FLOATS else ""),
                value,
            )
        return float(value)
    if key in _UNIT_FLOATS:  # SCORING.md §2.6 audit rate and honesty threshold
        if not _is_number(value) or not 0 <= value <= 1 or (key == "audit_rate" and value == 0):
            raise _invalid(
                name, "expected a number in [0, 1]" + (", above 0" if key == "audit_rate" else ""), value
            )
        return float(value)
    if key in WEIGHT_FIELDS:
        if not isinstance(value, Mapping):
            raise _invalid(name, "expected an object of dimension weights", value)
        return dict(value)  # checked by AAAFConfig.with_overrides (WEIGHT_SUM_INVALID)
    if key == "recency_weights":
        return recency_weights_from_json(value)
    if key == "taxonomy":
        return _string_list(name, value, allow_empty=False)
    if key == "checklist":
        return _string_list(name, value, allow_empty=True)
    if key == "speed_baselines":
        if not isinstance(value, Mapping) or not value:
            raise _invalid(name, "expected an object of complexity level -> seconds", value)
        baselines: dict[int, float] = {}
        for level, seconds in value.items():
            level_text = str(level)
            if not level_text.isdigit() or not 1 <= int(level_text) <= 5:
                raise _invalid(name, f"complexity level {level!r} is not 1-5", value)
            if not _is_number(seconds) or seconds <= 0:
                raise _invalid(name, f"baseline of level {level} must be a positive number of seconds", value)
            baselines[int(level_text)] = float(seconds)
        return baselines
    raise _invalid(
        name, "this key cannot be changed", value
    )  # pragma: no cover - every field is handled above


def extra_to_json(key: str, value: Any) -> Any:
    """An ``extra`` knob as stored in JSON."""
    if key == "speed_baselines":
        return {str(level): seconds for level, seconds in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value


def extra_from_json(extra: Mapping[str, Any]) -> dict[str, Any]:
    """The ``extra`` knobs as ``AAAFConfig`` values (unknown keys from a newer version are ignored)."""
    out: dict[str, Any] = {}
    for key, value in extra.items():
        if key not in EXTRA_FIELDS:
            continue
        if key == "speed_baselines":
            out[key] = {int(level): float(seconds) for level, seconds in value.items()}
        elif key == "checklist":
            out[key] = tuple(value)
        else:
            out[key] = value
    return out


def build_config(
    config_row: Mapping[str, Any],
    weight_rows: Sequence[tuple[str, str, float]],
    taxonomy: Sequence[str],
) -> AAAFConfig:
    """The organization's ``AAAFConfig``: stored values over the defaults.

    Stored weights are used as stored (they were checked when written) while they name the
    axis's declared dimensions; a table stored when the axis had other dimensions is carried
    over by ``weights_for_declared``; an axis without stored weights keeps the built-in table.
    """
    values: dict[str, Any] = {field: config_row[column] for field, column in COLUMN_FIELDS.items()}
    values["recency_weights"] = recency_weights_from_json(config_row["recency_weights"])
    values["taxonomy"] = tuple(taxonomy)
    for axis_field, axis in WEIGHT_FIELDS.items():
        stored = {dimension: weight for row_axis, dimension, weight in weight_rows if row_axis == axis}
        if stored:  # stored for other dimensions: carried over by one rule (docs/scoring.md §1)
            values[axis_field] = weights_for_declared(axis, stored)
    values.update(extra_from_json(config_row["extra"] or {}))
    return AAAFConfig(**values)


# ------------------------------------------------------------------------------ history (issue 21)

# AAAFConfig field -> the name people and the API use (document 004 §6.2 where it has one)
PUBLIC_NAMES: Mapping[str, str] = {field: alias for alias, field in ALIASES.items()}


def public_name(field: str) -> str:
    return PUBLIC_NAMES.get(field, field)


def config_snapshot(config: AAAFConfig) -> dict[str, Any]:
    """Every setting of ``config`` as JSON, by its public name (accepted back by ``normalise_changes``)."""
    out: dict[str, Any] = {}
    for field in CONFIG_FIELDS:
        value = getattr(config, field)
        if field == "recency_weights":
            out[public_name(field)] = recency_weights_to_json(value)
        elif field in WEIGHT_FIELDS:
            out[public_name(field)] = {name: float(weight) for name, weight in value.items()}
        else:
            out[public_name(field)] = extra_to_json(field, value)
    return out


def config_from_snapshot(snapshot: Mapping[str, Any]) -> AAAFConfig:
    """The ``AAAFConfig`` a snapshot describes (settings it lacks keep their defaults)."""
    known = {key: value for key, value in snapshot.items() if ALIASES.get(key, key) in CONFIG_FIELDS}
    return AAAFConfig().with_overrides(**normalise_changes(known))


def snapshot_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{name: {"before", "after"}}`` for every setting whose value differs."""
    return {
        key: {"before": before.get(key), "after": after.get(key)}
        for key in after
        if before.get(key) != after.get(key)
    }


@dataclass(frozen=True)
class ConfigChange:
    """One recorded change of an organization's configuration."""

    id: uuid.UUID
    changed_at: datetime
    changes: Mapping[str, Mapping[str, Any]]
    config_before: Mapping[str, Any]
    config_after: Mapping[str, Any]
    changed_by: str | None = None
    """Who made it (an API key or OAuth client, or the command line); None before 0024."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "changed_at": iso(self.changed_at),
            "changed_by": self.changed_by,
            "changes": {key: dict(value) for key, value in self.changes.items()},
        }


def record_config_change(
    connection: Connection,
    organization_id: uuid.UUID,
    before: AAAFConfig,
    after: AAAFConfig,
    changed_at: datetime,
    changed_by: str | None = None,
) -> ConfigChange | None:
    """Record the change from ``before`` to ``after`` by ``changed_by`` (None, and nothing
    written, when they are equal)."""
    old, new = config_snapshot(before), config_snapshot(after)
    changes = snapshot_changes(old, new)
    if not changes:
        return None
    change = ConfigChange(uuid.uuid4(), changed_at, changes, old, new, changed_by)
    connection.execute(
        insert(t.org_config_changes).values(
            id=change.id,
            organization_id=organization_id,
            changed_at=changed_at,
            changes=changes,
            config_before=old,
            config_after=new,
            changed_by=changed_by,
        )
    )
    return change


def _change_from_row(row: Any) -> ConfigChange:
    return record_from_row(ConfigChange, row)


def read_config_history(connection: Connection, organization_id: uuid.UUID) -> list[ConfigChange]:
    """Every recorded change, oldest first."""
    table = t.org_config_changes
    rows = connection.execute(
        select(table)
        .where(table.c.organization_id == organization_id)
        .order_by(table.c.changed_at, table.c.id)
    ).all()
    return [_change_from_row(row) for row in rows]


def config_in_force_at(
    connection: Connection, organization_id: uuid.UUID, when: datetime, current: AAAFConfig
) -> AAAFConfig:
    """The configuration the organization had at ``when``.

    The state after the last change made at or before ``when``; with none, the state before
    the first change made after it; with no change recorded at all, ``current``.
    """
    table = t.org_config_changes
    mine = table.c.organization_id == organization_id
    row = connection.execute(
        select(table.c.config_after)
        .where(mine, table.c.changed_at <= when)
        .order_by(table.c.changed_at.desc(), table.c.id.desc())
        .limit(1)
    ).one_or_none()
    if row is not None:
        return config_from_snapshot(row.config_after)
    row = connection.execute(
        select(table.c.config_before)
        .where(mine, table.c.changed_at > when)
        .order_by(table.c.changed_at, table.c.id)
        .limit(1)
    ).one_or_none()
    if row is not None:
        return config_from_snapshot(row.config_before)
    return current
