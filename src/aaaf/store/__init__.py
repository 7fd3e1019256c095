"""The store: SQLAlchemy 2 tables, Alembic migrations, repositories (SQLite and PostgreSQL).

``open_store(url)`` opens a database (upgrading its schema to head), ``Store`` holds the
unscoped operations (organizations, public badge lookup) and ``Store.scope(org_id)``
gives an ``OrgStore`` whose every query is filtered by that organization.  Everything
returned is a plain frozen dataclass (:mod:`aaaf.store.records`).

The names below are loaded on first use (PEP 562), so that importing a submodule that needs
no SQLAlchemy — :mod:`aaaf.store.sqlite_events`, the event source of ``assess --all``'s
helper processes on SQLite — does not import it (a helper starts in about 0.2 s instead of
1.5 s, measured; see :mod:`aaaf.services.assess_parallel`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aaaf._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "DEFAULT_ORGANIZATION_ID": "aaaf.store.store",
    "DEFAULT_ORGANIZATION_NAME": "aaaf.store.store",
    "Agent": "aaaf.store.records",
    "Appeal": "aaaf.store.records",
    "Assessment": "aaaf.store.records",
    "Badge": "aaaf.store.records",
    "DimensionRow": "aaaf.store.org_store",
    "DimensionScore": "aaaf.store.records",
    "EventLike": "aaaf.store.event_writer",
    "EventSource": "aaaf.store.event_source",
    "OrgStore": "aaaf.store.org_store",
    "Organization": "aaaf.store.records",
    "ScoreHistoryEntry": "aaaf.store.records",
    "Store": "aaaf.store.store",
    "StressTest": "aaaf.store.records",
    "StressTestResult": "aaaf.store.records",
    "TrustOverride": "aaaf.store.records",
    "Webhook": "aaaf.store.records",
    "WebhookDelivery": "aaaf.store.records",
    "open_store": "aaaf.store.store",
}

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
    "EventSource",
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

if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from aaaf.store.event_source import EventSource
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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
