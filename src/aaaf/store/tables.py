"""The schema: document 004 §7.2 with the bends of SCORING.md §6.

One set of SQLAlchemy Core tables serves SQLite and PostgreSQL (see
:mod:`aaaf.store.types`).  The Alembic migrations in ``migrations/versions`` create
exactly this schema; a test compares them (``compare_metadata`` finds no difference).

Bends from document 004 §7.2, and why:

* JSON documents are ``json``, not ``JSONB``, on PostgreSQL: kept verbatim, key order
  and number spelling included (see :data:`aaaf.store.types.JSONDocument`);
* scores and weights are double precision, not NUMERIC: stored unrounded (SCORING.md §6);
  ``dimension_scores.score`` is nullable (no evidence is null, never 0) with a ``reason``;
* ``events.id`` is the store's own UUID; the client's key is ``idempotency_key``, unique
  per (agent, key); ``events.task_id`` is text; the type CHECK admits ``eval_result``,
  ``workflow_run`` and ``memory_operation``;
* ``idx_events_agent_id`` is left out: ``(agent_id, type)``, ``(agent_id, timestamp)`` and
  the ``(agent_id, idempotency_key)`` unique index all start with ``agent_id``, so a fourth
  index on it alone would only slow down inserts.  ``(agent_id, timestamp)`` is ascending:
  a B-tree is read in either direction;
* on PostgreSQL (0021) ``events`` is partitioned by month of ``timestamp`` with the primary
  key ``(id, timestamp)``, and the ``(agent_id, idempotency_key)`` uniqueness is kept by
  :data:`event_keys` (:data:`postgresql_metadata`, a table SQLite does not have): see
  :mod:`aaaf.store.event_partitions`;
* assessments carry ``review_state``, ``anomalous``, ``error``, ``dimension``, ``result``;
  at most one assessment per agent is ``pending`` or ``in_progress`` (a partial unique index);
* badges carry ``organization_id``, ``status_index`` (unique per organization) and
  ``credential_jwt``; a row is one *credential*, not one assessment (0003): an assessment
  whose scores change (an accepted appeal) gets a new credential with a new bit, and the
  old row is ``superseded_at`` with its bit set (``revoked``), so at most one row per
  assessment is current (a partial unique index) and every row but a superseded one holds
  its signed JWT (``signed``); ``api_key_hash`` is nullable (the CLI's default organization has none);
* assessments record who decided a review hold and when (``reviewed_by``, ``reviewed_at``);
* webhooks keep their signing secret sealed with ``AAAF_SECRET_KEY`` (``secret_sealed``, 0010,
  SCORING.md §7 "Webhook secrets": HMAC signing needs the secret itself) and their retry policy;
  ``webhook_events`` is the outbox of document 004 §6.3 events and ``webhook_deliveries`` one
  row per (event, subscribed webhook) with its attempts;
* ``org_configs.extra`` holds the config knobs document 004 has no column for;
* ``score_history`` and ``trust_weight_overrides`` serve the trust scheme (SCORING.md §3);
* ``org_config_changes`` records every configuration change with its time (0006, issue 21);
* ``api_keys`` hold an organization's keys as SHA-256 with their scopes (0004), ``issuer_keys`` the
  installation's signing key, its private half sealed with ``AAAF_SECRET_KEY`` (0005; SCORING.md §7);
* ``assessment_evidence`` (0008), one row per assessment: the scheme spec it was computed
  with (name, version, the exact config) and the event ids each dimension used — the ids
  once (``event_ids``: 16 bytes per UUID, a third of their JSON text, which keeps
  ``assess --all``'s one write transaction short), each dimension as positions in that
  list (``dimension_events``);
  see :mod:`aaaf.scoring.trace` (SCORING.md §0 'Traceability', §2.4 appeals, §6 retention).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    func,
    text,
)

from aaaf.scoring.defaults import (
    CAPABILITY_TIERS,
    PERFORMANCE_TIERS,
)
from aaaf.scoring.records import EVENT_TYPES
from aaaf.store.counted_tasks import index_where
from aaaf.store.table_base import NAMING_CONVENTION, one_of
from aaaf.store.table_base import created_at_column as _created_at
from aaaf.store.table_base import metadata as metadata
from aaaf.store.types import JSONDocument, Score, TextArray, UTCDateTime

# Every event type the evidence package accepts (aaaf.scoring.records.EVENT_TYPES, the one list):
# document 004 §6.2's eight, the two SCORING.md §1 adds, memory_operation (memory-file
# evidence) and task_audited (SCORING.md §2.6).  The database does not repeat it (no CHECK
# since 0020_once_event_type_check): validation and the event writer read the list, so a new
# event type needs no migration.
STORED_EVENT_TYPES: tuple[str, ...] = EVENT_TYPES
ORGANIZATION_STATUSES = ("active", "suspended", "archived")
AGENT_STATUSES = ("enrolled", "active", "suspended", "archived")
AXES = ("performance", "capability")
ASSESSMENT_TYPES = ("full", "passive_only", "stress_test_only", "single_dimension")
ASSESSMENT_STATUSES = ("pending", "in_progress", "completed", "failed")
REVIEW_STATES = ("not_required", "pending_review", "approved", "rejected")
APPEAL_STATUSES = ("filed", "under_review", "accepted", "rejected")
STRESS_TEST_OUTCOMES = ("pass", "partial", "fail")
REVIEW_DECISIONS = ("approved", "rejected")
PERFORMANCE_TIER_NAMES = tuple(tier.name for tier in PERFORMANCE_TIERS)
CAPABILITY_TIER_NAMES = tuple(tier.name for tier in CAPABILITY_TIERS)

# recency weights in document 004 §7.2's stored form
DEFAULT_RECENCY_WEIGHTS_JSON = {"0_7_days": 1.0, "8_14_days": 0.8, "15_30_days": 0.6}


def _updated_at() -> Column[object]:
    return Column("updated_at", UTCDateTime(), nullable=False, server_default=func.current_timestamp())


organizations = Table(
    "organizations",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("name", Text(), nullable=False),
    Column("api_key_hash", Text(), nullable=True, unique=True),
    Column("domain_taxonomy", TextArray(), nullable=False),
    Column("status", Text(), nullable=False, server_default="active"),
    _created_at(),
    _updated_at(),
    CheckConstraint(one_of("status", ORGANIZATION_STATUSES), name="status"),
)

org_configs = Table(
    "org_configs",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False, unique=True),
    Column("assessment_window_days", Integer(), nullable=False, server_default="30"),
    Column("validity_period_days", Integer(), nullable=False, server_default="90"),
    Column("min_tasks_performance", Integer(), nullable=False, server_default="20"),
    Column("min_tasks_capability", Integer(), nullable=False, server_default="30"),
    Column("recency_weights", JSONDocument, nullable=False),
    Column("reassessment_task_threshold", Integer(), nullable=False, server_default="50"),
    Column("extra", JSONDocument, nullable=False),
    _created_at(),
    _updated_at(),
)

dimension_weight_configs = Table(
    "dimension_weight_configs",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("org_config_id", Uuid(), ForeignKey("org_configs.id"), nullable=False),
    Column("axis", Text(), nullable=False),
    Column("dimension", Text(), nullable=False),
    Column("weight", Score, nullable=False),
    _created_at(),
    UniqueConstraint("org_config_id", "axis", "dimension"),
    CheckConstraint(one_of("axis", AXES), name="axis"),
    CheckConstraint("weight >= 0 AND weight <= 1", name="weight_range"),
)

agents = Table(
    "agents",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("name", Text(), nullable=False),
    Column("claimed_domains", TextArray(), nullable=False),
    Column("tools", TextArray(), nullable=False),
    Column("description", Text(), nullable=True),
    Column("metadata", JSONDocument, nullable=False),
    Column("status", Text(), nullable=False, server_default="enrolled"),
    _created_at(),
    _updated_at(),
    UniqueConstraint("organization_id", "name"),
    CheckConstraint(one_of("status", AGENT_STATUSES), name="status"),
)

events = Table(
    "events",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("type", Text(), nullable=False),
    Column("task_id", Text(), nullable=True),
    Column("idempotency_key", Text(), nullable=True),
    Column("timestamp", UTCDateTime(), nullable=False),
    Column("data", JSONDocument, nullable=False),
    _created_at(),
    # SHA-256 of the RFC 8785 form of {agent, type, timestamp, data} (0004, SCORING.md §1)
    Column("content_digest", Text(), nullable=True),
    UniqueConstraint("agent_id", "idempotency_key"),
    Index("idx_events_agent_type", "agent_id", "type"),
    Index("idx_events_agent_timestamp", "agent_id", "timestamp"),
    Index("idx_events_task_id", "task_id"),
    Index("idx_events_completed_tasks", "agent_id", "timestamp", "task_id", **index_where()),  # 0026
)

# The tables only PostgreSQL has (events partitioned, migration 0021)
postgresql_metadata = MetaData(naming_convention=NAMING_CONVENTION)
event_keys = Table(
    "event_keys",
    postgresql_metadata,
    Column("agent_id", Uuid(), primary_key=True),
    Column("idempotency_key", Text(), primary_key=True),
    # where the event's row is: its partition
    Column("timestamp", UTCDateTime(), nullable=False),
)

assessments = Table(
    "assessments",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("type", Text(), nullable=False),
    Column("status", Text(), nullable=False, server_default="pending"),
    Column("dimension", Text(), nullable=True),
    Column("window_start", UTCDateTime(), nullable=False),
    Column("window_end", UTCDateTime(), nullable=False),
    Column("performance_composite", Score, nullable=True),
    Column("performance_tier", Text(), nullable=True),
    Column("capability_composite", Score, nullable=True),
    Column("capability_tier", Text(), nullable=True),
    Column("evidence_summary", JSONDocument, nullable=True),
    Column("result", JSONDocument, nullable=True),
    Column("error", JSONDocument, nullable=True),
    Column("anomalous", Boolean(), nullable=False, server_default=text("false")),
    Column("review_state", Text(), nullable=False, server_default="not_required"),
    Column("reviewed_by", Text(), nullable=True),
    Column("reviewed_at", UTCDateTime(), nullable=True),
    Column("valid_until", UTCDateTime(), nullable=True),
    _created_at(),
    Column("completed_at", UTCDateTime(), nullable=True),
    # when retention (SCORING.md §6) deleted the events it was computed from (migration 0010)
    Column("evidence_pruned_at", UTCDateTime(), nullable=True),
    CheckConstraint(one_of("type", ASSESSMENT_TYPES), name="type"),
    CheckConstraint(one_of("status", ASSESSMENT_STATUSES), name="status"),
    CheckConstraint(one_of("review_state", REVIEW_STATES), name="review_state"),
    CheckConstraint(one_of("performance_tier", PERFORMANCE_TIER_NAMES), name="performance_tier"),
    CheckConstraint(one_of("capability_tier", CAPABILITY_TIER_NAMES), name="capability_tier"),
    Index("idx_assessments_agent_id", "agent_id"),
    Index("idx_assessments_agent_status", "agent_id", "status"),
    # one assessment per agent waiting for or in the hands of a worker (migration 0010)
    Index(
        "uq_assessments_one_running",
        "agent_id",
        unique=True,
        sqlite_where=text("status IN ('pending', 'in_progress')"),
        postgresql_where=text("status IN ('pending', 'in_progress')"),
    ),
    # the assessments held for review, by agent (migration 0025): the few the review queue reads
    Index(
        "idx_assessments_held",
        "agent_id",
        sqlite_where=text("review_state = 'pending_review'"),
        postgresql_where=text("review_state = 'pending_review'"),
    ),
)

LATEST_COMPLETED_FIRST = (
    assessments.c.completed_at.desc(),
    assessments.c.created_at.desc(),
    assessments.c.id.desc(),
)
"""An agent's assessments latest first by completion (the current one first): of two completed
in the same instant the later created, then the greater id (as its 32 hex digits; the same order
on SQLite and PostgreSQL and as :attr:`aaaf.store.records.Assessment.completion_order`) —
never the database's row order (docs/scoring.md §3.7)."""

