"""`aaaf config`: the organization's scoring configuration (document 004 §6.2 "Configuration").

    aaaf config show [--json]                                    every setting, and its history
    aaaf config set KEY VALUE                                    one §6.2 setting
    aaaf config weights --axis performance|capability FILE|K=V,...
    aaaf config taxonomy a,b,...

``KEY`` is one of the §6.2 names SCORING.md §7 "Shapes" lists.  Weights given as ``K=V`` pairs or
a JSON file are merged over the axis's current weights and the result must sum to 1.0 ± 0.001
(``WEIGHT_SUM_INVALID`` naming the sum, exit 2).  Every change is recorded with its time;
``config show`` lists them.  An assessment keeps the scores it was computed with; later ones
use the configuration in force when they run.
"""

from __future__ import annotations

import json
import math
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json, split_csv
from aaaf.errors import AAAFError
from aaaf.models.admin import ConfigChange, ConfigSetResult, ConfigShow
from aaaf.scoring.defaults import AXES

# SCORING.md §7 "Shapes": the keys `aaaf config set` takes, document 004 §6.2's names
SETTABLE_KEYS: tuple[str, ...] = (
    "assessment_window_days",
    "validity_period_days",
    "minimum_tasks_performance",
    "minimum_tasks_capability",
    "recency_weights",
    "reassessment_task_threshold",
    "rate_limit_per_minute",  # issue 13 §4: API requests per minute per key
    # issue 14: document 004 §5.2 step 5's review before issue; SCORING.md §6 retention
    "review_before_issue",
    "event_retention_days",
    "stress_result_retention_days",
    "benchmark_opt_in",  # issue 20 §2: join the anonymised cross-organization benchmark
)
WEIGHT_KEYS = {"performance": "performance_weights", "capability": "capability_weights"}
TAXONOMY_KEY = "domain_taxonomy"

