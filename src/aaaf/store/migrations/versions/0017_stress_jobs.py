"""Stress runs over HTTP are jobs (SCORING.md §7 "Stress runs"; docs/jobs.md "Stress runs").

Revision ID: 0017_stress_jobs
Revises: 0016_otlp
Create Date: 2026-11-25

A run requested over HTTP is recorded ``queued`` (a new status) with what its job needs —
``request`` (the agent's URL and model, the chosen tasks, the parallelism) and the agent's own
key sealed with ``AAAF_SECRET_KEY`` (``agent_api_key_sealed``, wiped when the run ends) — and
run by a worker.  ``created_at`` is when it was recorded; ``started_at`` becomes nullable (a
queued run has not started); ``attempts`` counts the starts of its job; ``heartbeat_at`` is the
lease its executor renews, so a run whose executor died is found and resumed (or failed with
the reason) instead of staying ``running``.  ``idx_stress_runs_status`` serves the per-
organization limit of running runs and the sweep.

Existing runs keep their status; their ``created_at`` is their ``started_at``.  The downgrade
fails the runs still queued (they never started) and gives them a start time.

Runs on SQLite (batch mode: the table is copied) and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_stress_jobs"
down_revision: str | Sequence[str] | None = "0016_otlp"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)
STATUSES_BEFORE = ("running", "finished", "failed")
STATUSES_AFTER = ("queued", *STATUSES_BEFORE)


def _one_of(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


def upgrade() -> None:
    with op.batch_alter_table("stress_runs") as batch:
        batch.add_column(sa.Column("created_at", TIMESTAMP, nullable=True))
        batch.add_column(sa.Column("request", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("agent_api_key_sealed", sa.Text(), nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False))
        batch.add_column(sa.Column("heartbeat_at", TIMESTAMP, nullable=True))
    op.execute("UPDATE stress_runs SET created_at = started_at")
    with op.batch_alter_table("stress_runs") as batch:
        batch.alter_column("created_at", existing_type=TIMESTAMP, nullable=False)
        batch.alter_column("started_at", existing_type=TIMESTAMP, nullable=True)
        batch.drop_constraint(op.f("ck_stress_runs_status"), type_="check")
        batch.create_check_constraint(op.f("ck_stress_runs_status"), _one_of("status", STATUSES_AFTER))
        batch.create_index("idx_stress_runs_status", ["status", "organization_id"])


def downgrade() -> None:
    op.execute(
        "UPDATE stress_runs SET status = 'failed', started_at = COALESCE(started_at, created_at)"
        " WHERE status = 'queued'"
    )
    op.execute("UPDATE stress_runs SET started_at = created_at WHERE started_at IS NULL")
    with op.batch_alter_table("stress_runs") as batch:
        batch.drop_index("idx_stress_runs_status")
        batch.drop_constraint(op.f("ck_stress_runs_status"), type_="check")
        batch.create_check_constraint(op.f("ck_stress_runs_status"), _one_of("status", STATUSES_BEFORE))
        batch.alter_column("started_at", existing_type=TIMESTAMP, nullable=False)
        batch.drop_column("heartbeat_at")
        batch.drop_column("attempts")
        batch.drop_column("agent_api_key_sealed")
        batch.drop_column("request")
        batch.drop_column("created_at")
