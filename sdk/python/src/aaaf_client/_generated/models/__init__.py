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
from .appeal import Appeal
from .appeal_cause import AppealCause
from .appeal_counter_evidence_item import AppealCounterEvidenceItem
from .appeal_create import AppealCreate
from .appeal_page import AppealPage
from .appeal_resolution import AppealResolution
from .appeal_resolution_decision import AppealResolutionDecision
from .appeal_resolution_type_0 import AppealResolutionType0
from .assessment import Assessment
from .assessment_appeals_type_0_item import AssessmentAppealsType0Item
from .assessment_changes import AssessmentChanges
from .assessment_create import AssessmentCreate
from .assessment_create_type import AssessmentCreateType
from .assessment_error_type_1 import AssessmentErrorType1
from .assessment_started import AssessmentStarted
from .audit_cause import AuditCause
from .audit_findings import AuditFindings
from .audit_sample import AuditSample
from .audit_sample_request import AuditSampleRequest
from .audit_sample_task import AuditSampleTask
from .audit_status import AuditStatus
from .audit_status_refuted_item import AuditStatusRefutedItem
from .audit_summary import AuditSummary
from .audit_summary_refuted_item import AuditSummaryRefutedItem
from .axis_change import AxisChange
from .axis_evidence import AxisEvidence
from .axis_score import AxisScore
from .axis_score_dimensions import AxisScoreDimensions
from .badge import Badge
from .badge_credential import BadgeCredential
from .badge_credential_credential_schema_item import BadgeCredentialCredentialSchemaItem
from .badge_credential_credentialsubject import BadgeCredentialCredentialsubject
from .badge_credential_evidence_item import BadgeCredentialEvidenceItem
from .badge_credential_image import BadgeCredentialImage
from .badge_credential_issuer import BadgeCredentialIssuer
from .badge_on_record import BadgeOnRecord
from .badge_on_record_json_data_type_0 import BadgeOnRecordJsonDataType0
from .badge_revocation import BadgeRevocation
from .badge_urls import BadgeUrls
from .batch_result import BatchResult
from .benchmark_cell import BenchmarkCell
from .benchmark_table import BenchmarkTable
from .blank_finding import BlankFinding
from .blank_finding_checklist import BlankFindingChecklist
from .body_create_events_batch import BodyCreateEventsBatch
from .compare_in import CompareIn
from .compare_in_weights_type_0 import CompareInWeightsType0
from .comparison import Comparison
from .comparison_badges import ComparisonBadges
from .comparison_calibration_type_0 import ComparisonCalibrationType0
from .comparison_grading import ComparisonGrading
from .comparison_hotelling_type_0 import ComparisonHotellingType0
from .comparison_judges import ComparisonJudges
from .comparison_layers import ComparisonLayers
from .comparison_layers_additional_property import ComparisonLayersAdditionalProperty
from .comparison_method import ComparisonMethod
from .comparison_standardisation_type_0 import ComparisonStandardisationType0
from .composite_diff import CompositeDiff
from .config_weights import ConfigWeights
from .config_weights_capability_weights import ConfigWeightsCapabilityWeights
from .config_weights_performance_weights import ConfigWeightsPerformanceWeights
from .configuration_change import ConfigurationChange
from .counter_evidence import CounterEvidence
from .create_event_event import CreateEventEvent
from .created_api_key import CreatedApiKey
from .created_o_auth_client import CreatedOAuthClient
from .credential_proof import CredentialProof
from .delivery_attempt import DeliveryAttempt
from .delivery_out import DeliveryOut
from .dimension_change import DimensionChange
from .dimension_score import DimensionScore
from .dimension_standing import DimensionStanding
from .eval_run import EvalRun
from .eval_run_page import EvalRunPage
from .eval_run_run import EvalRunRun
from .eval_run_summary import EvalRunSummary
from .event_item_error import EventItemError
from .event_out import EventOut
from .event_out_data import EventOutData
from .event_stored import EventStored
from .evidence_sources import EvidenceSources
from .grading_summary import GradingSummary
from .health import Health
from .http_validation_error import HTTPValidationError
from .judge_calibration import JudgeCalibration
from .jwk import Jwk
from .jwks import Jwks
from .key_create import KeyCreate
from .library_upload import LibraryUpload
from .library_upload_colleagues_item import LibraryUploadColleaguesItem
from .library_upload_documents import LibraryUploadDocuments
from .library_upload_tasks_item import LibraryUploadTasksItem
from .library_upload_visibility import LibraryUploadVisibility
from .list_agents_status_type_0 import ListAgentsStatusType0
from .list_assessments_status_type_0 import ListAssessmentsStatusType0
from .model_graded import ModelGraded
from .o_auth_client import OAuthClient
from .o_auth_client_create import OAuthClientCreate
from .oauth_token_body import OauthTokenBody
from .oauth_token_body_grant_type import OauthTokenBodyGrantType
from .org_config import OrgConfig
from .org_config_capability_weights import OrgConfigCapabilityWeights
from .org_config_performance_weights import OrgConfigPerformanceWeights
from .org_config_speed_baselines import OrgConfigSpeedBaselines
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
from .page_score_history_entry import PageScoreHistoryEntry
from .page_stress_library import PageStressLibrary
from .page_usage_day import PageUsageDay
from .page_webhook_out import PageWebhookOut
from .public_verification import PublicVerification
from .public_verification_evidence_sources_type_0 import PublicVerificationEvidenceSourcesType0
from .queue_status import QueueStatus
from .reported_facts import ReportedFacts
from .reported_facts_checklist import ReportedFactsChecklist
from .review import Review
from .review_decision import ReviewDecision
from .revocation import Revocation
from .run_ref import RunRef
from .score_history_entry import ScoreHistoryEntry
from .score_history_entry_details import ScoreHistoryEntryDetails
from .security_gate import SecurityGate
from .several_comparison import SeveralComparison
from .several_comparison_calibration_type_0 import SeveralComparisonCalibrationType0
from .several_grading import SeveralGrading
from .stress_library import StressLibrary
from .stress_run import StressRun
from .stress_run_queued import StressRunQueued
from .stress_run_request_type_0 import StressRunRequestType0
from .stress_run_result import StressRunResult
from .stress_run_result_details import StressRunResultDetails
from .stress_run_summary import StressRunSummary
from .stress_run_with_results import StressRunWithResults
from .stress_run_with_results_request_type_0 import StressRunWithResultsRequestType0
from .stress_run_with_results_summary import StressRunWithResultsSummary
from .stress_test_request import StressTestRequest
from .taxonomy import Taxonomy
from .taxonomy_update import TaxonomyUpdate
from .token_answer import TokenAnswer
from .treatment_comparison import TreatmentComparison
from .treatment_comparison_badges import TreatmentComparisonBadges
from .treatment_comparison_hotelling_type_0 import TreatmentComparisonHotellingType0
from .treatment_comparison_judges import TreatmentComparisonJudges
from .treatment_comparison_layers import TreatmentComparisonLayers
from .treatment_comparison_layers_additional_property import TreatmentComparisonLayersAdditionalProperty
from .treatment_comparison_method import TreatmentComparisonMethod
from .treatment_comparison_standardisation_type_0 import TreatmentComparisonStandardisationType0
from .trust_dimension import TrustDimension
from .trust_history import TrustHistory
from .trust_score import TrustScore
from .trust_score_dimensions import TrustScoreDimensions
from .trust_score_weights_in_force import TrustScoreWeightsInForce
from .trust_score_weights_used import TrustScoreWeightsUsed
from .uncertainty import Uncertainty
from .uncertainty_tier_probabilities import UncertaintyTierProbabilities
from .unpaired import Unpaired
from .update_config_changes import UpdateConfigChanges
from .upload_eval_run_files_body import UploadEvalRunFilesBody
from .upload_eval_run_json_body import UploadEvalRunJsonBody
from .usage_day import UsageDay
from .validation_error import ValidationError
from .validation_error_context import ValidationErrorContext
from .visibility_change import VisibilityChange
from .visibility_change_visibility import VisibilityChangeVisibility
from .webhook_create import WebhookCreate
from .webhook_created import WebhookCreated
from .webhook_out import WebhookOut
from .webhook_update import WebhookUpdate
from .weight_override import WeightOverride
from .weight_override_supplied_type_0 import WeightOverrideSuppliedType0
from .weights_update import WeightsUpdate
from .weights_update_capability_weights_type_0 import WeightsUpdateCapabilityWeightsType0
from .weights_update_performance_weights_type_0 import WeightsUpdatePerformanceWeightsType0
from .workflow_agent_mean import WorkflowAgentMean
from .workflow_agent_weight import WorkflowAgentWeight
from .workflow_run import WorkflowRun
from .workflow_run_inputs import WorkflowRunInputs
from .workflow_runs_in import WorkflowRunsIn
from .workflow_score import WorkflowScore
from .workflow_weights import WorkflowWeights

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
    "Appeal",
    "AppealCause",
    "AppealCounterEvidenceItem",
    "AppealCreate",
    "AppealPage",
    "AppealResolution",
    "AppealResolutionDecision",
    "AppealResolutionType0",
    "Assessment",
    "AssessmentAppealsType0Item",
    "AssessmentChanges",
    "AssessmentCreate",
    "AssessmentCreateType",
    "AssessmentErrorType1",
    "AssessmentStarted",
    "AuditCause",
    "AuditFindings",
    "AuditSample",
    "AuditSampleRequest",
    "AuditSampleTask",
    "AuditStatus",
    "AuditStatusRefutedItem",
    "AuditSummary",
    "AuditSummaryRefutedItem",
    "AxisChange",
    "AxisEvidence",
    "AxisScore",
    "AxisScoreDimensions",
    "Badge",
    "BadgeCredential",
    "BadgeCredentialCredentialSchemaItem",
    "BadgeCredentialCredentialsubject",
    "BadgeCredentialEvidenceItem",
    "BadgeCredentialImage",
    "BadgeCredentialIssuer",
    "BadgeOnRecord",
    "BadgeOnRecordJsonDataType0",
    "BadgeRevocation",
    "BadgeUrls",
    "BatchResult",
    "BenchmarkCell",
    "BenchmarkTable",
    "BlankFinding",
    "BlankFindingChecklist",
    "BodyCreateEventsBatch",
    "CompareIn",
    "CompareInWeightsType0",
    "Comparison",
    "ComparisonBadges",
    "ComparisonCalibrationType0",
    "ComparisonGrading",
    "ComparisonHotellingType0",
    "ComparisonJudges",
    "ComparisonLayers",
    "ComparisonLayersAdditionalProperty",
    "ComparisonMethod",
    "ComparisonStandardisationType0",
    "CompositeDiff",
    "ConfigurationChange",
    "ConfigWeights",
    "ConfigWeightsCapabilityWeights",
    "ConfigWeightsPerformanceWeights",
    "CounterEvidence",
    "CreatedApiKey",
    "CreatedOAuthClient",
    "CreateEventEvent",
    "CredentialProof",
    "DeliveryAttempt",
    "DeliveryOut",
    "DimensionChange",
    "DimensionScore",
    "DimensionStanding",
    "EvalRun",
    "EvalRunPage",
    "EvalRunRun",
    "EvalRunSummary",
    "EventItemError",
    "EventOut",
    "EventOutData",
    "EventStored",
    "EvidenceSources",
    "GradingSummary",
    "Health",
    "HTTPValidationError",
    "JudgeCalibration",
    "Jwk",
    "Jwks",
    "KeyCreate",
    "LibraryUpload",
    "LibraryUploadColleaguesItem",
    "LibraryUploadDocuments",
    "LibraryUploadTasksItem",
    "LibraryUploadVisibility",
    "ListAgentsStatusType0",
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
    "OrgConfig",
    "OrgConfigCapabilityWeights",
    "OrgConfigPerformanceWeights",
    "OrgConfigSpeedBaselines",
    "PageAgent",
    "PageApiKey",
    "PageAssessment",
    "PageDeliveryOut",
    "PageEventOut",
    "PageOAuthClient",
    "PageScoreHistoryEntry",
    "PageStressLibrary",
    "PageUsageDay",
    "PageWebhookOut",
    "PublicVerification",
    "PublicVerificationEvidenceSourcesType0",
    "QueueStatus",
    "ReportedFacts",
    "ReportedFactsChecklist",
    "Review",
    "ReviewDecision",
    "Revocation",
    "RunRef",
    "ScoreHistoryEntry",
    "ScoreHistoryEntryDetails",
    "SecurityGate",
    "SeveralComparison",
    "SeveralComparisonCalibrationType0",
    "SeveralGrading",
    "StressLibrary",
    "StressRun",
    "StressRunQueued",
    "StressRunRequestType0",
    "StressRunResult",
    "StressRunResultDetails",
    "StressRunSummary",
    "StressRunWithResults",
    "StressRunWithResultsRequestType0",
    "StressRunWithResultsSummary",
    "StressTestRequest",
    "Taxonomy",
    "TaxonomyUpdate",
    "TokenAnswer",
    "TreatmentComparison",
    "TreatmentComparisonBadges",
    "TreatmentComparisonHotellingType0",
    "TreatmentComparisonJudges",
    "TreatmentComparisonLayers",
    "TreatmentComparisonLayersAdditionalProperty",
    "TreatmentComparisonMethod",
    "TreatmentComparisonStandardisationType0",
    "TrustDimension",
    "TrustHistory",
    "TrustScore",
    "TrustScoreDimensions",
    "TrustScoreWeightsInForce",
    "TrustScoreWeightsUsed",
    "Uncertainty",
    "UncertaintyTierProbabilities",
    "Unpaired",
    "UpdateConfigChanges",
    "UploadEvalRunFilesBody",
    "UploadEvalRunJsonBody",
    "UsageDay",
    "ValidationError",
    "ValidationErrorContext",
    "VisibilityChange",
    "VisibilityChangeVisibility",
    "WebhookCreate",
    "WebhookCreated",
    "WebhookOut",
    "WebhookUpdate",
    "WeightOverride",
    "WeightOverrideSuppliedType0",
    "WeightsUpdate",
    "WeightsUpdateCapabilityWeightsType0",
    "WeightsUpdatePerformanceWeightsType0",
    "WorkflowAgentMean",
    "WorkflowAgentWeight",
    "WorkflowRun",
    "WorkflowRunInputs",
    "WorkflowRunsIn",
    "WorkflowScore",
    "WorkflowWeights",
)