config_app = typer.Typer(
    name="config",
    help="The organization's scoring configuration: show it, set a value, weights, taxonomy.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


def register(app: typer.Typer) -> None:
    app.add_typer(config_app, name="config")


class Axis(StrEnum):
    performance = "performance"
    capability = "capability"


# ----------------------------------------------------------------------------- parsing


def _pairs(text: str, what: str) -> dict[str, str]:
    """``a=1,b=2`` → ``{"a": "1", "b": "2"}``; a malformed or repeated pair is bad input."""
    out: dict[str, str] = {}
    for part in split_csv(text):
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise AAAFError(
                "INVALID_REQUEST", f"{what}: {part!r} is not NAME=VALUE", {"field": what, "value": part}
            )
        if name in out:
            raise AAAFError(
                "INVALID_REQUEST", f"{what}: {name} is given twice", {"field": what, "name": name}
            )
        out[name] = value
    if not out:
        raise AAAFError("INVALID_REQUEST", f"{what}: nothing given", {"field": what})
    return out


def _number(text: str, what: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise AAAFError(
            "INVALID_REQUEST",
            f"{what}: the value of {name} must be a finite number, got {text!r}",
            {"field": what, "name": name, "value": text},
        )
    return value


def parse_value(key: str, text: str) -> Any:
    """``config set``'s VALUE: JSON (``30``, ``{"0_7_days": 1.0, ...}``) or ``K=V,...`` pairs."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if "=" in text:
        return {name: _number(value, key, name) for name, value in _pairs(text, key).items()}
    return text  # the store names what it expected instead


def read_weights(spec: str, axis: str) -> dict[str, float]:
    """``FILE`` (a JSON object) or ``K=V,...``; unknown dimension names are bad input."""
    what = f"{axis} weights"
    path = Path(spec)
    if "=" not in spec or path.is_file():
        if not path.is_file():
            raise AAAFError(
                "INVALID_REQUEST",
                f"{what}: {spec!r} is neither a JSON file nor NAME=VALUE pairs",
                {"field": "weights", "value": spec},
            )
        try:
            given = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise AAAFError(
                "INVALID_REQUEST", f"{path}: not JSON ({error})", {"field": "weights", "file": str(path)}
            ) from error
        if not isinstance(given, dict):
            raise AAAFError(
                "INVALID_REQUEST",
                f"{path}: weights are a JSON object {{dimension: weight}}",
                {"field": "weights", "file": str(path)},
            )
        weights: dict[str, Any] = {str(name): value for name, value in given.items()}
        for name, value in weights.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"{what}: the value of {name} must be a finite number, got {value!r}",
                    {"field": "weights", "name": name, "value": value},
                )
    else:
        weights = {name: _number(value, what, name) for name, value in _pairs(spec, what).items()}
    unknown = [name for name in weights if name not in AXES[axis]]
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"unknown {axis} dimension(s): {', '.join(unknown)}; the {axis} dimensions are "
            f"{', '.join(AXES[axis])}",
            {"field": "weights", "unknown": unknown, "dimensions": list(AXES[axis])},
        )
    return {name: float(value) for name, value in weights.items()}


# ----------------------------------------------------------------------------- changing


CLI_AUTHOR = "the command line (aaaf config)"


def _apply(db: str | None, key: str, value: Any, as_json: bool) -> None:
    """Store one change and say what it did: before → after, and when."""
    _apply_changes(db, {key: value}, as_json)


def _apply_changes(db: str | None, changes: dict[str, Any], as_json: bool) -> None:
    """Store the changes (one recorded change, or none when nothing differs) and say what they did."""
    from aaaf.services import configuration

    with open_session(db) as session:
        org = session.org
        before = len(org.config_history())
        configuration.change_config(org, changes, changed_by=CLI_AUTHOR)
        history = org.config_history()
    change = history[-1] if len(history) > before else None
    if as_json:
        print_json(
            ConfigSetResult(
                changed=change is not None,
                change=None if change is None else ConfigChange(**change.to_dict()),
            )
        )
        return
    if change is None:
        for key, value in changes.items():
            console.print(f"{key}: unchanged (already {_shown(value)})", markup=False)
        return
    for name, values in change.changes.items():
        console.print(f"{name}: {_shown(values['before'])} → {_shown(values['after'])}", markup=False)
    console.print(f"changed at {change.to_dict()['changed_at']}", markup=False)


@config_app.command("set", context_settings={"ignore_unknown_options": True})  # VALUE may be "-5"
@handle_errors
def set_command(
    key: Annotated[str, typer.Argument(help=f"One of: {', '.join(SETTABLE_KEYS)}.")],
    value: Annotated[
        str,
        typer.Argument(
            help="The value: a whole number, or for recency_weights a JSON object such as "
            '\'{"0_7_days": 1.0, "8_14_days": 0.8, "15_30_days": 0.6}\' (or 0_7_days=1.0,...).'
        ),
    ],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set one configuration value (docs/cli.md lists the keys); the change is recorded with its time."""
    if key not in SETTABLE_KEYS:
        hint = ""
        if key in (*WEIGHT_KEYS.values(), "weights"):
            hint = " (weights: aaaf config weights --axis performance|capability ...)"
        elif key in (TAXONOMY_KEY, "taxonomy"):
            hint = " (taxonomy: aaaf config taxonomy a,b,...)"
        raise AAAFError(
            "INVALID_REQUEST",
            f"unknown configuration key {key!r}{hint}; aaaf config set takes one of {', '.join(SETTABLE_KEYS)}",
            {"field": "key", "value": key, "known": list(SETTABLE_KEYS)},
        )
    _apply(db, key, parse_value(key, value), as_json)


@config_app.command("apply")
@handle_errors
def apply_command(
    path: Annotated[
        Path, typer.Argument(help="A configuration file (aaaf init writes one: aaaf-config.toml).")
    ],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Apply a configuration file: every value that differs from the organization's is changed (one recorded change)."""
    from aaaf.cli.commands.config_file import read_config_file

    values = read_config_file(path.read_text(encoding="utf-8"), str(path))
    with open_session(db) as session:
        current = config_snapshot_of(session.org.config())
    changes = {key: value for key, value in values.items() if current.get(key) != value}
    if not changes:
        if as_json:
            print_json(ConfigSetResult(changed=False, change=None))
        else:
            console.print(
                f"{path}: nothing to change (every value is the organization's already)", markup=False
            )
        return
    _apply_changes(db, changes, as_json)


def config_snapshot_of(config: Any) -> dict[str, Any]:
    from aaaf.store.org_config import config_snapshot

    return config_snapshot(config)


@config_app.command("weights")
@handle_errors
def weights_command(
    spec: Annotated[
        str,
        typer.Argument(
            help="A JSON file {dimension: weight} or NAME=VALUE pairs, e.g. accuracy=0.30,speed=0.10; "
            "merged over the axis's current weights."
        ),
    ],
    axis: Annotated[Axis, typer.Option("--axis", help="performance or capability.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set an axis's dimension weights; the merged set must sum to 1.0 ± 0.001 (WEIGHT_SUM_INVALID)."""
    given = read_weights(spec, axis.value)
    with open_session(db) as session:
        current = dict(session.org.config().weights(axis.value))
    merged = {**current, **given}
    try:
        _apply(db, WEIGHT_KEYS[axis.value], merged, as_json)
    except AAAFError as error:
        if error.code != "WEIGHT_SUM_INVALID":
            raise
        given_text = ", ".join(f"{name}={value:g}" for name, value in given.items())
        raise AAAFError(
            error.code,
            f"{error.message.rstrip('.')} ({given_text} merged over the current {axis.value} weights; "
            "give every dimension or changes that keep the sum at 1).",
            {**error.details, "given": given},
        ) from error


@config_app.command("taxonomy")
@handle_errors
def taxonomy_command(
    domains: Annotated[str, typer.Argument(help="The domains, comma-separated (replaces the taxonomy).")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth counts over it)."""
    names = split_csv(domains)
    if not names:
        raise AAAFError("INVALID_REQUEST", "the taxonomy needs at least one domain", {"field": "taxonomy"})
    _apply(db, TAXONOMY_KEY, names, as_json)


# ----------------------------------------------------------------------------- showing


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{name} {_shown(item)}" for name, item in value.items())
    if isinstance(value, list):
        return ", ".join(_shown(item) for item in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@config_app.command("show")
@handle_errors
def show(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every setting with when it last changed, the weights, the taxonomy and the change history."""
    from aaaf.store.org_config import config_snapshot

    with open_session(db, must_exist=True) as session:
        snapshot = config_snapshot(session.org.config())
        history = session.org.config_history()
        organization = session.organization.name
    if as_json:
        print_json(
            ConfigShow(
                organization=organization,
                config=snapshot,
                history=[ConfigChange(**change.to_dict()) for change in history],
            )
        )
        return
    last_changed: dict[str, str] = {}
    for change in history:
        for name in change.changes:
            last_changed[name] = change.to_dict()["changed_at"]
    table = Table(title=f"Configuration of {organization}")
    for column in ("setting", "value", "changed at"):
        table.add_column(column)
    weight_keys = set(WEIGHT_KEYS.values())
    # the §6.2 settings first, then the taxonomy, then the other knobs
    order = [*SETTABLE_KEYS, TAXONOMY_KEY, *(name for name in snapshot if name not in SETTABLE_KEYS)]
    for name in dict.fromkeys(order):
        if name in snapshot and name not in weight_keys:
            table.add_row(name, _shown(snapshot[name]), last_changed.get(name, "default"))
    console.print(table)
    for axis, key in WEIGHT_KEYS.items():
        weights = Table(title=f"{axis.capitalize()} weights (changed at {last_changed.get(key, 'default')})")
        weights.add_column("dimension")
        weights.add_column("weight", justify="right")
        for dimension, weight in snapshot[key].items():
            weights.add_row(dimension, f"{weight:g}")
        console.print(weights)
    if not history:
        console.print("no change recorded: every setting is the default")
        return
    changes = Table(title="Changes (oldest first)")
    for column in ("changed at", "setting", "before", "after"):
        changes.add_column(column)
    for change in history:
        stamp = change.to_dict()["changed_at"]
        for name, values in change.changes.items():
            changes.add_row(stamp, name, _shown(values["before"]), _shown(values["after"]))
    console.print(changes)
