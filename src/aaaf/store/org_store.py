"""Repositories of one organization: every query is filtered by it.

:class:`OrgStore` composes the concept repositories of :mod:`aaaf.store.repositories`
(configuration, agents, events, assessments, appeals, badges, trust history, webhooks,
stress tests) over one organization-scoped base with one unit of work.
"""

from __future__ import annotations

from aaaf.store.agent_summaries import AgentSummaryRepository
from aaaf.store.repositories.assessments import DimensionRow
from aaaf.store.repositories.badge_visibility import BadgeVisibilityRepository
from aaaf.store.repositories.badges import badge_from_row
from aaaf.store.repositories.base import AgentRef, as_uuid, not_found, now_utc, organization_from_row
from aaaf.store.repositories.config import read_org_config, write_org_config
from aaaf.store.repositories.eval_runs import EvalRunRepository
from aaaf.store.repositories.gate_decisions import GateDecisionRepository
from aaaf.store.repositories.otlp_spans import OtlpSpanRepository
from aaaf.store.repositories.pages import PageRepository
from aaaf.store.repositories.retention import PruneCounts, RetentionRepository
from aaaf.store.repositories.stress_libraries import StressLibraryRepository
from aaaf.store.repositories.stress_runs import StressRunRepository
from aaaf.store.repositories.stress_tests import (
    StressTestRepository,
    insert_stress_test,
    stress_test_from_row,
)
from aaaf.store.repositories.transactions import TransactionRepository
from aaaf.store.repositories.webhook_deliveries import WebhookDeliveryRepository

__all__ = [
    "AgentRef",
    "DimensionRow",
    "OrgStore",
    "PruneCounts",
    "as_uuid",
    "badge_from_row",
    "insert_stress_test",
    "not_found",
    "now_utc",
    "organization_from_row",
    "read_org_config",
    "stress_test_from_row",
    "write_org_config",
]


class OrgStore(
    AgentSummaryRepository,  # the overview's per-agent summary (0022)
    StressTestRepository,
    EvalRunRepository,
    WebhookDeliveryRepository,
    StressRunRepository,
    BadgeVisibilityRepository,
    PageRepository,
    RetentionRepository,
    TransactionRepository,
    StressLibraryRepository,  # issue 20 §3
    OtlpSpanRepository,
    GateDecisionRepository,  # the release gate's record (0017)
):
    """Everything one organization owns; obtained from ``Store.scope(org_id)``.

    Each concept is a repository of its own module; this class is all of them over one
    organization and, inside :meth:`unit_of_work`, one transaction.
    """
