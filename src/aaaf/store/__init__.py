"""The store: SQLAlchemy 2 tables, Alembic migrations, repositories (SQLite and PostgreSQL).

``open_store(url)`` opens a database (upgrading its schema to head), ``Store`` holds the
unscoped operations (organizations, public badge lookup) and ``Store.scope(org_id)``
gives an ``OrgStore`` whose every query is filtered by that organization.  Everything
returned is a plain frozen dataclass (:mod:`aaaf.store.records`).
"""

from aaaf.store.event_writer import EventLike
from aaaf.store.org_store import DimensionRow, OrgStore
from aaaf.store.records import (
    Agent,
    Appeal,
    Assessment,
    Badge,
    DimensionScore,
    Organization,
    ScoreHistoryEntry,
    StressTest,
    StressTestResult,
    TrustOverride,
    Webhook,
    WebhookDelivery,
)
from aaaf.store.store import DEFAULT_ORGANIZATION_ID, DEFAULT_ORGANIZATION_NAME, Store, open_store

__all__ = [
    "DEFAULT_ORGANIZATION_ID",
    "DEFAULT_ORGANIZATION_NAME",
    "Agent",
    "Appeal",
    "Assessment",
    "Badge",
    "DimensionRow",
    "DimensionScore",
    "EventLike",
    "OrgStore",
    "Organization",
    "ScoreHistoryEntry",
    "Store",
    "StressTest",
    "StressTestResult",
    "TrustOverride",
    "Webhook",
    "WebhookDelivery",
    "open_store",
]
