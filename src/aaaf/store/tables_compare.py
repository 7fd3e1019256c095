"""The ``compare_reports`` table (migration 0024), declared on the schema's one metadata
(:mod:`aaaf.store.table_base`); importing :mod:`aaaf.store.tables` declares it."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Column, ForeignKey, Integer, Table, Text, Uuid

from aaaf.store.table_base import created_at_column, metadata, one_of
from aaaf.store.types import JSONDocument, UTCDateTime

# a dashboard compare report run as a job (issue 32): what was asked, where its job stands,
# and the report's HTML once it is done (or why it failed)
COMPARE_REPORT_STATUSES = ("queued", "running", "done", "failed")
compare_reports = Table(
    "compare_reports",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    created_at_column(),
    Column("control", Text(), nullable=False),
    Column("treatments", JSONDocument, nullable=False),
    Column("resamples", Integer(), nullable=False),
    Column("status", Text(), nullable=False),
    Column("started_at", UTCDateTime(), nullable=True),
    Column("finished_at", UTCDateTime(), nullable=True),
    Column("html", Text(), nullable=True),
    Column("error", Text(), nullable=True),
    CheckConstraint(one_of("status", COMPARE_REPORT_STATUSES), name="status"),
)
