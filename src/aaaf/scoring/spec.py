"""The scheme spec an AAAF assessment was computed with: name, version and the exact config.

Every stored assessment records its spec (SCORING.md §0 'Traceability', §6 retention: an
assessment keeps "its scores, spec and event ids"), so that an accepted appeal re-scores
with the configuration the assessment used, not the organization's current one
(SCORING.md §2.4), and ``explain`` recomputes a dimension exactly as it was computed.

One spec type and one serialisation for every scheme: :class:`~aaaf.scoring.schemes.SchemeSpec`
and the registered scheme's ``config_to_dict`` / ``config_from_dict`` (pydantic's
``TypeAdapter`` over the config dataclass: JSON floats round-trip exactly, mappings keep their
order, a field an older spec lacks keeps its default), so ``config_from_json(config_to_json(c))
== c`` for every config.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.schemes import SchemeSpec, get_scheme

__all__ = ["AAAF_SCHEME", "AAAF_SCHEME_VERSION", "SchemeSpec", "aaaf_config_of", "aaaf_spec"]

AAAF_SCHEME = aaaf_scheme.SCHEME
AAAF_SCHEME_VERSION = aaaf_scheme.VERSION


def config_to_json(config: AAAFConfig) -> dict[str, Any]:
    """Every field of ``config`` by its field name, as JSON values."""
    return get_scheme(AAAF_SCHEME).config_to_dict(config)


def config_from_json(data: Mapping[str, Any]) -> AAAFConfig:
    """The config :func:`config_to_json` wrote (``INVALID_REQUEST`` naming a field it refuses)."""
    unknown = sorted(set(data) - set(AAAFConfig.__dataclass_fields__))
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"The recorded scheme config has unknown field(s) {', '.join(unknown)}.",
            {"unknown": unknown},
        )
    config: AAAFConfig = get_scheme(AAAF_SCHEME).config_from_dict(data)
    return config


def aaaf_spec(config: AAAFConfig) -> SchemeSpec:
    """The spec of an AAAF assessment scored with ``config``."""
    return get_scheme(AAAF_SCHEME).spec(config)


def aaaf_config_of(spec: SchemeSpec) -> AAAFConfig:
    """The AAAF config a spec records (``INVALID_REQUEST`` when it is another scheme's)."""
    if spec.name != AAAF_SCHEME:
        raise AAAFError(
            "INVALID_REQUEST",
            f"The assessment was computed with scheme {spec.name!r}, not {AAAF_SCHEME!r}.",
            {"scheme": spec.name},
        )
    return config_from_json(spec.config)
