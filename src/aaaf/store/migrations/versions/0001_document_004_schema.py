"""Document 004 §7.2 schema with the bends of SCORING.md §6.

Revision ID: 0001_document_004
Revises:
Create Date: 2026-04-16

Runs on SQLite and PostgreSQL.  Column types are spelled out literally here (no imports
from aaaf.store) so that later changes to the models cannot rewrite history: json and
TEXT[] on PostgreSQL are JSON text on SQLite, scores are double precision (REAL), and
timestamps are timezone-aware.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001_document_004"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON()  # json (not jsonb) on PostgreSQL: documents kept verbatim
TEXT_ARRAY = sa.JSON().with_variant(postgresql.ARRAY(sa.Text()), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)
DOUBLE: sa.Double[float] = sa.Double(precision=53)

EVENT_TYPES = (
    "task_assigned",
    "task_completed",
    "task_revised",
    "tool_invoked",
    "delegation_decision",
    "delegation_outcome",
    "orchestration_plan",
    "orchestration_result",
    "eval_result",
    "workflow_run",
    "memory_operation",
)


def _one_of(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


def _now() -> sa.sql.functions.current_timestamp:
    return sa.func.current_timestamp()


def _created_at() -> sa.Column[object]:
    return sa.Column("created_at", TIMESTAMP, server_default=_now(), nullable=False)


def _updated_at() -> sa.Column[object]:
    return sa.Column("updated_at", TIMESTAMP, server_default=_now(), nullable=False)


def upgrade() -> None:
    op.create_table(
        "organizations",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("api_key_hash", sa.Text(), nullable=True),
        sa.Column("domain_taxonomy", TEXT_ARRAY, nullable=False),
        sa.Column("status", sa.Text(), server_default="active", nullable=False),
        _created_at(),
        _updated_at(),
        sa.CheckConstraint(
            _one_of("status", ("active", "suspended", "archived")), name=op.f("ck_organizations_status")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_organizations")),
        sa.UniqueConstraint("api_key_hash", name=op.f("uq_organizations_api_key_hash")),
    )
    op.create_table(
        "org_configs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("assessment_window_days", sa.Integer(), server_default="30", nullable=False),
        sa.Column("validity_period_days", sa.Integer(), server_default="90", nullable=False),
        sa.Column("min_tasks_performance", sa.Integer(), server_default="20", nullable=False),
        sa.Column("min_tasks_capability", sa.Integer(), server_default="30", nullable=False),
        sa.Column("recency_weights", JSON_DOCUMENT, nullable=False),
        sa.Column("reassessment_task_threshold", sa.Integer(), server_default="50", nullable=False),
        sa.Column("extra", JSON_DOCUMENT, nullable=False),
        _created_at(),
        _updated_at(),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_org_configs_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_org_configs")),
        sa.UniqueConstraint("organization_id", name=op.f("uq_org_configs_organization_id")),
    )
    op.create_table(
        "dimension_weight_configs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("org_config_id", sa.Uuid(), nullable=False),
        sa.Column("axis", sa.Text(), nullable=False),
        sa.Column("dimension", sa.Text(), nullable=False),
        sa.Column("weight", DOUBLE, nullable=False),
        _created_at(),
        sa.CheckConstraint(
            _one_of("axis", ("performance", "capability")), name=op.f("ck_dimension_weight_configs_axis")
        ),
        sa.CheckConstraint(
            "weight >= 0 AND weight <= 1", name=op.f("ck_dimension_weight_configs_weight_range")
        ),
        sa.ForeignKeyConstraint(
            ["org_config_id"],
            ["org_configs.id"],
            name=op.f("fk_dimension_weight_configs_org_config_id_org_configs"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dimension_weight_configs")),
        sa.UniqueConstraint(
            "org_config_id",
            "axis",
            "dimension",
            name=op.f("uq_dimension_weight_configs_org_config_id_axis_dimension"),
        ),
    )
    op.create_table(
        "agents",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("claimed_domains", TEXT_ARRAY, nullable=False),
        sa.Column("tools", TEXT_ARRAY, nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("metadata", JSON_DOCUMENT, nullable=False),
        sa.Column("status", sa.Text(), server_default="enrolled", nullable=False),
        _created_at(),
        _updated_at(),
        sa.CheckConstraint(
            _one_of("status", ("enrolled", "active", "suspended", "archived")), name=op.f("ck_agents_status")
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"], ["organizations.id"], name=op.f("fk_agents_organization_id_organizations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_agents")),
        sa.UniqueConstraint("organization_id", "name", name=op.f("uq_agents_organization_id_name")),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("type", sa.Text(), nullable=False),
        sa.Column("task_id", sa.Text(), nullable=True),
        sa.Column("idempotency_key", sa.Text(), nullable=True),
        sa.Column("timestamp", TIMESTAMP, nullable=False),
        sa.Column("data", JSON_DOCUMENT, nullable=False),
        _created_at(),
        sa.CheckConstraint(_one_of("type", EVENT_TYPES), name=op.f("ck_events_type")),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_events_agent_id_agents")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("agent_id", "idempotency_key", name=op.f("uq_events_agent_id_idempotency_key")),
    )
    op.create_index("idx_events_agent_type", "events", ["agent_id", "type"])
    op.create_index("idx_events_agent_timestamp", "events", ["agent_id", "timestamp"])
    op.create_index("idx_events_task_id", "events", ["task_id"])

    op.create_table(
        "assessments",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("type", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), server_default="pending", nullable=False),
        sa.Column("dimension", sa.Text(), nullable=True),
        sa.Column("window_start", TIMESTAMP, nullable=False),
        sa.Column("window_end", TIMESTAMP, nullable=False),
        sa.Column("performance_composite", DOUBLE, nullable=True),
        sa.Column("performance_tier", sa.Text(), nullable=True),
        sa.Column("capability_composite", DOUBLE, nullable=True),
        sa.Column("capability_tier", sa.Text(), nullable=True),
        sa.Column("evidence_summary", JSON_DOCUMENT, nullable=True),
        sa.Column("result", JSON_DOCUMENT, nullable=True),
        sa.Column("error", JSON_DOCUMENT, nullable=True),
        sa.Column("anomalous", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("review_state", sa.Text(), server_default="not_required", nullable=False),
        sa.Column("valid_until", TIMESTAMP, nullable=True),
        _created_at(),
        sa.Column("completed_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint(
            _one_of("type", ("full", "passive_only", "stress_test_only", "single_dimension")),
            name=op.f("ck_assessments_type"),
        ),
        sa.CheckConstraint(
            _one_of("status", ("pending", "in_progress", "completed", "failed")),
            name=op.f("ck_assessments_status"),
        ),
        sa.CheckConstraint(
            _one_of("review_state", ("not_required", "pending_review", "approved", "rejected")),
            name=op.f("ck_assessments_review_state"),
        ),
        sa.CheckConstraint(
            _one_of("performance_tier", ("Novice", "Competent", "Proficient", "Expert", "Elite")),
            name=op.f("ck_assessments_performance_tier"),
        ),
        sa.CheckConstraint(
            _one_of("capability_tier", ("Narrow", "Functional", "Versatile", "Specialist", "Full-Stack")),
            name=op.f("ck_assessments_capability_tier"),
        ),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_assessments_agent_id_agents")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assessments")),
    )
    op.create_index("idx_assessments_agent_id", "assessments", ["agent_id"])
    op.create_index("idx_assessments_agent_status", "assessments", ["agent_id", "status"])
    op.create_index(
        "uq_assessments_one_in_progress",
        "assessments",
        ["agent_id"],
        unique=True,
        sqlite_where=sa.text("status = 'in_progress'"),
        postgresql_where=sa.text("status = 'in_progress'"),
    )

    op.create_table(
        "dimension_scores",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("axis", sa.Text(), nullable=False),
        sa.Column("dimension", sa.Text(), nullable=False),
        sa.Column("score", DOUBLE, nullable=True),
        sa.Column("sample_size", sa.Integer(), nullable=False),
        sa.Column("evidence_count", sa.Integer(), nullable=False),
        sa.Column("details", JSON_DOCUMENT, nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        _created_at(),
        sa.CheckConstraint(
            _one_of("axis", ("performance", "capability")), name=op.f("ck_dimension_scores_axis")
        ),
        sa.CheckConstraint("score >= 0 AND score <= 1", name=op.f("ck_dimension_scores_score_range")),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["assessments.id"], name=op.f("fk_dimension_scores_assessment_id_assessments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dimension_scores")),
        sa.UniqueConstraint(
            "assessment_id",
            "axis",
            "dimension",
            name=op.f("uq_dimension_scores_assessment_id_axis_dimension"),
        ),
    )
    op.create_index("idx_dimension_scores_assessment", "dimension_scores", ["assessment_id"])

    op.create_table(
        "badges",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("status_index", sa.Integer(), nullable=False),
        sa.Column("svg_url", sa.Text(), nullable=True),
        sa.Column("png_url", sa.Text(), nullable=True),
        sa.Column("json_data", JSON_DOCUMENT, nullable=False),
        sa.Column("credential_jwt", sa.Text(), nullable=True),
        sa.Column("issued_at", TIMESTAMP, nullable=False),
        sa.Column("valid_until", TIMESTAMP, nullable=False),
        sa.Column("revoked", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("revoked_at", TIMESTAMP, nullable=True),
        sa.Column("revoke_reason", sa.Text(), nullable=True),
        sa.CheckConstraint("status_index >= 0", name=op.f("ck_badges_status_index_non_negative")),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_badges_agent_id_agents")),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["assessments.id"], name=op.f("fk_badges_assessment_id_assessments")
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"], ["organizations.id"], name=op.f("fk_badges_organization_id_organizations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_badges")),
        sa.UniqueConstraint("assessment_id", name=op.f("uq_badges_assessment_id")),
        sa.UniqueConstraint(
            "organization_id", "status_index", name=op.f("uq_badges_organization_id_status_index")
        ),
    )
    op.create_index("idx_badges_agent_id", "badges", ["agent_id"])
    op.create_index("idx_badges_valid_until", "badges", ["valid_until"])

    op.create_table(
        "appeals",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("dimensions_challenged", TEXT_ARRAY, nullable=False),
        sa.Column("justification", sa.Text(), nullable=False),
        sa.Column("counter_evidence", JSON_DOCUMENT, nullable=False),
        sa.Column("status", sa.Text(), server_default="filed", nullable=False),
        sa.Column("reviewer_notes", sa.Text(), nullable=True),
        sa.Column("resolution", JSON_DOCUMENT, nullable=True),
        sa.Column("filed_at", TIMESTAMP, nullable=False),
        sa.Column("resolved_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint(
            _one_of("status", ("filed", "under_review", "accepted", "rejected")),
            name=op.f("ck_appeals_status"),
        ),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["assessments.id"], name=op.f("fk_appeals_assessment_id_assessments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeals")),
    )
    op.create_index("idx_appeals_assessment", "appeals", ["assessment_id"])

    op.create_table(
        "webhooks",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("event_types", TEXT_ARRAY, nullable=False),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.Column("secret_hash", sa.Text(), nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["organization_id"], ["organizations.id"], name=op.f("fk_webhooks_organization_id_organizations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhooks")),
    )
    op.create_index("idx_webhooks_organization", "webhooks", ["organization_id"])

    op.create_table(
        "stress_tests",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=True),
        sa.Column("dimension", sa.Text(), nullable=False),
        sa.Column("complexity_level", sa.Integer(), nullable=True),
        sa.Column("domain", sa.Text(), nullable=True),
        sa.Column("task_definition", JSON_DOCUMENT, nullable=False),
        sa.Column("expected_outcome", JSON_DOCUMENT, nullable=True),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_stress_tests_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stress_tests")),
    )
    op.create_table(
        "stress_test_results",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("stress_test_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("score", DOUBLE, nullable=True),
        sa.Column("details", JSON_DOCUMENT, nullable=False),
        sa.Column("executed_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint(
            _one_of("outcome", ("pass", "partial", "fail")), name=op.f("ck_stress_test_results_outcome")
        ),
        sa.ForeignKeyConstraint(
            ["agent_id"], ["agents.id"], name=op.f("fk_stress_test_results_agent_id_agents")
        ),
        sa.ForeignKeyConstraint(
            ["assessment_id"],
            ["assessments.id"],
            name=op.f("fk_stress_test_results_assessment_id_assessments"),
        ),
        sa.ForeignKeyConstraint(
            ["stress_test_id"],
            ["stress_tests.id"],
            name=op.f("fk_stress_test_results_stress_test_id_stress_tests"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stress_test_results")),
    )
    op.create_index("idx_stress_test_results_assessment", "stress_test_results", ["assessment_id"])


def downgrade() -> None:
    for table in (
        "stress_test_results",
        "stress_tests",
        "webhooks",
        "appeals",
        "badges",
        "dimension_scores",
        "assessments",
        "events",
        "agents",
        "dimension_weight_configs",
        "org_configs",
        "organizations",
    ):
        op.drop_table(table)
