"""The per-agent summary the dashboard's overview reads (migration 0022): one row per agent
with a completed assessment or a trust score, kept up to date by
:mod:`aaaf.store.summary_writes` in the same transaction as every write that changes
it.  Declared on the schema's one metadata (:mod:`aaaf.store.table_base`);
importing :mod:`aaaf.store.tables` declares it."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, ForeignKey, Index, Table, Text, Uuid

from aaaf.store.table_base import metadata
from aaaf.store.types import JSONDocument, Score, UTCDateTime

agent_summaries = Table(
    "agent_summaries",
    metadata,
    Column("agent_id", Uuid(), ForeignKey("agents.id"), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    # the latest completed whole-axis assessment (the fleet row's), newest by creation
    Column("latest_id", Uuid(), nullable=True),
    Column("latest_type", Text(), nullable=True),
    Column("latest_completed_at", UTCDateTime(), nullable=True),
    Column("latest_valid_until", UTCDateTime(), nullable=True),
    Column("latest_review_state", Text(), nullable=True),
    Column("latest_anomalous", Boolean(), nullable=True),
    # the parts of its result and of the previous one's the fleet row shows
    Column("latest_result", JSONDocument, nullable=True),
    Column("previous_result", JSONDocument, nullable=True),
    # its current credential, if any
    Column("badge_revoked", Boolean(), nullable=True),
    Column("badge_valid_until", UTCDateTime(), nullable=True),
    # the latest completed assessment of any type, by completion (re-assessment due)
    Column("due_completed_at", UTCDateTime(), nullable=True),
    Column("due_valid_until", UTCDateTime(), nullable=True),
    # the latest committed trust score
    Column("trust_score", Score, nullable=True),
    Column("trust_tier", Text(), nullable=True),
    # what the overview filters, sorts and counts by, worked out from the above when the row is
    # written (aaaf.scoring.fleet_standing): per axis the latest composite and tier; the flags
    # that do not depend on the moment read; the moment after which the badge has expired
    # (none while held or revoked); the largest move of either composite
    Column("performance_score", Score, nullable=True),
    Column("performance_tier", Text(), nullable=True),
    Column("capability_score", Score, nullable=True),
    Column("capability_tier", Text(), nullable=True),
    Column("held", Boolean(), nullable=True),
    Column("revoked", Boolean(), nullable=True),
    Column("borderline", Boolean(), nullable=True),
    Column("expires_at", UTCDateTime(), nullable=True),
    Column("change", Score, nullable=True),
    # by organization, with what the overview's due reads take of each agent (migration 0027)
    Index("idx_agent_summaries_due", "organization_id", "agent_id", "due_completed_at", "due_valid_until"),
)
