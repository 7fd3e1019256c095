"""The scheme spec an assessment was computed with: name, version and the exact config.

Every stored assessment records its spec (SCORING.md §0 'Traceability', §6 retention: an
assessment keeps "its scores, spec and event ids"), so that an accepted appeal re-scores
with the configuration the assessment used, not the organization's current one
(SCORING.md §2.4), and ``explain`` recomputes a dimension exactly as it was computed.

The config is written field by field, losslessly: JSON floats round-trip exactly and
mappings keep their order (the order of ``weights_used`` in a result follows the weight
table's), so ``config_from_spec(spec_of(c).config) == c`` for every config.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AAAFConfig

AAAF_SCHEME = "aaaf"
AAAF_SCHEME_VERSION = "1"
"""Bumped whenever a formula of SCORING.md §2 changes what the same evidence and config score."""

_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AAAFConfig))


@dataclass(frozen=True)
class SchemeSpec:
    """What a result was computed with: ``config`` is the JSON form of the scheme's config."""

    name: str
    version: str
    config: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "config": dict(self.config)}


def config_to_json(config: AAAFConfig) -> dict[str, Any]:
    """Every field of ``config`` by its field name, as JSON values (tuples → lists, int keys → text)."""
    out: dict[str, Any] = {}
    for name in _FIELDS:
        value = getattr(config, name)
        if name == "recency_weights":
            value = [[int(age), float(weight)] for age, weight in value]
        elif name == "speed_baselines":
            value = {str(level): float(seconds) for level, seconds in value.items()}
        elif isinstance(value, Mapping):
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def config_from_json(data: Mapping[str, Any]) -> AAAFConfig:
    """The config :func:`config_to_json` wrote; a field it lacks keeps its default (an older spec)."""
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"The recorded scheme config has unknown field(s) {', '.join(unknown)}.",
            {"unknown": unknown},
        )
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name == "recency_weights":
            values[name] = tuple((int(age), float(weight)) for age, weight in value)
        elif name == "speed_baselines":
            values[name] = {int(level): float(seconds) for level, seconds in value.items()}
        elif name in ("performance_weights", "capability_weights"):
            values[name] = {str(k): float(v) for k, v in value.items()}
        elif name in ("taxonomy", "checklist"):
            values[name] = tuple(value)
        else:
            values[name] = value
    return AAAFConfig(**values)


def aaaf_spec(config: AAAFConfig) -> SchemeSpec:
    """The spec of an AAAF assessment scored with ``config``."""
    return SchemeSpec(AAAF_SCHEME, AAAF_SCHEME_VERSION, config_to_json(config))


def aaaf_config_of(spec: SchemeSpec) -> AAAFConfig:
    """The AAAF config a spec records (``INVALID_REQUEST`` when it is another scheme's)."""
    if spec.name != AAAF_SCHEME:
        raise AAAFError(
            "INVALID_REQUEST",
            f"The assessment was computed with scheme {spec.name!r}, not {AAAF_SCHEME!r}.",
            {"scheme": spec.name},
        )
    return config_from_json(spec.config)
