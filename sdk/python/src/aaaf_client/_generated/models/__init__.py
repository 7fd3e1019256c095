""" Contains all the data models used in inputs/outputs """

from .agent import Agent
from .agent_create import AgentCreate
from .agent_create_metadata import AgentCreateMetadata
from .agent_metadata import AgentMetadata
from .agent_patch import AgentPatch
from .agent_patch_metadata_type_0 import AgentPatchMetadataType0
from .agent_patch_status_type_0 import AgentPatchStatusType0
from .agent_standing import AgentStanding
from .api_key import ApiKey
from .appeal_create import AppealCreate
from .appeal_resolution import AppealResolution
from .appeal_resolution_decision import AppealResolutionDecision
from .assessment import Assessment
from .assessment_appeals_type_0_item import AssessmentAppealsType0Item
from .assessment_changes import AssessmentChanges
from .assessment_create import AssessmentCreate
from .assessment_create_type import AssessmentCreateType
from .assessment_error_type_1 import AssessmentErrorType1
from .assessment_started import AssessmentStarted
from .audit_findings import AuditFindings
from .audit_sample import AuditSample
from .audit_sample_request import AuditSampleRequest
from .audit_sample_task import AuditSampleTask
from .audit_sample_task_finding import AuditSampleTaskFinding
from .audit_sample_task_self_reported import AuditSampleTaskSelfReported
from .audit_status import AuditStatus
from .audit_status_refuted_item import AuditStatusRefutedItem
from .audit_summary import AuditSummary
from .audit_summary_refuted_item import AuditSummaryRefutedItem
from .axis_change import AxisChange
from .axis_evidence import AxisEvidence
from .axis_score import AxisScore
from .axis_score_dimensions import AxisScoreDimensions
from .badge_revocation import BadgeRevocation
from .badge_urls import BadgeUrls
from .batch_result import BatchResult
from .benchmark_cell import BenchmarkCell
from .benchmark_table import BenchmarkTable
from .body_create_events_batch import BodyCreateEventsBatch
from .compare_eval_runs_response_compare_eval_runs import CompareEvalRunsResponseCompareEvalRuns
from .compare_in import CompareIn
from .compare_in_weights_type_0 import CompareInWeightsType0
from .configuration_change import ConfigurationChange
from .counter_evidence import CounterEvidence
from .create_event_event import CreateEventEvent
from .created_api_key import CreatedApiKey
from .created_o_auth_client import CreatedOAuthClient
from .delivery_attempt import DeliveryAttempt
from .delivery_out import DeliveryOut
from .dimension_change import DimensionChange
from .dimension_score import DimensionScore
from .dimension_standing import DimensionStanding
from .event_item_error import EventItemError
from .event_out import EventOut
from .event_out_data import EventOutData
from .event_stored import EventStored
from .evidence_sources import EvidenceSources
from .file_appeal_response_file_appeal import FileAppealResponseFileAppeal
from .get_appeal_response_get_appeal import GetAppealResponseGetAppeal
from .get_badge_response_get_badge import GetBadgeResponseGetBadge
from .get_config_response_get_config import GetConfigResponseGetConfig
from .get_eval_run_response_get_eval_run import GetEvalRunResponseGetEvalRun
from .get_jwks_response_get_jwks import GetJwksResponseGetJwks
from .get_stress_run_response_get_stress_run import GetStressRunResponseGetStressRun
from .get_taxonomy_response_get_taxonomy import GetTaxonomyResponseGetTaxonomy
from .get_trust_score_response_get_trust_score import GetTrustScoreResponseGetTrustScore
from .get_weights_response_get_weights import GetWeightsResponseGetWeights
from .get_workflow_score_response_get_workflow_score import GetWorkflowScoreResponseGetWorkflowScore
from .get_workflow_weights_response_get_workflow_weights import GetWorkflowWeightsResponseGetWorkflowWeights
from .health import Health
from .http_validation_error import HTTPValidationError
from .key_create import KeyCreate
from .library_upload import LibraryUpload
from .library_upload_colleagues_item import LibraryUploadColleaguesItem
from .library_upload_documents import LibraryUploadDocuments
from .library_upload_tasks_item import LibraryUploadTasksItem
from .library_upload_visibility import LibraryUploadVisibility
from .list_agents_status_type_0 import ListAgentsStatusType0
from .list_appeals_response_list_appeals import ListAppealsResponseListAppeals
from .list_assessments_status_type_0 import ListAssessmentsStatusType0
from .model_graded import ModelGraded
from .o_auth_client import OAuthClient
from .o_auth_client_create import OAuthClientCreate
from .oauth_token_body import OauthTokenBody
from .oauth_token_body_grant_type import OauthTokenBodyGrantType
from .organization import Organization
from .organization_create import OrganizationCreate
from .organization_create_capability_weights_type_0 import OrganizationCreateCapabilityWeightsType0
from .organization_create_performance_weights_type_0 import OrganizationCreatePerformanceWeightsType0
from .organization_created import OrganizationCreated
from .organization_patch import OrganizationPatch
from .page_agent import PageAgent
from .page_api_key import PageApiKey
from .page_assessment import PageAssessment
from .page_delivery_out import PageDeliveryOut
from .page_event_out import PageEventOut
from .page_o_auth_client import PageOAuthClient
from .page_stress_library import PageStressLibrary
from .page_usage_day import PageUsageDay
from .page_webhook_out import PageWebhookOut
from .pagedictstr_any import PagedictstrAny
from .pagedictstr_any_items_item import PagedictstrAnyItemsItem
from .queue_status import QueueStatus
from .recompute_trust_score_response_recompute_trust_score import RecomputeTrustScoreResponseRecomputeTrustScore
from .resolve_appeal_response_resolve_appeal import ResolveAppealResponseResolveAppeal
from .review import Review
from .review_decision import ReviewDecision
from .revocation import Revocation
from .run_stress_test_response_run_stress_test import RunStressTestResponseRunStressTest
from .set_taxonomy_response_set_taxonomy import SetTaxonomyResponseSetTaxonomy
from .set_weights_response_set_weights import SetWeightsResponseSetWeights
from .stress_library import StressLibrary
from .stress_test_request import StressTestRequest
from .taxonomy_update import TaxonomyUpdate
from .token_answer import TokenAnswer
from .uncertainty import Uncertainty
from .uncertainty_tier_probabilities import UncertaintyTierProbabilities
from .update_badge_response_update_badge import UpdateBadgeResponseUpdateBadge
from .update_config_changes import UpdateConfigChanges
from .update_config_response_update_config import UpdateConfigResponseUpdateConfig
from .upload_eval_run_files_body import UploadEvalRunFilesBody
from .upload_eval_run_json_body import UploadEvalRunJsonBody
from .usage_day import UsageDay
from .validation_error import ValidationError
from .validation_error_context import ValidationErrorContext
from .verify_badge_response_verify_badge import VerifyBadgeResponseVerifyBadge
from .visibility_change import VisibilityChange
from .visibility_change_visibility import VisibilityChangeVisibility
from .webhook_create import WebhookCreate
from .webhook_created import WebhookCreated
from .webhook_out import WebhookOut
from .webhook_update import WebhookUpdate
from .weights_update import WeightsUpdate
from .weights_update_capability_weights_type_0 import WeightsUpdateCapabilityWeightsType0
from .weights_update_performance_weights_type_0 import WeightsUpdatePerformanceWeightsType0
from .workflow_runs_in import WorkflowRunsIn

