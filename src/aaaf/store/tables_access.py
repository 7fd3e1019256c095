"""The tables of who may reach the API (issue 13, SCORING.md §7 "Admin and keys"): an
organization's API keys and OAuth clients (stored only as hashes), the signed-in dashboard
browsers, and the usage counted per organization and day.  Declared on the schema's one
metadata (:mod:`aaaf.store.table_base`); importing :mod:`aaaf.store.tables` declares them."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, Table, Text, Uuid

from aaaf.store.table_base import created_at_column, metadata
from aaaf.store.types import TextArray, UTCDateTime

# SCORING.md §7 "Admin and keys": an organization's API keys, stored only as hashes
api_keys = Table(
    "api_keys",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("name", Text(), nullable=True),
    Column("prefix", Text(), nullable=False),
    Column("key_hash", Text(), nullable=False, unique=True),
    Column("scopes", TextArray(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("revoked_at", UTCDateTime(), nullable=True),
    Column("last_used_at", UTCDateTime(), nullable=True),
    Index("idx_api_keys_organization", "organization_id"),
)

# issue 13 §3: OAuth 2.0 client-credentials clients of an organization (RFC 6749 §4.4); the
# secret is stored only as its SHA-256 (256 random bits: nothing to guess), shown once
oauth_clients = Table(
    "oauth_clients",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    Column("client_id", Text(), nullable=False, unique=True),
    Column("secret_hash", Text(), nullable=False),
    Column("name", Text(), nullable=True),
    Column("scopes", TextArray(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("revoked_at", UTCDateTime(), nullable=True),
    Index("idx_oauth_clients_organization", "organization_id"),
)

# issue 13 §4: usage per organization and UTC day (counters added to by every server process)
usage_daily = Table(
    "usage_daily",
    metadata,
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), primary_key=True),
    Column("day", Text(), primary_key=True),  # YYYY-MM-DD (UTC): sorts and compares as the day does
    Column("api_calls", Integer(), nullable=False, server_default="0"),
    Column("events_accepted", Integer(), nullable=False, server_default="0"),
    Column("assessments_run", Integer(), nullable=False, server_default="0"),
)

# a signed-in dashboard browser (docs/security.md "Sessions"): its cookie names the row, and
# signing out ends it here, so a copied cookie stops working at once
dashboard_sessions = Table(
    "dashboard_sessions",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("organization_id", Uuid(), ForeignKey("organizations.id"), nullable=False),
    created_at_column(),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("ended_at", UTCDateTime(), nullable=True),
)
