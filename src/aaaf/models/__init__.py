"""One home for the public shapes: every result the CLI's ``--json`` prints and
the API answers is one of these pydantic models, dumped by :func:`dump`.

JSON Schemas of them are generated into ``docs/schemas/`` by ``scripts/gen_schemas.py``.

Every name is loaded on first use (:mod:`aaaf._lazy`): building a pydantic model costs
milliseconds, and a command builds only the models it prints (``aaaf agents --help`` none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aaaf._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "Number": "aaaf.models._base",
    "OpenModel": "aaaf.models._base",
    "PublicModel": "aaaf.models._base",
    "dump": "aaaf.models._base",
    "dump_list": "aaaf.models._base",
    "ConfigChange": "aaaf.models.admin",
    "ConfigSetResult": "aaaf.models.admin",
    "ConfigShow": "aaaf.models.admin",
    "PendingReview": "aaaf.models.admin",
    "PendingTrustReview": "aaaf.models.admin",
    "ReviewDecision": "aaaf.models.admin",
    "TrustWeightsStatus": "aaaf.models.admin",
    "Assessment": "aaaf.models.assessment",
    "AssessOutcome": "aaaf.models.assessment",
    "AuditSummary": "aaaf.models.assessment",
    "AxisEvidence": "aaaf.models.assessment",
    "AxisScore": "aaaf.models.assessment",
    "BadgeUrls": "aaaf.models.assessment",
    "DimensionScore": "aaaf.models.assessment",
    "EvidenceSources": "aaaf.models.assessment",
    "ModelGraded": "aaaf.models.assessment",
    "Uncertainty": "aaaf.models.assessment",
    "AuditStatus": "aaaf.models.audit",
    "BadgeIssueOutcome": "aaaf.models.badge",
    "BadgeRecord": "aaaf.models.badge",
    "BadgeRevocation": "aaaf.models.badge",
    "BadgeRevoked": "aaaf.models.badge",
    "BadgeVerification": "aaaf.models.badge",
    "IssuedBadge": "aaaf.models.badge",
    "StatusListWritten": "aaaf.models.badge",
    "VerificationCheck": "aaaf.models.badge",
    "AgentStanding": "aaaf.models.benchmark",
    "BenchmarkCell": "aaaf.models.benchmark",
    "BenchmarkComputation": "aaaf.models.benchmark",
    "BenchmarkTable": "aaaf.models.benchmark",
    "DimensionStanding": "aaaf.models.benchmark",
    "StressLibrary": "aaaf.models.benchmark",
    "CollectReport": "aaaf.models.collect",
    "EventError": "aaaf.models.collect",
    "EventWarning": "aaaf.models.collect",
    "Comparison": "aaaf.models.comparison",
    "SeveralComparison": "aaaf.models.comparison",
    "ErrorBody": "aaaf.models.error",
    "ErrorDetail": "aaaf.models.error",
    "BaselinePromoted": "aaaf.models.operations",
    "DatabaseStatus": "aaaf.models.operations",
    "FilesWritten": "aaaf.models.operations",
    "Migration": "aaaf.models.operations",
    "PruneCounts": "aaaf.models.operations",
    "PruneResult": "aaaf.models.operations",
    "QueueStatus": "aaaf.models.operations",
    "ReportsWritten": "aaaf.models.operations",
    "Explanation": "aaaf.models.explain",
    "Agent": "aaaf.models.tenancy",
    "AgentListing": "aaaf.models.tenancy",
    "ApiKey": "aaaf.models.tenancy",
    "CreatedApiKey": "aaaf.models.tenancy",
    "CreatedOAuthClient": "aaaf.models.tenancy",
    "CreatedOrganization": "aaaf.models.tenancy",
    "Enrollment": "aaaf.models.tenancy",
    "OAuthClient": "aaaf.models.tenancy",
    "OAuthClientPage": "aaaf.models.tenancy",
    "Organization": "aaaf.models.tenancy",
    "ScoreHistoryEntry": "aaaf.models.trust",
    "TrustScore": "aaaf.models.trust",
    "WorkflowScore": "aaaf.models.workflow",
    "WorkflowWeights": "aaaf.models.workflow",
    "Appeal": "aaaf.models.appeal",
    "AppealPage": "aaaf.models.appeal",
    "BadgeCredential": "aaaf.models.badge",
    "BadgeOnRecord": "aaaf.models.badge",
    "Jwk": "aaaf.models.badge",
    "Jwks": "aaaf.models.badge",
    "PublicVerification": "aaaf.models.badge",
    "EvalRun": "aaaf.models.eval_run",
    "EvalRunPage": "aaaf.models.eval_run",
    "EvalRunSummary": "aaaf.models.eval_run",
    "ConfigWeights": "aaaf.models.org_config",
    "Taxonomy": "aaaf.models.org_config",
    "OrgConfig": "aaaf.models.org_config",
    "LocalStressRun": "aaaf.models.stress_run",
    "StressRun": "aaaf.models.stress_run",
    "StressRunQueued": "aaaf.models.stress_run",
    "StressRunResult": "aaaf.models.stress_run",
    "StressRunWithResults": "aaaf.models.stress_run",
    "DeliveryAttempt": "aaaf.models.webhook",
    "DeliveryOut": "aaaf.models.webhook",
    "WebhookCreated": "aaaf.models.webhook",
    "WebhookOut": "aaaf.models.webhook",
    "UsageDay": "aaaf.models.usage",
}

#: name → the public result whose JSON Schema is published in docs/schemas/ (its model's name)
_PUBLIC_SHAPE_NAMES: dict[str, str] = {
    "agent": "Agent",
    "agent_listing": "AgentListing",
    "api_key": "ApiKey",
    "api_key_created": "CreatedApiKey",
    "organization": "Organization",
    "organization_created": "CreatedOrganization",
    "enrollment": "Enrollment",
    "assessment": "Assessment",
    "assess_outcome": "AssessOutcome",
    "audit_status": "AuditStatus",
    "badge_verification": "BadgeVerification",
    "status_list_written": "StatusListWritten",
    "collect_report": "CollectReport",
    "comparison": "Comparison",
    "comparison_several": "SeveralComparison",
    "error": "ErrorBody",
    "explanation": "Explanation",
    "trust_score": "TrustScore",
    "score_history_entry": "ScoreHistoryEntry",
    "workflow_score": "WorkflowScore",
    "workflow_weights": "WorkflowWeights",
    "oauth_client": "OAuthClient",
    "oauth_client_created": "CreatedOAuthClient",
    "config_change": "ConfigChange",
    "config_set": "ConfigSetResult",
    "config_show": "ConfigShow",
    "review_decision": "ReviewDecision",
    "pending_review": "PendingReview",
    "trust_weights_status": "TrustWeightsStatus",
    "pending_trust_review": "PendingTrustReview",
    "badge_issue_outcome": "BadgeIssueOutcome",
    "badge_revoked": "BadgeRevoked",
    "badge_revocation": "BadgeRevocation",
    "benchmark_table": "BenchmarkTable",
    "agent_standing": "AgentStanding",
    "benchmark_computation": "BenchmarkComputation",
    "stress_library": "StressLibrary",
    "local_stress_run": "LocalStressRun",
    "database_status": "DatabaseStatus",
    "migration": "Migration",
    "prune_result": "PruneResult",
    "files_written": "FilesWritten",
    "reports_written": "ReportsWritten",
    "baseline_promoted": "BaselinePromoted",
}


def _public_shapes() -> dict[str, Any]:
    return {key: _getattr(model) for key, model in _PUBLIC_SHAPE_NAMES.items()}


__all__ = [
    "PUBLIC_SHAPES",
    "Agent",
    "AgentListing",
    "AgentStanding",
    "ApiKey",
    "Appeal",
    "AppealPage",
    "AssessOutcome",
    "Assessment",
    "AuditStatus",
    "AuditSummary",
    "AxisEvidence",
    "AxisScore",
    "BadgeCredential",
    "BadgeIssueOutcome",
    "BadgeOnRecord",
    "BadgeRecord",
    "BadgeRevocation",
    "BadgeRevoked",
    "BadgeUrls",
    "BadgeVerification",
    "BaselinePromoted",
    "BenchmarkCell",
    "BenchmarkComputation",
    "BenchmarkTable",
    "CollectReport",
    "Comparison",
    "ConfigChange",
    "ConfigSetResult",
    "ConfigShow",
    "ConfigWeights",
    "CreatedApiKey",
    "CreatedOAuthClient",
    "CreatedOrganization",
    "DatabaseStatus",
    "DeliveryAttempt",
    "DeliveryOut",
    "DimensionScore",
    "DimensionStanding",
    "Enrollment",
    "ErrorBody",
    "ErrorDetail",
    "EvalRun",
    "EvalRunPage",
    "EvalRunSummary",
    "EventError",
    "EventWarning",
    "EvidenceSources",
    "Explanation",
    "FilesWritten",
    "IssuedBadge",
    "Jwk",
    "Jwks",
    "LocalStressRun",
    "Migration",
    "ModelGraded",
    "Number",
    "OAuthClient",
    "OAuthClientPage",
    "OpenModel",
    "OrgConfig",
    "Organization",
    "PendingReview",
    "PendingTrustReview",
    "PruneCounts",
    "PruneResult",
    "PublicModel",
    "PublicVerification",
    "QueueStatus",
    "ReportsWritten",
    "ReviewDecision",
    "ScoreHistoryEntry",
    "SeveralComparison",
    "StatusListWritten",
    "StressLibrary",
    "StressRun",
    "StressRunQueued",
    "StressRunResult",
    "StressRunWithResults",
    "Taxonomy",
    "TrustScore",
    "TrustWeightsStatus",
    "Uncertainty",
    "UsageDay",
    "VerificationCheck",
    "WebhookCreated",
    "WebhookOut",
    "WorkflowScore",
    "WorkflowWeights",
    "dump",
    "dump_list",
]

if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from pydantic import BaseModel

    from aaaf.models._base import Number, OpenModel, PublicModel, dump, dump_list
    from aaaf.models.admin import (
        ConfigChange,
        ConfigSetResult,
        ConfigShow,
        PendingReview,
        PendingTrustReview,
        ReviewDecision,
        TrustWeightsStatus,
    )
    from aaaf.models.appeal import Appeal, AppealPage
    from aaaf.models.assessment import (
        Assessment,
        AssessOutcome,
        AuditSummary,
        AxisEvidence,
        AxisScore,
        BadgeUrls,
        DimensionScore,
        EvidenceSources,
        ModelGraded,
        Uncertainty,
    )
    from aaaf.models.audit import AuditStatus
    from aaaf.models.badge import (
        BadgeIssueOutcome,
        BadgeOnRecord,
        BadgeRecord,
        BadgeRevocation,
        BadgeRevoked,
        BadgeVerification,
        IssuedBadge,
        Jwk,
        Jwks,
        PublicVerification,
        StatusListWritten,
        VerificationCheck,
    )
    from aaaf.models.benchmark import (
        AgentStanding,
        BenchmarkCell,
        BenchmarkComputation,
        BenchmarkTable,
        DimensionStanding,
        StressLibrary,
    )
    from aaaf.models.collect import CollectReport, EventError, EventWarning
    from aaaf.models.comparison import Comparison, SeveralComparison
    from aaaf.models.error import ErrorBody, ErrorDetail
    from aaaf.models.eval_run import EvalRun, EvalRunPage, EvalRunSummary
    from aaaf.models.explain import Explanation
    from aaaf.models.operations import (
        BaselinePromoted,
        DatabaseStatus,
        FilesWritten,
        Migration,
        PruneCounts,
        PruneResult,
        QueueStatus,
        ReportsWritten,
    )
    from aaaf.models.org_config import ConfigWeights, OrgConfig, Taxonomy
    from aaaf.models.stress_run import (
        LocalStressRun,
        StressRun,
        StressRunQueued,
        StressRunResult,
        StressRunWithResults,
    )
    from aaaf.models.tenancy import (
        Agent,
        AgentListing,
        ApiKey,
        CreatedApiKey,
        CreatedOAuthClient,
        CreatedOrganization,
        Enrollment,
        OAuthClient,
        OAuthClientPage,
        Organization,
    )
    from aaaf.models.trust import ScoreHistoryEntry, TrustScore
    from aaaf.models.usage import UsageDay
    from aaaf.models.webhook import DeliveryAttempt, DeliveryOut, WebhookCreated, WebhookOut
    from aaaf.models.workflow import WorkflowScore, WorkflowWeights

    PUBLIC_SHAPES: dict[str, type[BaseModel]]

_getattr, __dir__ = lazy_exports(__name__, _EXPORTS)


def __getattr__(name: str) -> Any:
    """``PUBLIC_SHAPES`` (every public shape, built when first read) and the lazy exports."""
    if name == "PUBLIC_SHAPES":
        shapes = _public_shapes()
        globals()["PUBLIC_SHAPES"] = shapes
        return shapes
    return _getattr(name)
