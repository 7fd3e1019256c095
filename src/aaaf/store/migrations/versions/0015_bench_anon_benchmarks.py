"""Anonymised benchmark cells and stress-task libraries (issue 20 §2, §3).

Revision ID: 0015_bench_anon
Revises: 0014_queue_jobs
Create Date: 2026-11-24

* ``benchmark_cells``: per (domain, dimension) the deciles of the latest valid assessments of
  opted-in organizations, with how many organizations and agents they aggregate — no
  organization or agent column (only cells of >= 5 organizations and >= 20 agents are written);
* ``stress_libraries``: stress-task libraries an organization published, immutable per
  (organization, name, version), ``private`` or ``shared``;
* ``stress_library_installs``: which libraries an organization installed.

Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0015_bench_anon"
down_revision: str | Sequence[str] | None = "0014_queue_jobs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)
JSON_DOCUMENT = sa.JSON()
TEXT_ARRAY = sa.JSON().with_variant(postgresql.ARRAY(sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "benchmark_cells",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("domain", sa.Text(), nullable=False),
        sa.Column("axis", sa.Text(), nullable=False),
        sa.Column("dimension", sa.Text(), nullable=False),
        sa.Column("deciles", JSON_DOCUMENT, nullable=False),
        sa.Column("n_orgs", sa.Integer(), nullable=False),
        sa.Column("n_agents", sa.Integer(), nullable=False),
        sa.Column("computed_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("axis IN ('performance', 'capability')", name=op.f("ck_benchmark_cells_axis")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_benchmark_cells")),
        sa.UniqueConstraint("domain", "dimension", name=op.f("uq_benchmark_cells_domain_dimension")),
    )
    op.create_table(
        "stress_libraries",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("version", sa.Text(), nullable=False),
        sa.Column("visibility", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("content", JSON_DOCUMENT, nullable=False),
        sa.Column("documents", JSON_DOCUMENT, nullable=False),
        sa.Column("digest", sa.Text(), nullable=False),
        sa.Column("task_count", sa.Integer(), nullable=False),
        sa.Column("graders", TEXT_ARRAY, nullable=False),
        sa.Column("created_at", TIMESTAMP, server_default=sa.func.current_timestamp(), nullable=False),
        sa.CheckConstraint(
            "visibility IN ('private', 'shared')", name=op.f("ck_stress_libraries_visibility")
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_stress_libraries_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stress_libraries")),
        sa.UniqueConstraint(
            "organization_id",
            "name",
            "version",
            name=op.f("uq_stress_libraries_organization_id_name_version"),
        ),
    )
    op.create_index("idx_stress_libraries_name", "stress_libraries", ["name", "version"])
    op.create_table(
        "stress_library_installs",
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("library_id", sa.Uuid(), nullable=False),
        sa.Column("installed_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_stress_library_installs_organization_id_organizations"),
        ),
        sa.ForeignKeyConstraint(
            ["library_id"],
            ["stress_libraries.id"],
            name=op.f("fk_stress_library_installs_library_id_stress_libraries"),
        ),
        sa.PrimaryKeyConstraint("organization_id", "library_id", name=op.f("pk_stress_library_installs")),
    )


def downgrade() -> None:
    op.drop_table("stress_library_installs")
    op.drop_index("idx_stress_libraries_name", table_name="stress_libraries")
    op.drop_table("stress_libraries")
    op.drop_table("benchmark_cells")