dimension_scores = Table(
    "dimension_scores",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), nullable=False),
    Column("axis", Text(), nullable=False),
    Column("dimension", Text(), nullable=False),
    Column("score", Score, nullable=True),
    Column("sample_size", Integer(), nullable=False),
    Column("evidence_count", Integer(), nullable=False),
    Column("details", JSONDocument, nullable=False),
    Column("reason", Text(), nullable=True),
    _created_at(),
    UniqueConstraint("assessment_id", "axis", "dimension"),
    CheckConstraint(one_of("axis", AXES), name="axis"),
    CheckConstraint("score >= 0 AND score <= 1", name="score_range"),
    Index("idx_dimension_scores_assessment", "assessment_id"),
)

assessment_evidence = Table(
    "assessment_evidence",
    metadata,
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), primary_key=True),
    Column("scheme", Text(), nullable=False),
    Column("scheme_version", Text(), nullable=False),
    Column("config", JSONDocument, nullable=False),
    Column("event_ids", LargeBinary(), nullable=False),
    Column("dimension_events", JSONDocument, nullable=False),
)

badges = Table(
    "badges",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), nullable=False),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("status_index", Integer(), nullable=False),
    Column("svg_url", Text(), nullable=True),
    Column("png_url", Text(), nullable=True),
    Column("json_data", JSONDocument, nullable=False),
    Column("credential_jwt", Text(), nullable=True),
    Column("issued_at", UTCDateTime(), nullable=False),
    Column("valid_until", UTCDateTime(), nullable=False),
    Column("revoked", Boolean(), nullable=False, server_default=text("false")),
    Column("revoked_at", UTCDateTime(), nullable=True),
    Column("revoke_reason", Text(), nullable=True),
    Column("superseded_at", UTCDateTime(), nullable=True),
    UniqueConstraint("organization_id", "status_index"),
    CheckConstraint("status_index >= 0", name="status_index_non_negative"),
    CheckConstraint("superseded_at IS NULL OR revoked", name="superseded_revoked"),
    CheckConstraint("credential_jwt IS NOT NULL OR superseded_at IS NOT NULL", name="signed"),
    Index("idx_badges_agent_id", "agent_id"),
    Index("idx_badges_valid_until", "valid_until"),
    Index("idx_badges_assessment_id", "assessment_id"),
    Index(
        "uq_badges_one_current",
        "assessment_id",
        unique=True,
        sqlite_where=text("superseded_at IS NULL"),
        postgresql_where=text("superseded_at IS NULL"),
    ),
)

