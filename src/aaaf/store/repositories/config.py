"""The organization's scoring configuration (document 004 §6.2 Configuration).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`OrgScoped` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, Select, delete, insert, select, update
from sqlalchemy.exc import NoResultFound

from aaaf.scoring.defaults import AAAFConfig
from aaaf.store import tables as t
from aaaf.store.org_config import (
    COLUMN_FIELDS,
    EXTRA_FIELDS,
    WEIGHT_FIELDS,
    ConfigChange,
    build_config,
    config_in_force_at,
    extra_to_json,
    normalise_changes,
    read_config_history,
    recency_weights_to_json,
    record_config_change,
)
from aaaf.store.repositories.base import OrgScoped, check_one_of, now_utc
from aaaf.store.verified_keys import forget_organization_keys


def write_org_config(
    connection: Connection,
    organization_id: uuid.UUID,
    current: AAAFConfig,
    changes: Mapping[str, object],
    *,
    now: datetime | None = None,
    changed_by: str | None = None,
) -> AAAFConfig:
    """Validate ``changes`` against ``current`` and store them (inside the caller's transaction).

    A change that alters something is recorded with its time and ``changed_by``
    (``org_config_changes``); one that alters nothing writes nothing.
    """
    normalised = normalise_changes(changes)
    updated = current.with_overrides(**normalised)  # WEIGHT_SUM_INVALID
    config_row = connection.execute(
        select(t.org_configs.c.id, t.org_configs.c.extra).where(
            t.org_configs.c.organization_id == organization_id
        )
    ).one()
    stamp = now or now_utc()
    if record_config_change(connection, organization_id, current, updated, stamp, changed_by) is None:
        return updated
    values: dict[str, object] = {}
    for field, column in COLUMN_FIELDS.items():
        if field in normalised:
            values[column] = getattr(updated, field)
    if "recency_weights" in normalised:
        values["recency_weights"] = recency_weights_to_json(updated.recency_weights)
    extra_changes = {
        key: extra_to_json(key, getattr(updated, key)) for key in EXTRA_FIELDS if key in normalised
    }
    if extra_changes:
        values["extra"] = {**(config_row.extra or {}), **extra_changes}
    values["updated_at"] = stamp
    if "rate_limit_per_minute" in normalised:  # read with the organization's keys
        forget_organization_keys(organization_id)
    connection.execute(update(t.org_configs).where(t.org_configs.c.id == config_row.id).values(**values))
    for field, axis in WEIGHT_FIELDS.items():
        if field in normalised:
            _replace_weights(connection, config_row.id, axis, getattr(updated, field), stamp)
    if "taxonomy" in normalised:
        connection.execute(
            update(t.organizations)
            .where(t.organizations.c.id == organization_id)
            .values(domain_taxonomy=list(updated.taxonomy), updated_at=stamp)
        )
    return updated


def _replace_weights(
    connection: Connection, config_id: uuid.UUID, axis: str, weights: Mapping[str, float], stamp: datetime
) -> None:
    table = t.dimension_weight_configs
    connection.execute(delete(table).where(table.c.org_config_id == config_id, table.c.axis == axis))
    connection.execute(
        insert(table),
        [
            {
                "id": uuid.uuid4(),
                "org_config_id": config_id,
                "axis": axis,
                "dimension": dimension,
                "weight": float(weight),
                "created_at": stamp,
            }
            for dimension, weight in weights.items()
        ],
    )


def org_config_query(organization_id: uuid.UUID) -> Select[Any]:
    """The query of :func:`read_org_config`: the ``org_configs`` row joined to the
    organization (the taxonomy) and to its stored weights (a row each; none: one row)."""
    weights = t.dimension_weight_configs
    return (
        select(
            t.org_configs,
            t.organizations.c.domain_taxonomy,
            weights.c.axis.label("weight_axis"),
            weights.c.dimension.label("weight_dimension"),
            weights.c.weight.label("weight_value"),
        )
        .join(t.organizations, t.organizations.c.id == t.org_configs.c.organization_id)
        .outerjoin(weights, weights.c.org_config_id == t.org_configs.c.id)
        .where(t.org_configs.c.organization_id == organization_id)
    )


def org_config_from_rows(organization_id: uuid.UUID, rows: Sequence[RowMapping]) -> AAAFConfig:
    """The configuration in the rows of :func:`org_config_query` (a weight's row may come more
    than once when the query joins more)."""
    if not rows:
        raise NoResultFound(f"organization {organization_id} has no configuration")
    stored = {
        (row["weight_axis"], row["weight_dimension"]): row["weight_value"]
        for row in rows
        if row["weight_axis"] is not None
    }
    weight_rows = [(axis, name, value) for (axis, name), value in stored.items()]
    return build_config(dict(rows[0]), weight_rows, rows[0]["domain_taxonomy"])


def read_org_config(connection: Connection, organization_id: uuid.UUID) -> AAAFConfig:
    """The organization's configuration in one round trip (:func:`org_config_query`)."""
    rows = connection.execute(org_config_query(organization_id)).mappings().all()
    return org_config_from_rows(organization_id, rows)


class ConfigRepository(OrgScoped):
    """The organization's scoring configuration (document 004 §6.2 Configuration)."""

    def config(self) -> AAAFConfig:
        """The org's scoring configuration: stored values over the defaults (read once in a
        shared read, :meth:`reading_together`: it is immutable)."""
        memo = self._read_once if self._bound is None else None
        if memo is not None and ("config", "") in memo:
            found: AAAFConfig = memo["config", ""]
            return found
        with self._reading() as connection:
            config = read_org_config(connection, self.organization_id)
        if memo is not None:
            memo["config", ""] = config
        return config

    def config_dict(self) -> dict[str, object]:
        """``config().to_dict()`` (the API's ``GET .../config``)."""
        return self.config().to_dict()

    def update_config(self, *, changed_by: str | None = None, **changes: object) -> AAAFConfig:
        """Change config values; keys are ``AAAFConfig`` field names or their ``to_dict`` names.

        Validated through ``AAAFConfig.with_overrides`` (weights: ``WEIGHT_SUM_INVALID``);
        an unknown key or an invalid value is ``INVALID_REQUEST``.  Nothing is stored
        unless every change is valid.
        """
        with self._writing() as connection:
            current = read_org_config(connection, self.organization_id)
            return write_org_config(
                connection, self.organization_id, current, changes, now=self._clock(), changed_by=changed_by
            )

    def config_history(self) -> list[ConfigChange]:
        """Every recorded configuration change, oldest first (issue 21)."""
        with self._reading() as connection:
            return read_config_history(connection, self.organization_id)

    def config_at(self, when: datetime) -> AAAFConfig:
        """The configuration in force at ``when`` (rebuilt from the change history)."""
        with self._reading() as connection:
            current = read_org_config(connection, self.organization_id)
            return config_in_force_at(connection, self.organization_id, when, current)

    def set_weights(
        self, axis: str, weights: Mapping[str, float], *, changed_by: str | None = None
    ) -> AAAFConfig:
        """Replace one axis's weights (checked: ``WEIGHT_SUM_INVALID``, SCORING.md §0)."""
        check_one_of("axis", axis, t.AXES)
        return self.update_config(changed_by=changed_by, **{f"{axis}_weights": dict(weights)})

    def set_taxonomy(self, domains: Sequence[str], *, changed_by: str | None = None) -> AAAFConfig:
        """Replace the domain taxonomy (SCORING.md §2.3 domain_breadth)."""
        return self.update_config(changed_by=changed_by, taxonomy=list(domains))
