"""The tables of what organizations share (issue 20, migration 0015): the published cells of
the anonymised cross-organization benchmark and the stress-task libraries organizations
publish and install.  Declared on the schema's one metadata (:mod:`aaaf.store.table_base`);
importing :mod:`aaaf.store.tables` declares them."""

from __future__ import annotations

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
)

from aaaf.scoring.defaults import AXES
from aaaf.store.table_base import created_at_column, metadata, one_of
from aaaf.store.types import JSONDocument, TextArray, UTCDateTime

# issue 20 §2 (0015): the published cells of the anonymised cross-organization benchmark.
# Deliberately without organization or agent columns: only aggregates of at least
# BENCHMARK_MIN_ORGANIZATIONS organizations and BENCHMARK_MIN_AGENTS agents are ever written.
benchmark_cells = Table(
    "benchmark_cells",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("domain", Text(), nullable=False),
    Column("axis", Text(), nullable=False),
    Column("dimension", Text(), nullable=False),
    Column("deciles", JSONDocument, nullable=False),
    Column("n_orgs", Integer(), nullable=False),
    Column("n_agents", Integer(), nullable=False),
    Column("computed_at", UTCDateTime(), nullable=False),
    UniqueConstraint("domain", "dimension"),
    CheckConstraint(one_of("axis", tuple(AXES)), name="axis"),
)

# issue 20 §3 (0015): stress-task libraries an organization published (immutable per
# name and version) and the libraries it installed (its own or another's shared one)
LIBRARY_VISIBILITIES = ("private", "shared")
stress_libraries = Table(
    "stress_libraries",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("name", Text(), nullable=False),
    Column("version", Text(), nullable=False),
    Column("visibility", Text(), nullable=False),
    Column("description", Text(), nullable=True),
    Column("content", JSONDocument, nullable=False),
    Column("documents", JSONDocument, nullable=False),
    Column("digest", Text(), nullable=False),
    Column("task_count", Integer(), nullable=False),
    Column("graders", TextArray(), nullable=False),
    created_at_column(),
    UniqueConstraint("organization_id", "name", "version"),
    CheckConstraint(one_of("visibility", LIBRARY_VISIBILITIES), name="visibility"),
    Index("idx_stress_libraries_name", "name", "version"),
)

stress_library_installs = Table(
    "stress_library_installs",
    metadata,
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), primary_key=True),
    Column("library_id", Uuid(), ForeignKey("stress_libraries.id"), primary_key=True),
    Column("installed_at", UTCDateTime(), nullable=False),
)