appeals = Table(
    "appeals",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), nullable=False),
    Column("dimensions_challenged", TextArray(), nullable=False),
    Column("justification", Text(), nullable=False),
    Column("counter_evidence", JSONDocument, nullable=False),
    Column("status", Text(), nullable=False, server_default="filed"),
    Column("reviewer_notes", Text(), nullable=True),
    Column("resolution", JSONDocument, nullable=True),
    Column("filed_at", UTCDateTime(), nullable=False),
    Column("resolved_at", UTCDateTime(), nullable=True),
    CheckConstraint(one_of("status", APPEAL_STATUSES), name="status"),
    Index("idx_appeals_assessment", "assessment_id"),
)

webhooks = Table(
    "webhooks",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("url", Text(), nullable=False),
    Column("event_types", TextArray(), nullable=False),
    # SCORING.md §7 "Webhook secrets": the signing secret sealed with AAAF_SECRET_KEY (0010)
    Column("secret_sealed", Text(), nullable=False, server_default=""),
    Column("active", Boolean(), nullable=False, server_default=text("true")),
    Column("max_retries", Integer(), nullable=False, server_default=text("3")),
    Column("retry_backoff_seconds", Score, nullable=False, server_default=text("60")),
    Column("disabled_reason", Text(), nullable=True),
    _created_at(),
    _updated_at(),
    Index("idx_webhooks_organization", "organization_id"),
)

