"""Repositories of one organization: every query is filtered by it.

A row of another organization is indistinguishable from a missing one (``NOT_FOUND``),
so a tenant can neither read nor probe another's agents, assessments or badges.
Everything returned is a frozen dataclass of :mod:`aaaf.store.records`.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AXES as AXIS_DIMENSIONS
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.spec import SchemeSpec
from aaaf.scoring.trace import DimensionEvidence
from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.event_reader import read_events_by_agent
from aaaf.store.event_writer import EventLike, Stored, write_events
from aaaf.store.evidence import evidence_values, read_evidence, write_evidence
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
from aaaf.store.records import (
    Agent,
    Appeal,
    Assessment,
    AssessmentEvidence,
    Badge,
    BadgeSlot,
    DimensionScore,
    Organization,
    ScoreHistoryEntry,
    SignedCredential,
    StressTest,
    StressTestResult,
    TrustOverride,
    Webhook,
)

AgentRef = uuid.UUID | str

_STATUS_INDEX_ATTEMPTS = 5
# an appeal still waiting for its decision (SCORING.md §7: at most one per assessment)
OPEN_APPEAL_STATUSES = ("filed", "under_review")


class DimensionRow(NamedTuple):
    """One dimension result to store (SCORING.md §0): ``score`` None is stored as NULL."""

    axis: str
    dimension: str
    score: float | None
    sample_size: int
    evidence_count: int
    details: Mapping[str, Any]
    reason: str | None = None


def now_utc() -> datetime:
    return datetime.now(UTC)


def as_uuid(value: uuid.UUID | str | None) -> uuid.UUID | None:
    """A UUID from a UUID or its text, None when the text is not one (then nothing matches)."""
    if value is None or isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def not_found(kind: str, ref: object) -> AAAFError:
    return AAAFError("NOT_FOUND", f"{kind} {ref} not found.", {"resource": kind.lower(), "id": str(ref)})


def _check_agent_name(name: object) -> None:
    """A name is a non-empty string within the id limit, without NUL or lone surrogates
    (issue 21: the same on SQLite and PostgreSQL; ``Settings.event_max_id_chars``)."""
    if not isinstance(name, str) or not name.strip():
        raise AAAFError("INVALID_REQUEST", "An agent needs a non-empty name.", {"field": "name"})
    from aaaf.evidence.limits import printable, text_problem
    from aaaf.settings import get_settings

    problem = text_problem(name, max_chars=get_settings().event_max_id_chars)
    if problem is not None:
        raise AAAFError(
            "INVALID_REQUEST", f"agent name {printable(name, 60)!r} {problem}.", {"field": "name"}
        )


def _check_one_of(field: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Invalid {field} {value!r}; expected one of {', '.join(allowed)}.",
            {"field": field, "value": value, "allowed": list(allowed)},
        )


def _dimension_order(axis: str, dimension: str) -> tuple[int, int, str]:
    """Performance before capability, each in its document order (SCORING.md §2.2, §2.3)."""
    axis_rank = t.AXES.index(axis) if axis in t.AXES else len(t.AXES)
    names = AXIS_DIMENSIONS.get(axis, ())
    dimension_rank = names.index(dimension) if dimension in names else len(names)
    return axis_rank, dimension_rank, dimension


# row -> record ---------------------------------------------------------------------------


def organization_from_row(row: Row[Any]) -> Organization:
    return Organization(
        id=row.id,
        name=row.name,
        api_key_hash=row.api_key_hash,
        domain_taxonomy=tuple(row.domain_taxonomy),
        status=row.status,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _agent_from_row(row: Row[Any]) -> Agent:
    return Agent(
        id=row.id,
        organization_id=row.organization_id,
        name=row.name,
        claimed_domains=tuple(row.claimed_domains),
        tools=tuple(row.tools),
        description=row.description,
        metadata=dict(row.metadata),
        status=row.status,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _dimension_from_row(row: Row[Any]) -> DimensionScore:
    return DimensionScore(
        id=row.id,
        assessment_id=row.assessment_id,
        axis=row.axis,
        dimension=row.dimension,
        score=row.score,
        sample_size=row.sample_size,
        evidence_count=row.evidence_count,
        details=dict(row.details),
        reason=row.reason,
        created_at=row.created_at,
    )


def _appeal_from_row(row: Row[Any]) -> Appeal:
    return Appeal(
        id=row.id,
        assessment_id=row.assessment_id,
        dimensions_challenged=tuple(row.dimensions_challenged),
        justification=row.justification,
        counter_evidence=tuple(dict(item) for item in row.counter_evidence),
        status=row.status,
        reviewer_notes=row.reviewer_notes,
        resolution=None if row.resolution is None else dict(row.resolution),
        filed_at=row.filed_at,
        resolved_at=row.resolved_at,
    )


def _assessment_from_row(
    row: Row[Any], dimensions: Sequence[DimensionScore] = (), appeals: Sequence[Appeal] = ()
) -> Assessment:
    return Assessment(
        id=row.id,
        agent_id=row.agent_id,
        agent_name=row.agent_name,
        organization_id=row.organization_id,
        type=row.type,
        status=row.status,
        dimension=row.dimension,
        window_start=row.window_start,
        window_end=row.window_end,
        performance_composite=row.performance_composite,
        performance_tier=row.performance_tier,
        capability_composite=row.capability_composite,
        capability_tier=row.capability_tier,
        evidence_summary=row.evidence_summary,
        result=row.result,
        error=row.error,
        anomalous=bool(row.anomalous),
        review_state=row.review_state,
        valid_until=row.valid_until,
        created_at=row.created_at,
        completed_at=row.completed_at,
        dimensions=tuple(sorted(dimensions, key=lambda d: _dimension_order(d.axis, d.dimension))),
        appeals=tuple(appeals),
        reviewed_by=row.reviewed_by,
        reviewed_at=row.reviewed_at,
    )


def insert_stress_test(
    connection: Connection,
    *,
    organization_id: uuid.UUID | None,
    dimension: str,
    task_definition: Mapping[str, Any],
    complexity_level: int | None,
    domain: str | None,
    expected_outcome: Mapping[str, Any] | None,
) -> uuid.UUID:
    """Insert one stress test definition (organization None = the system library); its id."""
    stress_test_id = uuid.uuid4()
    connection.execute(
        insert(t.stress_tests).values(
            id=stress_test_id,
            organization_id=organization_id,
            dimension=dimension,
            complexity_level=complexity_level,
            domain=domain,
            task_definition=dict(task_definition),
            expected_outcome=None if expected_outcome is None else dict(expected_outcome),
            created_at=now_utc(),
        )
    )
    return stress_test_id


def badge_from_row(row: Row[Any]) -> Badge:
    return Badge(
        id=row.id,
        assessment_id=row.assessment_id,
        agent_id=row.agent_id,
        organization_id=row.organization_id,
        status_index=row.status_index,
        svg_url=row.svg_url,
        png_url=row.png_url,
        json_data=dict(row.json_data),
        credential_jwt=row.credential_jwt,
        issued_at=row.issued_at,
        valid_until=row.valid_until,
        revoked=bool(row.revoked),
        revoked_at=row.revoked_at,
        revoke_reason=row.revoke_reason,
        superseded_at=row.superseded_at,
    )


def _history_from_row(row: Row[Any]) -> ScoreHistoryEntry:
    return ScoreHistoryEntry(
        id=row.id,
        organization_id=row.organization_id,
        agent_id=row.agent_id,
        scheme=row.scheme,
        score=row.score,
        tier=row.tier,
        details=dict(row.details),
        was_anomalous=bool(row.was_anomalous),
        committed=bool(row.committed),
        reviewed_by=row.reviewed_by,
        reviewed_at=row.reviewed_at,
        review_decision=row.review_decision,
        computed_at=row.computed_at,
        at=row.at,
    )


def _override_from_row(row: Row[Any]) -> TrustOverride:
    return TrustOverride(
        id=row.id,
        organization_id=row.organization_id,
        weights=dict(row.weights),
        set_by=row.set_by,
        set_at=row.set_at,
        active=bool(row.active),
    )


def _webhook_from_row(row: Row[Any]) -> Webhook:
    return Webhook(
        id=row.id,
        organization_id=row.organization_id,
        url=row.url,
        event_types=tuple(row.event_types),
        secret=row.secret,
        secret_hash=row.secret_hash,
        active=bool(row.active),
        created_at=row.created_at,
    )


def stress_test_from_row(row: Row[Any]) -> StressTest:
    return StressTest(
        id=row.id,
        organization_id=row.organization_id,
        dimension=row.dimension,
        complexity_level=row.complexity_level,
        domain=row.domain,
        task_definition=dict(row.task_definition),
        expected_outcome=None if row.expected_outcome is None else dict(row.expected_outcome),
        created_at=row.created_at,
    )


def _stress_result_from_row(row: Row[Any]) -> StressTestResult:
    return StressTestResult(
        id=row.id,
        assessment_id=row.assessment_id,
        stress_test_id=row.stress_test_id,
        agent_id=row.agent_id,
        outcome=row.outcome,
        score=row.score,
        details=dict(row.details),
        executed_at=row.executed_at,
    )


def _dimension_values(assessment_id: uuid.UUID, row: DimensionRow | tuple[Any, ...]) -> dict[str, Any]:
    dim = row if isinstance(row, DimensionRow) else DimensionRow(*row)
    _check_one_of("axis", dim.axis, t.AXES)
    return {
        "assessment_id": assessment_id,
        "axis": dim.axis,
        "dimension": dim.dimension,
        "score": None if dim.score is None else float(dim.score),
        "sample_size": int(dim.sample_size),
        "evidence_count": int(dim.evidence_count),
        "details": dict(dim.details),
        "reason": dim.reason,
    }


def write_org_config(
    connection: Connection, organization_id: uuid.UUID, current: AAAFConfig, changes: Mapping[str, Any]
) -> AAAFConfig:
    """Validate ``changes`` against ``current`` and store them (inside the caller's transaction).

    A change that alters something is recorded with its time (``org_config_changes``); one
    that alters nothing writes nothing.
    """
    normalised = normalise_changes(changes)
    updated = current.with_overrides(**normalised)  # WEIGHT_SUM_INVALID
    config_row = connection.execute(
        select(t.org_configs.c.id, t.org_configs.c.extra).where(
            t.org_configs.c.organization_id == organization_id
        )
    ).one()
    stamp = now_utc()
    if record_config_change(connection, organization_id, current, updated, stamp) is None:
        return updated
    values: dict[str, Any] = {}
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


def read_org_config(connection: Connection, organization_id: uuid.UUID) -> AAAFConfig:
    config_row = (
        connection.execute(select(t.org_configs).where(t.org_configs.c.organization_id == organization_id))
        .mappings()
        .one()
    )
    weights = connection.execute(
        select(
            t.dimension_weight_configs.c.axis,
            t.dimension_weight_configs.c.dimension,
            t.dimension_weight_configs.c.weight,
        ).where(t.dimension_weight_configs.c.org_config_id == config_row["id"])
    ).all()
    taxonomy = connection.execute(
        select(t.organizations.c.domain_taxonomy).where(t.organizations.c.id == organization_id)
    ).scalar_one()
    return build_config(
        dict(config_row), [(row.axis, row.dimension, row.weight) for row in weights], taxonomy
    )


class OrgStore:
    """Everything one organization owns; obtained from ``Store.scope(org_id)``.

    Cheap to create (it holds the engine and the organization's id); every method runs
    in its own transaction.
    """

    def __init__(self, engine: Engine, organization_id: uuid.UUID) -> None:
        self._engine = engine
        self.organization_id = organization_id

    def __repr__(self) -> str:
        return f"OrgStore(organization_id={self.organization_id})"

    @property
    def engine(self) -> Engine:
        """The engine this scope runs on (for batch writers and worker processes)."""
        return self._engine

    def organization(self) -> Organization:
        """This organization."""
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(t.organizations).where(t.organizations.c.id == self.organization_id)
            ).one_or_none()
        if row is None:
            raise not_found("Organization", self.organization_id)
        return organization_from_row(row)

    # configuration (document 004 §6.2 Configuration, SCORING.md *(config)* items) -------
    def config(self) -> AAAFConfig:
        """The org's scoring configuration: stored values over the defaults."""
        with read_connection(self._engine) as connection:
            return read_org_config(connection, self.organization_id)

    def config_dict(self) -> dict[str, Any]:
        """``config().to_dict()`` (the API's ``GET .../config``)."""
        return self.config().to_dict()

    def update_config(self, **changes: Any) -> AAAFConfig:
        """Change config values; keys are ``AAAFConfig`` field names or their ``to_dict`` names.

        Validated through ``AAAFConfig.with_overrides`` (weights: ``WEIGHT_SUM_INVALID``);
        an unknown key or an invalid value is ``INVALID_REQUEST``.  Nothing is stored
        unless every change is valid.
        """
        with write_transaction(self._engine) as connection:
            current = read_org_config(connection, self.organization_id)
            return write_org_config(connection, self.organization_id, current, changes)

    def config_history(self) -> list[ConfigChange]:
        """Every recorded configuration change, oldest first (issue 21)."""
        with read_connection(self._engine) as connection:
            return read_config_history(connection, self.organization_id)

    def config_at(self, when: datetime) -> AAAFConfig:
        """The configuration in force at ``when`` (rebuilt from the change history)."""
        with read_connection(self._engine) as connection:
            current = read_org_config(connection, self.organization_id)
            return config_in_force_at(connection, self.organization_id, when, current)

    def set_weights(self, axis: str, weights: Mapping[str, float]) -> AAAFConfig:
        """Replace one axis's weights (checked: ``WEIGHT_SUM_INVALID``, SCORING.md §0)."""
        _check_one_of("axis", axis, t.AXES)
        return self.update_config(**{f"{axis}_weights": dict(weights)})

    def set_taxonomy(self, domains: Sequence[str]) -> AAAFConfig:
        """Replace the domain taxonomy (SCORING.md §2.3 domain_breadth)."""
        return self.update_config(taxonomy=list(domains))

    # agents ------------------------------------------------------------------------------
    def _agent_row(self, connection: Connection, name_or_id: AgentRef) -> Row[Any] | None:
        by_org = t.agents.c.organization_id == self.organization_id
        agent_id = as_uuid(name_or_id)
        if agent_id is not None:
            row = connection.execute(select(t.agents).where(by_org, t.agents.c.id == agent_id)).one_or_none()
            if row is not None:
                return row
        return connection.execute(
            select(t.agents).where(by_org, t.agents.c.name == str(name_or_id))
        ).one_or_none()

    def _require_agent(self, connection: Connection, name_or_id: AgentRef) -> Row[Any]:
        row = self._agent_row(connection, name_or_id)
        if row is None:
            raise not_found("Agent", name_or_id)
        return row

    def enroll_agent(
        self,
        name: str,
        *,
        claimed_domains: Sequence[str] = (),
        tools: Sequence[str] = (),
        description: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Agent:
        """Enroll an agent (document 004 §5.1 step 1); ``CONFLICT`` if the name is taken."""
        _check_agent_name(name)
        stamp = now_utc()
        agent_id = uuid.uuid4()
        try:
            with write_transaction(self._engine) as connection:
                if self._agent_row(connection, name) is not None:
                    raise self._name_taken(name)
                connection.execute(
                    insert(t.agents).values(
                        id=agent_id,
                        organization_id=self.organization_id,
                        name=name,
                        claimed_domains=list(claimed_domains),
                        tools=list(tools),
                        description=description,
                        metadata=dict(metadata or {}),
                        status="enrolled",
                        created_at=stamp,
                        updated_at=stamp,
                    )
                )
        except IntegrityError as error:  # a concurrent enrolment of the same name
            raise self._name_taken(name) from error
        return self.get_agent(agent_id)

    def get_or_enroll_agent(self, name: str) -> tuple[Agent, bool]:
        """The agent named ``name``, enrolled first if there is none: ``(agent, enrolled)``.

        Race-free (``collect --enroll``, issue 21): the insert is ``ON CONFLICT DO
        NOTHING`` on the unique (organization, name), so two writers enrolling the same
        new name both get the one agent and neither fails.
        """
        _check_agent_name(name)
        found = self.find_agent(name)
        if found is not None:
            return found, False
        from sqlalchemy.dialects import postgresql, sqlite

        stamp = now_utc()
        agent_id = uuid.uuid4()
        dialect_insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        with write_transaction(self._engine) as connection:
            inserted = connection.execute(
                dialect_insert(t.agents)
                .values(
                    id=agent_id,
                    organization_id=self.organization_id,
                    name=name,
                    claimed_domains=[],
                    tools=[],
                    description=None,
                    metadata={},
                    status="enrolled",
                    created_at=stamp,
                    updated_at=stamp,
                )
                .on_conflict_do_nothing(index_elements=[t.agents.c.organization_id, t.agents.c.name])
                .returning(t.agents.c.id)
            ).scalar_one_or_none()
            row = connection.execute(
                select(t.agents).where(
                    t.agents.c.organization_id == self.organization_id, t.agents.c.name == name
                )
            ).one()
        return _agent_from_row(row), inserted is not None

    @staticmethod
    def _name_taken(name: str) -> AAAFError:
        return AAAFError("CONFLICT", f"An agent named {name!r} is already enrolled.", {"name": name})

    def get_agent(self, name_or_id: AgentRef) -> Agent:
        """The agent by id or name, or ``NOT_FOUND`` naming what was asked for."""
        agent = self.find_agent(name_or_id)
        if agent is None:
            raise not_found("Agent", name_or_id)
        return agent

    def find_agent(self, name_or_id: AgentRef) -> Agent | None:
        """The agent by id or name, or None."""
        with read_connection(self._engine) as connection:
            row = self._agent_row(connection, name_or_id)
        return None if row is None else _agent_from_row(row)

    def agents(self, *, status: str | None = None) -> list[Agent]:
        """The organization's agents ordered by name."""
        query = select(t.agents).where(t.agents.c.organization_id == self.organization_id)
        if status is not None:
            query = query.where(t.agents.c.status == status)
        with read_connection(self._engine) as connection:
            rows = connection.execute(query.order_by(t.agents.c.name)).all()
        return [_agent_from_row(row) for row in rows]

    def update_agent(
        self,
        name_or_id: AgentRef,
        *,
        name: str | None = None,
        claimed_domains: Sequence[str] | None = None,
        tools: Sequence[str] | None = None,
        description: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Agent:
        """Change the given fields (None leaves a field as it is); a taken name is ``CONFLICT``."""
        values: dict[str, Any] = {}
        if name is not None:
            if not name.strip():
                raise AAAFError("INVALID_REQUEST", "An agent needs a non-empty name.", {"field": "name"})
            values["name"] = name
        if claimed_domains is not None:
            values["claimed_domains"] = list(claimed_domains)
        if tools is not None:
            values["tools"] = list(tools)
        if description is not None:
            values["description"] = description
        if metadata is not None:
            values["metadata"] = dict(metadata)
        try:
            with write_transaction(self._engine) as connection:
                row = self._require_agent(connection, name_or_id)
                if name is not None and name != row.name and self._agent_row(connection, name) is not None:
                    raise self._name_taken(name)
                if values:
                    values["updated_at"] = now_utc()
                    connection.execute(update(t.agents).where(t.agents.c.id == row.id).values(**values))
        except IntegrityError as error:
            raise self._name_taken(str(name)) from error
        return self.get_agent(row.id)

    def set_agent_status(self, name_or_id: AgentRef, status: str) -> Agent:
        """enrolled | active | suspended | archived (document 004 §7.2)."""
        _check_one_of("status", status, t.AGENT_STATUSES)
        with write_transaction(self._engine) as connection:
            row = self._require_agent(connection, name_or_id)
            connection.execute(
                update(t.agents).where(t.agents.c.id == row.id).values(status=status, updated_at=now_utc())
            )
        return self.get_agent(row.id)

    # events -------------------------------------------------------------------------------
    def _own_agent_ids(self, connection: Connection, agent_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        wanted = list(set(agent_ids))
        found: set[uuid.UUID] = set()
        for start in range(0, len(wanted), 1000):
            found.update(
                connection.execute(
                    select(t.agents.c.id).where(
                        t.agents.c.organization_id == self.organization_id,
                        t.agents.c.id.in_(wanted[start : start + 1000]),
                    )
                ).scalars()
            )
        return found

    def add_events(self, items: Sequence[tuple[uuid.UUID, EventLike]]) -> list[Stored]:
        """Store validated events in one transaction; idempotent by (agent, key).

        The key is the event's ``id``, or else the digest of its content (SCORING.md §1
        *2026-11-23*).  Returns, per item, ``Stored.NEW`` when it was newly stored,
        ``Stored.DUPLICATE`` when its key was already stored for that agent (or came
        earlier in the same batch) with the same content, ``Stored.CONFLICT`` when with
        other content (``DUPLICATE_CONFLICT``).
        An agent id not of this organization is ``NOT_FOUND`` and nothing is stored.

        An unknown type is ``INVALID_EVENT_TYPE``.  How this is made fast (``make
        bench``: a million events) is described in :mod:`aaaf.store.event_writer`.
        """
        if not items:
            return []
        with write_transaction(self._engine) as connection:
            requested = {agent_id for agent_id, _ in items}
            missing = requested - self._own_agent_ids(connection, requested)
            if missing:
                raise not_found("Agent", sorted(str(agent_id) for agent_id in missing)[0])
            return write_events(connection, items)

    def events(
        self,
        agent_id: uuid.UUID,
        *,
        types: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[EventRecord]:
        """The agent's events ordered by (timestamp, id); ``since``/``until`` inclusive.

        ``NOT_FOUND`` when the agent is not this organization's.
        """
        with read_connection(self._engine) as connection:
            row = self._require_agent(connection, agent_id)
            return read_events_by_agent(connection, [row.id], types=types, since=since, until=until)[row.id]

    def events_for_agents(
        self,
        agent_ids: Sequence[uuid.UUID],
        *,
        types: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> dict[uuid.UUID, list[EventRecord]]:
        """Events of several agents in one streamed query (``assess --all``).

        Every requested agent of this organization has an entry (possibly empty); ids of
        other organizations' agents are ``NOT_FOUND``.
        """
        wanted = list(dict.fromkeys(agent_ids))
        out: dict[uuid.UUID, list[EventRecord]] = {}
        if not wanted:
            return out
        with read_connection(self._engine) as connection:
            own = self._own_agent_ids(connection, wanted)
            missing = [agent_id for agent_id in wanted if agent_id not in own]
            if missing:
                raise not_found("Agent", missing[0])
            return read_events_by_agent(connection, wanted, types=types, since=since, until=until)

    def count_events(self, agent_id: uuid.UUID, *, types: Sequence[str] | None = None) -> int:
        """How many events the agent has (of the given types)."""
        with read_connection(self._engine) as connection:
            row = self._require_agent(connection, agent_id)
            query = select(func.count()).select_from(t.events).where(t.events.c.agent_id == row.id)
            if types is not None:
                query = query.where(t.events.c.type.in_(list(types)))
            return int(connection.execute(query).scalar_one())

    def event_counts(self, agent_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, int]:
        """How many events each of the given agents has (0 for none); other organizations'
        agents count 0.  One grouped scan of the ``(agent_id, timestamp)`` index."""
        counts = dict.fromkeys(agent_ids, 0)
        own_agents = select(t.agents.c.id).where(t.agents.c.organization_id == self.organization_id)
        query = (
            select(t.events.c.agent_id, func.count())
            .where(t.events.c.agent_id.in_(own_agents))
            .group_by(t.events.c.agent_id)
        )
        with read_connection(self._engine) as connection:
            for agent_id, count in connection.execute(query):
                if agent_id in counts:
                    counts[agent_id] = int(count)
        return counts

    def delete_events_before(self, cutoff: datetime) -> int:
        """Drop this organization's events older than ``cutoff`` (document 004 §7.3 retention)."""
        own_agents = select(t.agents.c.id).where(t.agents.c.organization_id == self.organization_id)
        with write_transaction(self._engine) as connection:
            result = connection.execute(
                delete(t.events).where(t.events.c.agent_id.in_(own_agents), t.events.c.timestamp < cutoff)
            )
            return int(result.rowcount)

    # assessments ----------------------------------------------------------------------------
    def _assessment_query(self) -> Any:
        return (
            select(
                t.assessments,
                t.agents.c.name.label("agent_name"),
                t.agents.c.organization_id.label("organization_id"),
            )
            .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
            .where(t.agents.c.organization_id == self.organization_id)
        )

    def _assessment_row(self, connection: Connection, assessment_id: uuid.UUID | str) -> Row[Any]:
        wanted = as_uuid(assessment_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                self._assessment_query().where(t.assessments.c.id == wanted)
            ).one_or_none()
        if row is None:
            raise not_found("Assessment", assessment_id)
        return row

    def _load_assessment(self, connection: Connection, assessment_id: uuid.UUID | str) -> Assessment:
        row = self._assessment_row(connection, assessment_id)
        dimensions = [
            _dimension_from_row(dim)
            for dim in connection.execute(
                select(t.dimension_scores).where(t.dimension_scores.c.assessment_id == row.id)
            )
        ]
        appeals = [
            _appeal_from_row(appeal)
            for appeal in connection.execute(
                select(t.appeals)
                .where(t.appeals.c.assessment_id == row.id)
                .order_by(t.appeals.c.filed_at, t.appeals.c.id)
            )
        ]
        return _assessment_from_row(row, dimensions, appeals)

    def create_assessment(
        self,
        agent_id: uuid.UUID,
        *,
        type: str,
        window_start: datetime,
        window_end: datetime,
        dimension: str | None = None,
        created_at: datetime | None = None,
    ) -> Assessment:
        """Start an assessment (status ``in_progress``).

        ``ASSESSMENT_IN_PROGRESS`` (document 004 §6.4) if the agent already has one
        running — enforced by a partial unique index, so two concurrent starts cannot
        both succeed.  A ``single_dimension`` assessment names its dimension.
        """
        _check_one_of("type", type, t.ASSESSMENT_TYPES)
        if type == "single_dimension" and not dimension:
            raise AAAFError(
                "INVALID_REQUEST",
                "A single_dimension assessment must name its dimension.",
                {"field": "dimension"},
            )
        assessment_id = uuid.uuid4()
        try:
            with write_transaction(self._engine) as connection:
                agent = self._require_agent(connection, agent_id)
                running = connection.execute(
                    select(t.assessments.c.id).where(
                        t.assessments.c.agent_id == agent.id, t.assessments.c.status == "in_progress"
                    )
                ).scalar_one_or_none()
                if running is not None:
                    raise self._in_progress(agent.name, running)
                connection.execute(
                    insert(t.assessments).values(
                        id=assessment_id,
                        agent_id=agent.id,
                        type=type,
                        status="in_progress",
                        dimension=dimension,
                        window_start=window_start,
                        window_end=window_end,
                        anomalous=False,
                        review_state="not_required",
                        created_at=created_at or now_utc(),
                    )
                )
        except IntegrityError as error:
            raise self._in_progress(str(agent_id), None) from error
        return self.get_assessment(assessment_id)

    @staticmethod
    def _in_progress(agent: str, running: uuid.UUID | None) -> AAAFError:
        details: dict[str, Any] = {"agent": agent}
        if running is not None:
            details["assessment_id"] = str(running)
        return AAAFError(
            "ASSESSMENT_IN_PROGRESS", f"An assessment is already running for agent {agent}.", details
        )

    def _require_status(self, row: Row[Any], allowed: Sequence[str], action: str) -> None:
        if row.status not in allowed:
            raise AAAFError(
                "CONFLICT",
                f"Cannot {action} assessment {row.id}: it is {row.status}.",
                {"assessment_id": str(row.id), "status": row.status},
            )

    def complete_assessment(
        self,
        assessment_id: uuid.UUID,
        *,
        result: Mapping[str, Any],
        dimension_rows: Sequence[DimensionRow | tuple[Any, ...]],
        performance_composite: float | None,
        performance_tier: str | None,
        capability_composite: float | None,
        capability_tier: str | None,
        evidence_summary: Mapping[str, Any],
        valid_until: datetime | None,
        completed_at: datetime,
        anomalous: bool = False,
        review_state: str = "not_required",
        spec: SchemeSpec | None = None,
        trace: DimensionEvidence | None = None,
    ) -> Assessment:
        """Record a finished assessment and its dimension rows in one transaction.

        Only an ``in_progress`` (or ``pending``) assessment can complete (else ``CONFLICT``).
        ``spec`` and ``trace`` (the scheme spec and the event ids each dimension used) are
        stored in ``assessment_evidence`` in the same transaction.
        """
        _check_one_of("review_state", review_state, t.REVIEW_STATES)
        with write_transaction(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            self._require_status(row, ("pending", "in_progress"), "complete")
            connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id)
                .values(
                    status="completed",
                    result=dict(result),
                    performance_composite=performance_composite,
                    performance_tier=performance_tier,
                    capability_composite=capability_composite,
                    capability_tier=capability_tier,
                    evidence_summary=dict(evidence_summary),
                    valid_until=valid_until,
                    completed_at=completed_at,
                    anomalous=anomalous,
                    review_state=review_state,
                )
            )
            rows = [
                {"id": uuid.uuid4(), **_dimension_values(row.id, dim), "created_at": completed_at}
                for dim in dimension_rows
            ]
            if rows:
                connection.execute(insert(t.dimension_scores), rows)
            if spec is not None:
                write_evidence(connection, evidence_values(row.id, spec, trace))
            return self._load_assessment(connection, row.id)

    def fail_assessment(
        self,
        assessment_id: uuid.UUID,
        error: Mapping[str, Any],
        completed_at: datetime,
        spec: SchemeSpec | None = None,
    ) -> Assessment:
        """Record why an assessment could not complete (e.g. ``INSUFFICIENT_EVIDENCE``)."""
        with write_transaction(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            self._require_status(row, ("pending", "in_progress"), "fail")
            connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id)
                .values(status="failed", error=dict(error), completed_at=completed_at)
            )
            if spec is not None:
                write_evidence(connection, evidence_values(row.id, spec, None))
            return self._load_assessment(connection, row.id)

    def get_assessment(self, assessment_id: uuid.UUID | str) -> Assessment:
        """The assessment with its dimensions and appeals, or ``NOT_FOUND``."""
        with read_connection(self._engine) as connection:
            return self._load_assessment(connection, assessment_id)

    def assessment_evidence(self, assessment_id: uuid.UUID | str) -> AssessmentEvidence | None:
        """The recorded spec and event ids of an assessment (``NOT_FOUND`` if it is not this
        organization's); None for an assessment stored before they were recorded (0004)."""
        with read_connection(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            return read_evidence(connection, row.id)

    def assessments(self, agent_id: uuid.UUID | None = None, status: str | None = None) -> list[Assessment]:
        """Assessments newest first (without dimensions/appeals; use get_assessment)."""
        query = self._assessment_query()
        with read_connection(self._engine) as connection:
            if agent_id is not None:
                agent = self._require_agent(connection, agent_id)
                query = query.where(t.assessments.c.agent_id == agent.id)
            if status is not None:
                query = query.where(t.assessments.c.status == status)
            rows = connection.execute(
                query.order_by(t.assessments.c.created_at.desc(), t.assessments.c.id.desc())
            ).all()
        return [_assessment_from_row(row) for row in rows]

    def latest_completed_assessment(self, agent_id: uuid.UUID) -> Assessment | None:
        """The agent's most recently completed assessment, with its dimensions (calibration, §2.4)."""
        with read_connection(self._engine) as connection:
            agent = self._require_agent(connection, agent_id)
            latest = connection.execute(
                self._assessment_query()
                .where(t.assessments.c.agent_id == agent.id, t.assessments.c.status == "completed")
                .order_by(t.assessments.c.completed_at.desc(), t.assessments.c.created_at.desc())
                .limit(1)
            ).one_or_none()
            return None if latest is None else self._load_assessment(connection, latest.id)

    def set_review_state(
        self,
        assessment_id: uuid.UUID,
        state: str,
        *,
        reviewer: str | None = None,
        at: datetime | None = None,
    ) -> Assessment:
        """not_required | pending_review | approved | rejected (SCORING.md §2.4, §6).

        ``reviewer`` and ``at`` record who decided a held assessment and when
        (``reviewed_by``, ``reviewed_at``); they are left as they were when not given.
        """
        _check_one_of("review_state", state, t.REVIEW_STATES)
        values: dict[str, Any] = {"review_state": state}
        if reviewer is not None:
            values["reviewed_by"] = reviewer
        if at is not None:
            values["reviewed_at"] = at
        with write_transaction(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            connection.execute(update(t.assessments).where(t.assessments.c.id == row.id).values(**values))
            return self._load_assessment(connection, row.id)

    def replace_dimension_scores(
        self,
        assessment_id: uuid.UUID,
        rows: Sequence[DimensionRow | tuple[Any, ...]],
        *,
        performance_composite: float | None,
        performance_tier: str | None,
        capability_composite: float | None,
        capability_tier: str | None,
        result: Mapping[str, Any],
        spec: SchemeSpec | None = None,
        trace: DimensionEvidence | None = None,
    ) -> Assessment:
        """Rewrite the given dimensions, composites, tiers and result in one transaction.

        For an accepted appeal (SCORING.md §2.4): only the rows named in ``rows`` change
        (matched by axis and dimension, inserted if absent); every other dimension row
        is left untouched, byte for byte.  Only a completed assessment can be re-scored.
        """
        with write_transaction(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            self._require_status(row, ("completed",), "re-score")
            scores = t.dimension_scores
            for dim in rows:
                values = _dimension_values(row.id, dim)
                changed = connection.execute(
                    update(scores)
                    .where(
                        scores.c.assessment_id == row.id,
                        scores.c.axis == values["axis"],
                        scores.c.dimension == values["dimension"],
                    )
                    .values(
                        score=values["score"],
                        sample_size=values["sample_size"],
                        evidence_count=values["evidence_count"],
                        details=values["details"],
                        reason=values["reason"],
                    )
                )
                if changed.rowcount == 0:
                    connection.execute(insert(scores).values(id=uuid.uuid4(), created_at=now_utc(), **values))
            connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id)
                .values(
                    performance_composite=performance_composite,
                    performance_tier=performance_tier,
                    capability_composite=capability_composite,
                    capability_tier=capability_tier,
                    result=dict(result),
                )
            )
            if spec is not None:
                write_evidence(connection, evidence_values(row.id, spec, trace))
            return self._load_assessment(connection, row.id)

    # appeals ------------------------------------------------------------------------------
    def file_appeal(
        self,
        assessment_id: uuid.UUID,
        *,
        dimensions: Sequence[str],
        justification: str,
        counter_evidence: Sequence[Mapping[str, Any]],
        filed_at: datetime,
    ) -> Appeal:
        """Record an appeal (status ``filed``); the rules of §2.4 are the service's job, but for
        one the store enforces because it is a race: an assessment has at most one *open*
        appeal (``filed`` or ``under_review``) — a second is ``APPEAL_NOT_ALLOWED`` (SCORING.md
        §7).  The assessment row is locked first (``FOR UPDATE`` on PostgreSQL; SQLite's
        ``BEGIN IMMEDIATE`` already serialises writers), so two concurrent filings cannot both pass.
        """
        appeal_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            connection.execute(
                select(t.assessments.c.id).where(t.assessments.c.id == row.id).with_for_update()
            )
            open_appeal = connection.execute(
                select(t.appeals.c.id, t.appeals.c.status)
                .where(t.appeals.c.assessment_id == row.id, t.appeals.c.status.in_(OPEN_APPEAL_STATUSES))
                .order_by(t.appeals.c.filed_at, t.appeals.c.id)
                .limit(1)
            ).one_or_none()
            if open_appeal is not None:
                raise AAAFError(
                    "APPEAL_NOT_ALLOWED",
                    f"appeal already open: {open_appeal.id} ({open_appeal.status}) on assessment {row.id}; "
                    "it must be resolved before another appeal is filed",
                    {
                        "assessment_id": str(row.id),
                        "open_appeal_id": str(open_appeal.id),
                        "open_appeal_status": open_appeal.status,
                    },
                )
            connection.execute(
                insert(t.appeals).values(
                    id=appeal_id,
                    assessment_id=row.id,
                    dimensions_challenged=list(dimensions),
                    justification=justification,
                    counter_evidence=[dict(item) for item in counter_evidence],
                    status="filed",
                    filed_at=filed_at,
                )
            )
        return self.get_appeal(appeal_id)

    def _appeal_row(self, connection: Connection, appeal_id: uuid.UUID | str) -> Row[Any]:
        wanted = as_uuid(appeal_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                select(t.appeals)
                .join(t.assessments, t.assessments.c.id == t.appeals.c.assessment_id)
                .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
                .where(t.appeals.c.id == wanted, t.agents.c.organization_id == self.organization_id)
            ).one_or_none()
        if row is None:
            raise not_found("Appeal", appeal_id)
        return row

    def get_appeal(self, appeal_id: uuid.UUID | str) -> Appeal:
        with read_connection(self._engine) as connection:
            return _appeal_from_row(self._appeal_row(connection, appeal_id))

    def appeals(self, assessment_id: uuid.UUID) -> list[Appeal]:
        """Appeals of one assessment, oldest first."""
        with read_connection(self._engine) as connection:
            row = self._assessment_row(connection, assessment_id)
            return [
                _appeal_from_row(appeal)
                for appeal in connection.execute(
                    select(t.appeals)
                    .where(t.appeals.c.assessment_id == row.id)
                    .order_by(t.appeals.c.filed_at, t.appeals.c.id)
                )
            ]

    def resolve_appeal(
        self,
        appeal_id: uuid.UUID,
        *,
        status: str,
        reviewer_notes: str | None,
        resolution: Mapping[str, Any] | None,
        resolved_at: datetime | None,
    ) -> Appeal:
        """Move an appeal to under_review, accepted or rejected; a decided appeal is ``CONFLICT``."""
        _check_one_of("status", status, ("under_review", "accepted", "rejected"))
        with write_transaction(self._engine) as connection:
            row = self._appeal_row(connection, appeal_id)
            if row.status in ("accepted", "rejected"):
                raise AAAFError(
                    "CONFLICT",
                    f"Appeal {row.id} was already {row.status}.",
                    {"appeal_id": str(row.id), "status": row.status},
                )
            connection.execute(
                update(t.appeals)
                .where(t.appeals.c.id == row.id)
                .values(
                    status=status,
                    reviewer_notes=reviewer_notes,
                    resolution=None if resolution is None else dict(resolution),
                    resolved_at=resolved_at,
                )
            )
            return _appeal_from_row(self._appeal_row(connection, row.id))

    # badges -------------------------------------------------------------------------------
    # One row per issued credential (migration 0003): an assessment has at most one current
    # credential; a superseded one keeps its status-list bit, set.

    def _badge_rows_of(self, assessment_id: uuid.UUID | str) -> Any:
        wanted = as_uuid(assessment_id)
        return select(t.badges).where(
            t.badges.c.assessment_id == wanted, t.badges.c.organization_id == self.organization_id
        )

    def _badge_row(self, connection: Connection, assessment_id: uuid.UUID | str) -> Row[Any] | None:
        """The assessment's latest credential: the current one, else the last superseded one.

        Bits are allocated in increasing order and a new credential is only inserted after
        its predecessor is superseded, so the latest credential is the highest index.
        """
        if as_uuid(assessment_id) is None:
            return None
        return connection.execute(
            self._badge_rows_of(assessment_id).order_by(t.badges.c.status_index.desc()).limit(1)
        ).one_or_none()

    def _current_badge_row(self, connection: Connection, assessment_id: uuid.UUID) -> Row[Any] | None:
        return connection.execute(
            self._badge_rows_of(assessment_id).where(t.badges.c.superseded_at.is_(None))
        ).one_or_none()

    def issue_badge(
        self,
        assessment_id: uuid.UUID,
        agent_id: uuid.UUID,
        *,
        sign: Callable[[BadgeSlot], SignedCredential],
        valid_until: datetime,
        issued_at: datetime,
        supersede_reason: str | None = None,
    ) -> Badge:
        """Record a new credential of the assessment, complete, in ONE write transaction.

        Inside the transaction the organization's next free ``status_index`` (its bit in the
        Bitstring status list, never reused) and the row id are reserved, ``sign`` builds
        and signs the credential naming them, and the row is inserted with its JWT — a
        crash anywhere leaves no row at all.  Concurrent issues that pick the same index
        retry inside a savepoint (``sign`` is called again with the new slot).

        When the assessment already has a current credential: with ``supersede_reason``
        it is superseded in the same transaction (bit set, reason recorded, see
        :meth:`supersede_badge`); without, ``CONFLICT``.
        """
        with write_transaction(self._engine) as connection:
            assessment = self._assessment_row(connection, assessment_id)
            if as_uuid(agent_id) != assessment.agent_id:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Assessment {assessment.id} is not of agent {agent_id}.",
                    {"assessment_id": str(assessment.id), "agent_id": str(agent_id)},
                )
            for attempt in range(_STATUS_INDEX_ATTEMPTS):
                try:
                    with connection.begin_nested():
                        badge_id = self._insert_signed_badge(
                            connection,
                            assessment,
                            sign=sign,
                            valid_until=valid_until,
                            issued_at=issued_at,
                            supersede_reason=supersede_reason,
                        )
                    break
                except IntegrityError:
                    if attempt == _STATUS_INDEX_ATTEMPTS - 1:
                        raise
            row = connection.execute(select(t.badges).where(t.badges.c.id == badge_id)).one()
            return badge_from_row(row)

    def _insert_signed_badge(
        self,
        connection: Connection,
        assessment: Row[Any],
        *,
        sign: Callable[[BadgeSlot], SignedCredential],
        valid_until: datetime,
        issued_at: datetime,
        supersede_reason: str | None,
    ) -> uuid.UUID:
        current = self._current_badge_row(connection, assessment.id)
        if current is not None:
            if supersede_reason is None:
                raise AAAFError(
                    "CONFLICT",
                    f"Assessment {assessment.id} already has a current badge (status bit {current.status_index}).",
                    {"assessment_id": str(assessment.id), "badge_id": str(current.id)},
                )
            self._supersede(connection, current, reason=supersede_reason, at=issued_at)
        next_index = connection.execute(
            select(func.coalesce(func.max(t.badges.c.status_index) + 1, 0)).where(
                t.badges.c.organization_id == self.organization_id
            )
        ).scalar_one()
        slot = BadgeSlot(badge_id=uuid.uuid4(), status_index=int(next_index))
        signed = sign(slot)
        if not signed.credential_jwt:
            raise AAAFError("INVALID_REQUEST", "A badge is recorded only with its signed credential.")
        connection.execute(
            insert(t.badges).values(
                id=slot.badge_id,
                assessment_id=assessment.id,
                agent_id=assessment.agent_id,
                organization_id=self.organization_id,
                status_index=slot.status_index,
                svg_url=signed.svg_url,
                png_url=signed.png_url,
                json_data=dict(signed.json_data),
                credential_jwt=signed.credential_jwt,
                issued_at=issued_at,
                valid_until=valid_until,
                revoked=False,
            )
        )
        return slot.badge_id

    @staticmethod
    def _supersede(connection: Connection, row: Row[Any], *, reason: str, at: datetime) -> None:
        values: dict[str, Any] = {"superseded_at": at}
        if not row.revoked:  # an earlier revocation keeps its own record
            values.update(revoked=True, revoked_at=at, revoke_reason=reason)
        connection.execute(update(t.badges).where(t.badges.c.id == row.id).values(**values))

    def supersede_badge(self, assessment_id: uuid.UUID | str, *, reason: str, at: datetime) -> Badge | None:
        """Retire the assessment's current credential: its scores are no longer the assessment's.

        The row stays, with its bit set (``revoked``, ``revoked_at``, ``revoke_reason`` =
        ``reason``, e.g. "superseded: appeal <id> accepted") and ``superseded_at``, so the
        credential already handed out verifies as revoked and says why; a new credential
        can then be issued with a fresh bit.  None when there is no current credential.
        """
        with write_transaction(self._engine) as connection:
            assessment = self._assessment_row(connection, assessment_id)
            current = self._current_badge_row(connection, assessment.id)
            if current is None:
                return None
            self._supersede(connection, current, reason=reason, at=at)
            row = connection.execute(select(t.badges).where(t.badges.c.id == current.id)).one()
            return badge_from_row(row)

    def get_badge(self, assessment_id: uuid.UUID | str) -> Badge:
        """The assessment's latest credential (current, else the last superseded one), or ``NOT_FOUND``."""
        with read_connection(self._engine) as connection:
            row = self._badge_row(connection, assessment_id)
        if row is None:
            raise not_found("Badge", assessment_id)
        return badge_from_row(row)

    def current_badge(self, assessment_id: uuid.UUID | str) -> Badge | None:
        """The assessment's current (not superseded) credential, or None."""
        if as_uuid(assessment_id) is None:
            return None
        with read_connection(self._engine) as connection:
            row = connection.execute(
                self._badge_rows_of(assessment_id).where(t.badges.c.superseded_at.is_(None))
            ).one_or_none()
        return None if row is None else badge_from_row(row)

    def badge_credentials(self, assessment_id: uuid.UUID | str) -> list[Badge]:
        """Every credential issued for the assessment, oldest first."""
        if as_uuid(assessment_id) is None:
            return []
        with read_connection(self._engine) as connection:
            rows = connection.execute(
                self._badge_rows_of(assessment_id).order_by(t.badges.c.status_index)
            ).all()
        return [badge_from_row(row) for row in rows]

    def badges(self, *, agent_id: uuid.UUID | None = None, current_only: bool = False) -> list[Badge]:
        """Every credential (superseded ones included unless ``current_only``), by status index."""
        query = select(t.badges).where(t.badges.c.organization_id == self.organization_id)
        if agent_id is not None:
            query = query.where(t.badges.c.agent_id == agent_id)
        if current_only:
            query = query.where(t.badges.c.superseded_at.is_(None))
        with read_connection(self._engine) as connection:
            rows = connection.execute(query.order_by(t.badges.c.status_index)).all()
        return [badge_from_row(row) for row in rows]

    def revoke_badge(self, assessment_id: uuid.UUID, *, reason: str, at: datetime) -> Badge:
        """Revoke the assessment's latest credential (kept, never deleted).

        Revoking twice keeps the first record; a superseded credential is already revoked.
        """
        with write_transaction(self._engine) as connection:
            row = self._badge_row(connection, assessment_id)
            if row is None:
                raise not_found("Badge", assessment_id)
            if not row.revoked:
                connection.execute(
                    update(t.badges)
                    .where(t.badges.c.id == row.id)
                    .values(revoked=True, revoked_at=at, revoke_reason=reason)
                )
            row = connection.execute(select(t.badges).where(t.badges.c.id == row.id)).one()
            return badge_from_row(row)

    # score history and trust override (SCORING.md §3) --------------------------------------
    def append_score_history(
        self,
        agent_id: uuid.UUID,
        *,
        scheme: str,
        score: float | None,
        tier: str | None,
        details: Mapping[str, Any],
        was_anomalous: bool,
        committed: bool,
        computed_at: datetime,
        at: datetime,
    ) -> ScoreHistoryEntry:
        """Append one computed score (SCORING.md §3 'History')."""
        entry_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            agent = self._require_agent(connection, agent_id)
            connection.execute(
                insert(t.score_history).values(
                    id=entry_id,
                    organization_id=self.organization_id,
                    agent_id=agent.id,
                    scheme=scheme,
                    score=None if score is None else float(score),
                    tier=tier,
                    details=dict(details),
                    was_anomalous=was_anomalous,
                    committed=committed,
                    computed_at=computed_at,
                    at=at,
                )
            )
            return self._history_entry(connection, entry_id)

    def _history_entry(self, connection: Connection, history_id: uuid.UUID | str) -> ScoreHistoryEntry:
        wanted = as_uuid(history_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                select(t.score_history).where(
                    t.score_history.c.id == wanted, t.score_history.c.organization_id == self.organization_id
                )
            ).one_or_none()
        if row is None:
            raise not_found("Score history entry", history_id)
        return _history_from_row(row)

    def _history_query(self, agent_id: uuid.UUID, scheme: str) -> Any:
        history = t.score_history
        return select(history).where(
            history.c.organization_id == self.organization_id,
            history.c.agent_id == agent_id,
            history.c.scheme == scheme,
        )

    def score_history(self, agent_id: uuid.UUID, scheme: str) -> list[ScoreHistoryEntry]:
        """Oldest first (by computation time)."""
        history = t.score_history
        with read_connection(self._engine) as connection:
            agent = self._require_agent(connection, agent_id)
            rows = connection.execute(
                self._history_query(agent.id, scheme).order_by(
                    history.c.computed_at, history.c.at, history.c.id
                )
            ).all()
        return [_history_from_row(row) for row in rows]

    def last_committed_score(self, agent_id: uuid.UUID, scheme: str) -> ScoreHistoryEntry | None:
        """The canonical score: the latest committed entry (SCORING.md §3)."""
        history = t.score_history
        with read_connection(self._engine) as connection:
            agent = self._require_agent(connection, agent_id)
            row = connection.execute(
                self._history_query(agent.id, scheme)
                .where(history.c.committed.is_(True))
                .order_by(history.c.computed_at.desc(), history.c.at.desc(), history.c.id.desc())
                .limit(1)
            ).one_or_none()
        return None if row is None else _history_from_row(row)

    def review_score(
        self, history_id: uuid.UUID, *, approve: bool, reviewer: str, at: datetime
    ) -> ScoreHistoryEntry:
        """Approve (commit) or reject an anomalous, unreviewed score; anything else is ``CONFLICT``."""
        with write_transaction(self._engine) as connection:
            entry = self._history_entry(connection, history_id)
            if not entry.was_anomalous or entry.review_decision is not None:
                raise AAAFError(
                    "CONFLICT",
                    f"Score {entry.id} is not awaiting review.",
                    {"history_id": str(entry.id), "review_decision": entry.review_decision},
                )
            connection.execute(
                update(t.score_history)
                .where(t.score_history.c.id == entry.id)
                .values(
                    committed=approve,
                    reviewed_by=reviewer,
                    reviewed_at=at,
                    review_decision="approved" if approve else "rejected",
                )
            )
            return self._history_entry(connection, entry.id)

    def set_trust_override(
        self, weights: Mapping[str, Any], *, set_by: str | None, set_at: datetime
    ) -> TrustOverride:
        """Store the override as given — not validated (SCORING.md §3: the pure engine
        rejects an invalid one when applying it) — replacing the active one."""
        override_id = uuid.uuid4()
        overrides = t.trust_weight_overrides
        with write_transaction(self._engine) as connection:
            connection.execute(
                update(overrides)
                .where(overrides.c.organization_id == self.organization_id, overrides.c.active.is_(True))
                .values(active=False)
            )
            connection.execute(
                insert(overrides).values(
                    id=override_id,
                    organization_id=self.organization_id,
                    weights=dict(weights),
                    set_by=set_by,
                    set_at=set_at,
                    active=True,
                )
            )
            row = connection.execute(select(overrides).where(overrides.c.id == override_id)).one()
        return _override_from_row(row)

    def trust_override(self) -> TrustOverride | None:
        """The active override, if any."""
        overrides = t.trust_weight_overrides
        with read_connection(self._engine) as connection:
            row = connection.execute(
                select(overrides)
                .where(overrides.c.organization_id == self.organization_id, overrides.c.active.is_(True))
                .order_by(overrides.c.set_at.desc())
                .limit(1)
            ).one_or_none()
        return None if row is None else _override_from_row(row)

    def clear_trust_override(self) -> None:
        """Go back to the base weights (earlier overrides stay on record, inactive)."""
        overrides = t.trust_weight_overrides
        with write_transaction(self._engine) as connection:
            connection.execute(
                update(overrides)
                .where(overrides.c.organization_id == self.organization_id, overrides.c.active.is_(True))
                .values(active=False)
            )

    # webhooks (document 004 §6.3) ----------------------------------------------------------
    def create_webhook(self, url: str, event_types: Sequence[str], *, secret: str) -> Webhook:
        """Subscribe ``url`` to ``event_types`` (document 004 §6.3), signed with ``secret``."""
        if not url or not event_types or not secret:
            raise AAAFError(
                "INVALID_REQUEST",
                "A webhook needs a URL, at least one event type and a signing secret.",
                {"fields": ["url", "event_types", "secret"]},
            )
        webhook_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            connection.execute(
                insert(t.webhooks).values(
                    id=webhook_id,
                    organization_id=self.organization_id,
                    url=url,
                    event_types=list(event_types),
                    secret=secret,
                    secret_hash=hashlib.sha256(secret.encode()).hexdigest(),
                    active=True,
                    created_at=now_utc(),
                )
            )
        return self.get_webhook(webhook_id)

    def webhooks(self, *, event_type: str | None = None, active_only: bool = False) -> list[Webhook]:
        """Subscriptions, oldest first; ``event_type`` keeps those subscribed to it."""
        query = select(t.webhooks).where(t.webhooks.c.organization_id == self.organization_id)
        if active_only:
            query = query.where(t.webhooks.c.active.is_(True))
        with read_connection(self._engine) as connection:
            rows = connection.execute(query.order_by(t.webhooks.c.created_at, t.webhooks.c.id)).all()
        found = [_webhook_from_row(row) for row in rows]
        if event_type is not None:
            found = [hook for hook in found if event_type in hook.event_types]
        return found

    def get_webhook(self, webhook_id: uuid.UUID | str) -> Webhook:
        wanted = as_uuid(webhook_id)
        row = None
        if wanted is not None:
            with read_connection(self._engine) as connection:
                row = connection.execute(
                    select(t.webhooks).where(
                        t.webhooks.c.id == wanted, t.webhooks.c.organization_id == self.organization_id
                    )
                ).one_or_none()
        if row is None:
            raise not_found("Webhook", webhook_id)
        return _webhook_from_row(row)

    def delete_webhook(self, webhook_id: uuid.UUID | str) -> None:
        wanted = as_uuid(webhook_id)
        with write_transaction(self._engine) as connection:
            result = connection.execute(
                delete(t.webhooks).where(
                    t.webhooks.c.id == wanted, t.webhooks.c.organization_id == self.organization_id
                )
            )
        if wanted is None or result.rowcount == 0:
            raise not_found("Webhook", webhook_id)

    # stress tests (document 004 §5.3) ------------------------------------------------------
    def create_stress_test(
        self,
        dimension: str,
        *,
        task_definition: Mapping[str, Any],
        complexity_level: int | None = None,
        domain: str | None = None,
        expected_outcome: Mapping[str, Any] | None = None,
    ) -> StressTest:
        """An organization's own stress test definition (document 004 §5.2 step 4)."""
        with write_transaction(self._engine) as connection:
            stress_test_id = insert_stress_test(
                connection,
                organization_id=self.organization_id,
                dimension=dimension,
                task_definition=task_definition,
                complexity_level=complexity_level,
                domain=domain,
                expected_outcome=expected_outcome,
            )
        return self.get_stress_test(stress_test_id)

    def _visible_stress_tests(self) -> Any:
        owner = t.stress_tests.c.organization_id
        return select(t.stress_tests).where((owner == self.organization_id) | owner.is_(None))

    def stress_tests(self, *, dimension: str | None = None) -> list[StressTest]:
        """The org's own definitions and the system defaults, oldest first."""
        query = self._visible_stress_tests()
        if dimension is not None:
            query = query.where(t.stress_tests.c.dimension == dimension)
        with read_connection(self._engine) as connection:
            rows = connection.execute(query.order_by(t.stress_tests.c.created_at, t.stress_tests.c.id)).all()
        return [stress_test_from_row(row) for row in rows]

    def _stress_test_row(self, connection: Connection, stress_test_id: uuid.UUID | str) -> Row[Any]:
        wanted = as_uuid(stress_test_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                self._visible_stress_tests().where(t.stress_tests.c.id == wanted)
            ).one_or_none()
        if row is None:
            raise not_found("Stress test", stress_test_id)
        return row

    def get_stress_test(self, stress_test_id: uuid.UUID | str) -> StressTest:
        with read_connection(self._engine) as connection:
            return stress_test_from_row(self._stress_test_row(connection, stress_test_id))

    def delete_stress_test(self, stress_test_id: uuid.UUID | str) -> None:
        """Delete one of the org's own definitions (system defaults are not its to delete:
        ``NOT_FOUND``); one with recorded results is ``CONFLICT`` (results are kept, §7.3)."""
        wanted = as_uuid(stress_test_id)
        try:
            with write_transaction(self._engine) as connection:
                has_results = connection.execute(
                    select(func.count())
                    .select_from(t.stress_test_results)
                    .where(t.stress_test_results.c.stress_test_id == wanted)
                ).scalar_one()
                if has_results:
                    raise AAAFError(
                        "CONFLICT",
                        f"Stress test {stress_test_id} has recorded results and cannot be deleted.",
                        {"stress_test_id": str(stress_test_id)},
                    )
                result = connection.execute(
                    delete(t.stress_tests).where(
                        t.stress_tests.c.id == wanted,
                        t.stress_tests.c.organization_id == self.organization_id,
                    )
                )
        except IntegrityError as error:
            raise AAAFError(
                "CONFLICT",
                f"Stress test {stress_test_id} has recorded results and cannot be deleted.",
                {"stress_test_id": str(stress_test_id)},
            ) from error
        if wanted is None or result.rowcount == 0:
            raise not_found("Stress test", stress_test_id)

    def record_stress_test_result(
        self,
        assessment_id: uuid.UUID,
        stress_test_id: uuid.UUID,
        *,
        outcome: str,
        score: float | None,
        details: Mapping[str, Any],
        executed_at: datetime,
    ) -> StressTestResult:
        """One executed stress test of an assessment; the agent is the assessment's."""
        _check_one_of("outcome", outcome, t.STRESS_TEST_OUTCOMES)
        result_id = uuid.uuid4()
        with write_transaction(self._engine) as connection:
            assessment = self._assessment_row(connection, assessment_id)
            stress_test = self._stress_test_row(connection, stress_test_id)
            connection.execute(
                insert(t.stress_test_results).values(
                    id=result_id,
                    assessment_id=assessment.id,
                    stress_test_id=stress_test.id,
                    agent_id=assessment.agent_id,
                    outcome=outcome,
                    score=None if score is None else float(score),
                    details=dict(details),
                    executed_at=executed_at,
                )
            )
            row = connection.execute(
                select(t.stress_test_results).where(t.stress_test_results.c.id == result_id)
            ).one()
        return _stress_result_from_row(row)

    def stress_test_results(self, assessment_id: uuid.UUID) -> list[StressTestResult]:
        """Results of one assessment, in execution order."""
        results = t.stress_test_results
        with read_connection(self._engine) as connection:
            assessment = self._assessment_row(connection, assessment_id)
            rows = connection.execute(
                select(results)
                .where(results.c.assessment_id == assessment.id)
                .order_by(results.c.executed_at, results.c.id)
            ).all()
        return [_stress_result_from_row(row) for row in rows]
