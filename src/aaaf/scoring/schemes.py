"""Scoring schemes as one protocol, registered by name (DESIGN.md "one scheme = one module";
issue 10 §1).

A scheme is a name, a version, a config type and ``score(evidence, config, at) → result``.
Services, the CLI and (next) the API and workers look a scheme up by name instead of
importing its module, and every stored result can record the :class:`SchemeSpec` it was
computed with — name, version and the exact config — so that it can be replayed (an appeal
re-scores with the spec the assessment used, not the organization's current config).

The config types are the schemes' frozen dataclasses; pydantic's ``TypeAdapter`` is their
model: it turns a recorded config (JSON) back into the dataclass and gives its JSON Schema.
The built-in schemes (``aaaf``, ``trust``, ``workflow``, ``layered``) register when their
definitions are first asked for (:mod:`aaaf.scoring.builtin_schemes`), as inspect_ai's
registry loads scorers by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from aaaf.errors import AAAFError

_BUILTIN_MODULE = "aaaf.scoring.builtin_schemes"


@dataclass(frozen=True)
class SchemeSpec:
    """What a result was computed with: enough to compute it again, byte for byte."""

    name: str
    version: str
    config: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "config": dict(self.config)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SchemeSpec:
        try:
            return cls(name=str(data["name"]), version=str(data["version"]), config=dict(data["config"]))
        except (KeyError, TypeError) as error:
            raise AAAFError(
                "INVALID_REQUEST", f"A scheme spec needs name, version and config ({error}).", {}
            ) from None


@dataclass(frozen=True)
class Scheme:
    """One scoring scheme: ``score(evidence, config, at)`` is pure (no I/O, no clock)."""

    name: str
    version: str
    config_type: type[Any]
    score: Callable[[Sequence[Any], Any, datetime], Any]
    summary: str
    _adapter: TypeAdapter[Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_adapter", TypeAdapter(self.config_type))

    def default_config(self) -> Any:
        return self.config_type()

    def config_to_dict(self, config: Any) -> dict[str, Any]:
        """The config as JSON-ready values (every field, so a replay needs nothing else)."""
        if not isinstance(config, self.config_type):
            raise TypeError(f"{self.name} takes a {self.config_type.__name__}, not {type(config).__name__}")
        dumped: dict[str, Any] = self._adapter.dump_python(config, mode="json")
        return dumped

    def config_from_dict(self, data: Mapping[str, Any]) -> Any:
        """The config a recorded dict describes (``INVALID_REQUEST`` naming what is wrong)."""
        from pydantic import ValidationError

        try:
            return self._adapter.validate_python(dict(data))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise AAAFError(
                "INVALID_REQUEST",
                f"Invalid {self.name} configuration: {where}: {first['msg']}.",
                {"field": where, "scheme": self.name},
            ) from None

    def config_schema(self) -> dict[str, Any]:
        """The config's JSON Schema."""
        schema: dict[str, Any] = self._adapter.json_schema()
        return schema

    def spec(self, config: Any) -> SchemeSpec:
        return SchemeSpec(self.name, self.version, self.config_to_dict(config))


_REGISTRY: dict[str, Scheme] = {}


def register(scheme: Scheme) -> Scheme:
    """Add a scheme under its name (a second scheme of the same name is an error)."""
    existing = _REGISTRY.get(scheme.name)
    if existing is not None and existing is not scheme:
        raise ValueError(f"a scheme named {scheme.name!r} is already registered")
    _REGISTRY[scheme.name] = scheme
    return scheme


def _load_builtins() -> None:
    importlib.import_module(_BUILTIN_MODULE)


def scheme_names() -> tuple[str, ...]:
    _load_builtins()
    return tuple(sorted(_REGISTRY))


def get_scheme(name: str) -> Scheme:
    """The scheme registered as ``name`` (``INVALID_REQUEST`` naming the known ones)."""
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown scoring scheme {name!r}; known schemes: {', '.join(sorted(_REGISTRY))}.",
            {"field": "scheme", "value": name},
        ) from None


def replay(spec: SchemeSpec, evidence: Sequence[Any], at: datetime) -> Any:
    """Score ``evidence`` again with exactly the recorded spec.  A spec of another version of
    the scheme is refused: its formula may differ, and a silent re-score would not be a replay."""
    scheme = get_scheme(spec.name)
    if spec.version != scheme.version:
        raise AAAFError(
            "CONFLICT",
            f"The result was computed with {spec.name} {spec.version}; this installation has"
            f" {scheme.version}, whose formula may differ.",
            {"scheme": spec.name, "recorded_version": spec.version, "version": scheme.version},
        )
    return scheme.score(evidence, scheme.config_from_dict(spec.config), at)