stress_tests = Table(
    "stress_tests",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=True),
    Column("dimension", Text(), nullable=False),
    Column("complexity_level", Integer(), nullable=True),
    Column("domain", Text(), nullable=True),
    Column("task_definition", JSONDocument, nullable=False),
    Column("expected_outcome", JSONDocument, nullable=True),
    _created_at(),
    # issue 15 (0010): ``library:task_id@digest`` — a library task is stored once per org and version
    Column("task_key", Text(), nullable=True),
    Index("idx_stress_tests_task_key", "task_key"),
)

stress_test_results = Table(
    "stress_test_results",
    metadata,
    Column("id", Uuid(), primary_key=True),
    # null until an assessment merges the run's evidence (SCORING.md §7 "Stress runs", 0010)
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), nullable=True),
    Column("stress_test_id", Uuid(), ForeignKey("stress_tests.id"), nullable=False),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("outcome", Text(), nullable=False),
    Column("score", Score, nullable=True),
    Column("details", JSONDocument, nullable=False),
    Column("executed_at", UTCDateTime(), nullable=False),
    CheckConstraint(one_of("outcome", STRESS_TEST_OUTCOMES), name="outcome"),
    Index("idx_stress_test_results_assessment", "assessment_id"),
    Column("run_id", Uuid(), ForeignKey("stress_runs.id"), nullable=True),
    Index("idx_stress_test_results_run", "run_id"),
)

