"""One home for the public shapes (issue 10 §3): every result the CLI's ``--json`` prints and
the API answers is one of these pydantic models, dumped by :func:`dump`.

JSON Schemas of them are generated into ``docs/schemas/`` by ``scripts/gen_schemas.py``.
"""

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
    BadgeRecord,
    BadgeRevocation,
    BadgeRevoked,
    BadgeVerification,
    IssuedBadge,
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
from aaaf.models.collect import CollectReport, EventError
from aaaf.models.comparison import Comparison, SeveralComparison
from aaaf.models.error import ErrorBody, ErrorDetail
from aaaf.models.explain import Explanation
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
from aaaf.models.workflow import WorkflowScore, WorkflowWeights

#: name → model of every public result whose JSON Schema is published in docs/schemas/
PUBLIC_SHAPES: dict[str, type[BaseModel]] = {
    "agent": Agent,
    "agent_listing": AgentListing,
    "api_key": ApiKey,
    "api_key_created": CreatedApiKey,
    "organization": Organization,
    "organization_created": CreatedOrganization,
    "enrollment": Enrollment,
    "assessment": Assessment,
    "assess_outcome": AssessOutcome,
    "audit_status": AuditStatus,
    "badge_verification": BadgeVerification,
    "status_list_written": StatusListWritten,
    "collect_report": CollectReport,
    "comparison": Comparison,
    "comparison_several": SeveralComparison,
    "error": ErrorBody,
    "explanation": Explanation,
    "trust_score": TrustScore,
    "score_history_entry": ScoreHistoryEntry,
    "workflow_score": WorkflowScore,
    "workflow_weights": WorkflowWeights,
    "oauth_client": OAuthClient,
    "oauth_client_created": CreatedOAuthClient,
    "config_change": ConfigChange,
    "config_set": ConfigSetResult,
    "config_show": ConfigShow,
    "review_decision": ReviewDecision,
    "pending_review": PendingReview,
    "trust_weights_status": TrustWeightsStatus,
    "pending_trust_review": PendingTrustReview,
    "badge_issue_outcome": BadgeIssueOutcome,
    "badge_revoked": BadgeRevoked,
    "badge_revocation": BadgeRevocation,
    "benchmark_table": BenchmarkTable,  # issue 20 §2
    "agent_standing": AgentStanding,
    "benchmark_computation": BenchmarkComputation,
    "stress_library": StressLibrary,  # issue 20 §3
}

__all__ = [
    "PUBLIC_SHAPES",
    "Agent",
    "AgentListing",
    "AgentStanding",
    "ApiKey",
    "AssessOutcome",
    "Assessment",
    "AuditStatus",
    "AuditSummary",
    "AxisEvidence",
    "AxisScore",
    "BadgeIssueOutcome",
    "BadgeRecord",
    "BadgeRevocation",
    "BadgeRevoked",
    "BadgeUrls",
    "BadgeVerification",
    "BenchmarkCell",
    "BenchmarkComputation",
    "BenchmarkTable",
    "CollectReport",
    "Comparison",
    "ConfigChange",
    "ConfigSetResult",
    "ConfigShow",
    "CreatedApiKey",
    "CreatedOAuthClient",
    "CreatedOrganization",
    "DimensionScore",
    "DimensionStanding",
    "Enrollment",
    "ErrorBody",
    "ErrorDetail",
    "EventError",
    "EvidenceSources",
    "Explanation",
    "IssuedBadge",
    "ModelGraded",
    "Number",
    "OAuthClient",
    "OAuthClientPage",
    "OpenModel",
    "Organization",
    "PendingReview",
    "PendingTrustReview",
    "PublicModel",
    "ReviewDecision",
    "ScoreHistoryEntry",
    "SeveralComparison",
    "StatusListWritten",
    "StressLibrary",
    "TrustScore",
    "TrustWeightsStatus",
    "Uncertainty",
    "VerificationCheck",
    "WorkflowScore",
    "WorkflowWeights",
    "dump",
    "dump_list",
]
