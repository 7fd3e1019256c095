"""The job queue's schema, one running assessment per agent, the evidence-prune date.

Revision ID: 0014_queue_jobs
Revises: 0013_api_auth
Create Date: 2026-11-23

* ``assessments``: at most one assessment per agent is ``pending`` *or* ``in_progress``
  (SCORING.md §7 "Assessments", document 004 §6.4 ``ASSESSMENT_IN_PROGRESS``): the partial
  unique index ``uq_assessments_one_in_progress`` (``in_progress`` only) becomes
  ``uq_assessments_one_running`` over both states — a triggered assessment is ``pending``
  until a worker takes it (issue 14).
* ``assessments.evidence_pruned_at``: when retention (SCORING.md §6) deleted the events the
  assessment was computed from; its scores, spec and event ids stay.
* PostgreSQL only: procrastinate's schema (the job queue of ``aaaf.jobs``), applied from the
  copy of procrastinate 3.10's ``schema.sql`` kept beside the migrations
  (``migrations/sql/procrastinate_3_10_schema.sql``, MIT licence).  Through Alembic rather than
  ``procrastinate schema --apply`` so that one ``aaaf db upgrade`` (and the schema-head check
  every server command makes, SCORING.md §7 "Databases") covers the queue too, in the same
  transaction; pyproject pins procrastinate to 3.10, and a later procrastinate comes with a
  migration of ours applying its shipped migration files.
"""

from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision: str = "0014_queue_jobs"
down_revision: str | Sequence[str] | None = "0013_api_auth"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PROCRASTINATE_SCHEMA = Path(__file__).resolve().parent.parent / "sql" / "procrastinate_3_10_schema.sql"

DROP_PROCRASTINATE = """
DROP TABLE IF EXISTS procrastinate_events, procrastinate_periodic_defers, procrastinate_jobs,
    procrastinate_workers CASCADE;
DO $$
DECLARE item record;
BEGIN
    FOR item IN
        SELECT p.oid::regprocedure AS signature FROM pg_proc p
        WHERE p.proname LIKE 'procrastinate%' AND p.pronamespace = current_schema()::regnamespace
    LOOP
        EXECUTE 'DROP FUNCTION IF EXISTS ' || item.signature || ' CASCADE';
    END LOOP;
END;
$$;
DROP TYPE IF EXISTS procrastinate_job_to_defer_v1, procrastinate_job_event_type,
    procrastinate_job_status CASCADE;
"""


def _run_script(script: str) -> None:
    """Run a multi-statement SQL script as it is (no bound parameters, so ``%`` and ``:`` are literal)."""
    op.get_bind().execution_options(no_parameters=True).exec_driver_sql(script)


def upgrade() -> None:
    op.drop_index("uq_assessments_one_in_progress", table_name="assessments")
    op.create_index(
        "uq_assessments_one_running",
        "assessments",
        ["agent_id"],
        unique=True,
        sqlite_where=sa.text("status IN ('pending', 'in_progress')"),
        postgresql_where=sa.text("status IN ('pending', 'in_progress')"),
    )
    # a plain ALTER TABLE on SQLite too: a batch copy of assessments would break the foreign
    # keys pointing at it while rows exist
    op.add_column("assessments", sa.Column("evidence_pruned_at", sa.DateTime(timezone=True), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        _run_script(PROCRASTINATE_SCHEMA.read_text(encoding="utf-8"))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _run_script(DROP_PROCRASTINATE)
    op.drop_column("assessments", "evidence_pruned_at")
    op.drop_index("uq_assessments_one_running", table_name="assessments")
    op.create_index(
        "uq_assessments_one_in_progress",
        "assessments",
        ["agent_id"],
        unique=True,
        sqlite_where=sa.text("status = 'in_progress'"),
        postgresql_where=sa.text("status = 'in_progress'"),
    )