score_history = Table(
    "score_history",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("scheme", Text(), nullable=False),
    Column("score", Score, nullable=True),
    Column("tier", Text(), nullable=True),
    Column("details", JSONDocument, nullable=False),
    Column("was_anomalous", Boolean(), nullable=False, server_default=text("false")),
    Column("committed", Boolean(), nullable=False, server_default=text("true")),
    Column("reviewed_by", Text(), nullable=True),
    Column("reviewed_at", UTCDateTime(), nullable=True),
    Column("review_decision", Text(), nullable=True),
    Column("computed_at", UTCDateTime(), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    CheckConstraint(one_of("review_decision", REVIEW_DECISIONS), name="review_decision"),
    Index("idx_score_history_agent_scheme", "agent_id", "scheme", "computed_at"),
)

trust_weight_overrides = Table(
    "trust_weight_overrides",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("weights", JSONDocument, nullable=False),
    Column("set_by", Text(), nullable=True),
    Column("set_at", UTCDateTime(), nullable=False),
    Column("active", Boolean(), nullable=False, server_default=text("true")),
    Index("idx_trust_weight_overrides_organization", "organization_id", "active"),
)

# SCORING.md §7 "Secrets": the installation's signing keys, the private half sealed with
# AAAF_SECRET_KEY (never in clear); one row per named slot ("issuer" signs every badge)
issuer_keys = Table(
    "issuer_keys",
    metadata,
    Column("name", Text(), primary_key=True),
    Column("kid", Text(), nullable=False, unique=True),
    Column("public_pem", Text(), nullable=False),
    Column("private_key_sealed", Text(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
)

# issue 21: every configuration change with its time and the whole config before and after (0006)
org_config_changes = Table(
    "org_config_changes",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("changed_at", UTCDateTime(), nullable=False),
    Column("changes", JSONDocument, nullable=False),
    Column("config_before", JSONDocument, nullable=False),
    Column("config_after", JSONDocument, nullable=False),
    Column("changed_by", Text(), nullable=True),  # who (0024); null before it was recorded
    Index("idx_org_config_changes_organization", "organization_id", "changed_at"),
)

# issue 13: eval runs uploaded over the API (SCORING.md §4), each one run (one column of a
# promptfoo file) as the run object ``aaaf compare`` reads, so stored runs compare like files
eval_runs = Table(
    "eval_runs",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("run_id", Text(), nullable=False),
    Column("variant", Text(), nullable=False),
    Column("source_format", Text(), nullable=False),
    Column("samples", Integer(), nullable=False),
    Column("run", JSONDocument, nullable=False),
    Column("uploaded_at", UTCDateTime(), nullable=False),
    Index("idx_eval_runs_organization", "organization_id", "uploaded_at", "id"),
)

# document 004 §6.3: the eight webhook event types (exactly these names)
WEBHOOK_EVENT_TYPES = (
    "assessment.started",
    "assessment.completed",
    "assessment.failed",
    "badge.expiring",
    "badge.expired",
    "appeal.filed",
    "appeal.resolved",
    "evidence.threshold_reached",
)
WEBHOOK_DELIVERY_STATUSES = ("pending", "succeeded", "failed")

# the outbox (0010): one row per emitted event, written in the unit of work that caused it;
# ``payload`` is the exact JSON body every delivery sends (and signs); ``dedupe_key`` makes a
# periodic duty's event happen once (unique per organization; NULLs are distinct)
webhook_events = Table(
    "webhook_events",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("type", Text(), nullable=False),
    Column("dedupe_key", Text(), nullable=True),
    Column("payload", Text(), nullable=False),
    _created_at(),
    CheckConstraint(one_of("type", WEBHOOK_EVENT_TYPES), name="type"),
    UniqueConstraint("organization_id", "dedupe_key"),
)

# one delivery per (event, webhook subscribed when it was emitted), with its attempt log
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("webhook_id", Uuid(), ForeignKey("webhooks.id"), nullable=False),
    Column("event_id", Uuid(), ForeignKey("webhook_events.id"), nullable=False),
    Column("status", Text(), nullable=False, server_default="pending"),
    Column("attempt_count", Integer(), nullable=False, server_default=text("0")),
    Column("next_attempt_at", UTCDateTime(), nullable=True),
    Column("last_attempt_at", UTCDateTime(), nullable=True),
    Column("last_status_code", Integer(), nullable=True),
    Column("last_error", Text(), nullable=True),
    Column("attempts", JSONDocument, nullable=False),
    _created_at(),
    _updated_at(),
    CheckConstraint(one_of("status", WEBHOOK_DELIVERY_STATUSES), name="status"),
    Index("idx_webhook_deliveries_due", "status", "next_attempt_at"),
    Index("idx_webhook_deliveries_webhook", "webhook_id", "created_at"),
)

# SCORING.md §7 "Stress runs" (issue 15, 0010): one run of the stress-test library against an agent
# 0017: a run over HTTP is a job — recorded ``queued`` with what it needs (``request``, the agent's
# key sealed with AAAF_SECRET_KEY until the run ends), ``running`` under a lease its executor renews
# (``heartbeat_at``), resumed from scratch when the lease lapses (``attempts`` counts the starts)
STRESS_RUN_STATUSES = ("queued", "running", "finished", "failed")
stress_runs = Table(
    "stress_runs",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("adapter", Text(), nullable=False),
    Column("agent_reference", Text(), nullable=False),
    Column("library", Text(), nullable=False),
    Column("library_version", Text(), nullable=False),
    Column("status", Text(), nullable=False),
    Column("started_at", UTCDateTime(), nullable=True),
    Column("finished_at", UTCDateTime(), nullable=True),
    Column("log_path", Text(), nullable=True),
    Column("summary", JSONDocument, nullable=False),
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("request", JSONDocument, nullable=True),
    Column("agent_api_key_sealed", Text(), nullable=True),
    Column("attempts", Integer(), nullable=False, server_default=text("0")),
    Column("heartbeat_at", UTCDateTime(), nullable=True),
    CheckConstraint(one_of("status", STRESS_RUN_STATUSES), name="status"),
    Index("idx_stress_runs_agent", "organization_id", "agent_id", "started_at"),
    Index("idx_stress_runs_status", "status", "organization_id"),
)

# issue 13 §1: a badge's visibility (per assessment: every credential of it); no row = public
badge_visibility = Table(
    "badge_visibility",
    metadata,
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("visibility", Text(), nullable=False),
    Column("changed_at", UTCDateTime(), nullable=False),
    CheckConstraint(one_of("visibility", ("public", "private")), name="visibility"),
)

# issue 19: OpenTelemetry spans of POST /v1/traces kept until their invoke_agent ancestor
# comes (``pending``), and afterwards (``joined`` to a task, or ``unused``) so that a late
# descendant still finds its task; deleted after ``OTLP_SPAN_TTL`` (aaaf.services.otlp)
OTLP_SPAN_STATES = ("pending", "joined", "unused")
otlp_pending_spans = Table(
    "otlp_pending_spans",
    metadata,
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), primary_key=True),
    Column("trace_id", Text(), primary_key=True),
    Column("span_id", Text(), primary_key=True),
    Column("state", Text(), nullable=False),
    Column("task_id", Text(), nullable=True),
    Column("agent", Text(), nullable=True),
    Column("span", JSONDocument, nullable=False),
    Column("received_at", UTCDateTime(), nullable=False),
    CheckConstraint(one_of("state", OTLP_SPAN_STATES), name="state"),
    Index("idx_otlp_pending_spans_received", "organization_id", "received_at"),
)

# the release gate's record (0017): which candidate assessments passed or failed a gate and
# which were promoted to baseline, so that a failed candidate never becomes the baseline
GATE_DECISION_KINDS = ("gate", "promotion")
gate_decisions = Table(
    "gate_decisions",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("agent_id", Uuid(), ForeignKey("agents.id"), nullable=False),
    Column("assessment_id", Uuid(), ForeignKey("assessments.id"), nullable=False),
    Column("kind", Text(), nullable=False),
    Column("baseline_assessment_id", Uuid(), nullable=True),
    Column("verdict", Text(), nullable=True),
    Column("passed", Boolean(), nullable=True),
    Column("fail_on", Text(), nullable=True),
    Column("stress_run_id", Uuid(), nullable=True),
    _created_at(),
    CheckConstraint(one_of("kind", GATE_DECISION_KINDS), name="kind"),
    Index("idx_gate_decisions_agent", "organization_id", "agent_id", "created_at"),
)

# the tables declared in modules of their own, on the same metadata: importing the schema
# declares every table (Alembic's autogenerate, the migrations-agree test, create_all)
from aaaf.store import tables_access, tables_compare, tables_shared, tables_summary  # noqa: E402, F401