__all__ = (
    "Agent",
    "AgentCreate",
    "AgentCreateMetadata",
    "AgentMetadata",
    "AgentPatch",
    "AgentPatchMetadataType0",
    "AgentPatchStatusType0",
    "AgentStanding",
    "ApiKey",
    "AppealCreate",
    "AppealResolution",
    "AppealResolutionDecision",
    "Assessment",
    "AssessmentAppealsType0Item",
    "AssessmentChanges",
    "AssessmentCreate",
    "AssessmentCreateType",
    "AssessmentErrorType1",
    "AssessmentStarted",
    "AuditFindings",
    "AuditSample",
    "AuditSampleRequest",
    "AuditSampleTask",
    "AuditSampleTaskFinding",
    "AuditSampleTaskSelfReported",
    "AuditStatus",
    "AuditStatusRefutedItem",
    "AuditSummary",
    "AuditSummaryRefutedItem",
    "AxisChange",
    "AxisEvidence",
    "AxisScore",
    "AxisScoreDimensions",
    "BadgeRevocation",
    "BadgeUrls",
    "BatchResult",
    "BenchmarkCell",
    "BenchmarkTable",
    "BodyCreateEventsBatch",
    "CompareEvalRunsResponseCompareEvalRuns",
    "CompareIn",
    "CompareInWeightsType0",
    "ConfigurationChange",
    "CounterEvidence",
    "CreatedApiKey",
    "CreatedOAuthClient",
    "CreateEventEvent",
    "DeliveryAttempt",
    "DeliveryOut",
    "DimensionChange",
    "DimensionScore",
    "DimensionStanding",
    "EventItemError",
    "EventOut",
    "EventOutData",
    "EventStored",
    "EvidenceSources",
    "FileAppealResponseFileAppeal",
    "GetAppealResponseGetAppeal",
    "GetBadgeResponseGetBadge",
    "GetConfigResponseGetConfig",
    "GetEvalRunResponseGetEvalRun",
    "GetJwksResponseGetJwks",
    "GetStressRunResponseGetStressRun",
    "GetTaxonomyResponseGetTaxonomy",
    "GetTrustScoreResponseGetTrustScore",
    "GetWeightsResponseGetWeights",
    "GetWorkflowScoreResponseGetWorkflowScore",
    "GetWorkflowWeightsResponseGetWorkflowWeights",
    "Health",
    "HTTPValidationError",
    "KeyCreate",
    "LibraryUpload",
    "LibraryUploadColleaguesItem",
    "LibraryUploadDocuments",
    "LibraryUploadTasksItem",
    "LibraryUploadVisibility",
    "ListAgentsStatusType0",
    "ListAppealsResponseListAppeals",
    "ListAssessmentsStatusType0",
    "ModelGraded",
    "OAuthClient",
    "OAuthClientCreate",
    "OauthTokenBody",
    "OauthTokenBodyGrantType",
    "Organization",
    "OrganizationCreate",
    "OrganizationCreateCapabilityWeightsType0",
    "OrganizationCreated",
    "OrganizationCreatePerformanceWeightsType0",
    "OrganizationPatch",
    "PageAgent",
    "PageApiKey",
    "PageAssessment",
    "PageDeliveryOut",
    "PagedictstrAny",
    "PagedictstrAnyItemsItem",
    "PageEventOut",
    "PageOAuthClient",
    "PageStressLibrary",
    "PageUsageDay",
    "PageWebhookOut",
    "QueueStatus",
    "RecomputeTrustScoreResponseRecomputeTrustScore",
    "ResolveAppealResponseResolveAppeal",
    "Review",
    "ReviewDecision",
    "Revocation",
    "RunStressTestResponseRunStressTest",
    "SetTaxonomyResponseSetTaxonomy",
    "SetWeightsResponseSetWeights",
    "StressLibrary",
    "StressTestRequest",
    "TaxonomyUpdate",
    "TokenAnswer",
    "Uncertainty",
    "UncertaintyTierProbabilities",
    "UpdateBadgeResponseUpdateBadge",
    "UpdateConfigChanges",
    "UpdateConfigResponseUpdateConfig",
    "UploadEvalRunFilesBody",
    "UploadEvalRunJsonBody",
    "UsageDay",
    "ValidationError",
    "ValidationErrorContext",
    "VerifyBadgeResponseVerifyBadge",
    "VisibilityChange",
    "VisibilityChangeVisibility",
    "WebhookCreate",
    "WebhookCreated",
    "WebhookOut",
    "WebhookUpdate",
    "WeightsUpdate",
    "WeightsUpdateCapabilityWeightsType0",
    "WeightsUpdatePerformanceWeightsType0",
    "WorkflowRunsIn",
)
