// TypeScript shapes of the payload messages (mirror the .proto files; int64 fields as numbers).

export interface SpanRecord {
  trace_id: string;
  span_id: string;
  parent_id: string;
  span_name: string;
  span_kind: string;
  span_type: string;
  trace_type: string;
  status_code: string;
  status_message: string;
  start_time_us: number;
  end_time_us: number;
  attributes_json: string;
  events_json: string;
  links_json: string;
  references_json: string;
  hashes_json: string;
  session_id: string;
  user_id: string;
  tokens_incremental: Record<string, number>;
  costs_incremental: Record<string, number>;
  errors_incremental: number;
  duration_ms: number;
}

export interface SpansUpserted { trace_id: string; spans: SpanRecord[] }
export interface TraceReplaced { trace_id: string; spans: SpanRecord[] }
export interface TraceDeleted { trace_id: string }

export interface AccountProvisioned {
  user: { id: string; email: string; name: string; username: string };
  organization: { id: string; name: string; slug: string; /** "" = recorded before plans per organization (the default plan applies). */ plan?: string };
  workspace: { id: string; name: string; slug: string };
  project: { id: string; name: string; slug: string };
  api_key?: { id: string; prefix: string; secret_hash: string; expires_at_us: number } | null;
}
export interface UserDeleted { user_id: string; email: string }
/** A user alone (an operator's user without seeded defaults). */
export interface UserCreated { user: { id: string; email: string; name: string; username: string } }

export interface QueryRevisionInfo {
  id: string;
  slug: string;
  version: number;
  /** JSON text of the filtering object; '' = none. */
  filtering_json: string;
  /** JSON text of the windowing object; '' = none. */
  windowing_json: string;
  focus: string;
  format: string;
  message: string;
}
export interface QueryCreated {
  query_id: string;
  slug: string;
  name: string;
  description: string;
  variant_id: string;
  variant_slug: string;
  revision: QueryRevisionInfo;
}
export interface QueryRevisionCommitted { query_id: string; variant_id: string; revision: QueryRevisionInfo }
/** Maps as JSON text; '' = null. */
export interface QueryHeader { name: string; description: string; tags_json: string; meta_json: string; flags_json: string }
export interface QueryArtifactCreated { query_id: string; slug: string; header: QueryHeader; folder_id: string }
export interface QueryArtifactEdited { query_id: string; header: QueryHeader; folder_id: string }
export interface QueryForkedRevision { revision_id: string; slug: string; header: QueryHeader; data_json: string; message: string }
/** `revisions`: a fork's copies of its source's revisions (absent or empty for a plain create). */
export interface QueryVariantCreated { query_id: string; variant_id: string; slug: string; header: QueryHeader; revisions?: QueryForkedRevision[] }
export interface QueryVariantEdited { query_id: string; variant_id: string; header: QueryHeader }
export interface QueryRevisionAdded {
  query_id: string; variant_id: string; revision_id: string; slug: string; version: number; header: QueryHeader;
  /** JSON text of {formatting?, filtering?, windowing?}; '' = no data. */
  data_json: string;
  message: string;
}
export interface QueryRevisionEdited { query_id: string; variant_id: string; revision_id: string; header: QueryHeader }
export interface QueryArchiveSet { query_id: string; target: string; target_id: string; archived: boolean }

/** A versioned artifact's header (maps as JSON text; '' = null). */
export interface ArtifactHeader { name: string; description: string; tags_json: string; meta_json: string; flags_json: string }
export interface ArtifactRevision { revision_id: string; slug: string; version: number; header: ArtifactHeader; data_json: string; message: string }
export interface ArtifactVariantSeed { variant_id: string; slug: string; header: ArtifactHeader; revisions?: ArtifactRevision[] }
export interface ArtifactCreated { family: string; artifact_id: string; slug: string; header: ArtifactHeader; variants?: ArtifactVariantSeed[] }
export interface ArtifactEdited { family: string; artifact_id: string; header: ArtifactHeader }
export interface ArtifactVariantCreated { family: string; artifact_id: string; variant: ArtifactVariantSeed }
export interface ArtifactVariantEdited { family: string; artifact_id: string; variant_id: string; header: ArtifactHeader }
export interface ArtifactRevisionAdded { family: string; artifact_id: string; variant_id: string; revision: ArtifactRevision }
export interface ArtifactRevisionEdited { family: string; artifact_id: string; variant_id: string; revision_id: string; header: ArtifactHeader }
export interface ArtifactArchiveSet { family: string; artifact_id: string; target: string; target_id: string; archived: boolean }
export interface StoredTestcase { id: string; data_json: string; flags_json: string; tags_json: string; meta_json: string }
export interface TestcasesStored { testset_id: string; testcases: StoredTestcase[] }

export interface DomainTokenIssued {
  domain_id: string; organization_id: string; domain: string; name: string; description: string; token: string; issued_at_us: number;
}
export interface DomainVerified { domain_id: string; organization_id: string; domain: string; token: string }
export interface DomainDeleted { domain_id: string; organization_id: string; domain: string }

export interface IdentitySignedIn {
  user_id: string; email: string; name: string; create_user: boolean; method: string; subject: string; issuer: string; auto_join_organization_id: string;
}
export interface SessionRevoked { sid: string; user_id: string; expires_at_us: number }

export interface OrganizationUpdated { organization_id: string; name: string; description: string; flags_json: string }
export interface OrganizationCreated {
  organization: { id: string; name: string; slug: string; plan: string };
  owner_id: string;
  workspace: { id: string; name: string; slug: string };
  project: { id: string; name: string; slug: string };
  description: string;
}
export interface OrganizationDeleted { organization_id: string; actor_id: string; /** An operator deletes it (admin routes): not bound to the owner or their last organization. */ by_operator?: boolean; }
export interface OrganizationTransferred { organization_id: string; from_user_id: string; to_user_id: string }
export interface ProviderInfo {
  provider_id: string; organization_id: string; slug: string; name: string; description: string; flags_json: string;
  issuer_url: string; client_id: string; client_secret_sealed: string; scopes: string[]; extra_json: string;
}
export interface ProviderCreated { provider: ProviderInfo }
export interface ProviderUpdated { provider: ProviderInfo }
export interface ProviderTested { provider_id: string; organization_id: string; passed: boolean; detail: string }
export interface ProviderDeleted { provider_id: string; organization_id: string }
export interface ProviderSecretResealed { provider_id: string; organization_id: string; client_secret_sealed: string }

export interface ApiKeyCreated { key_id: string; project_id: string; user_id: string; prefix: string; secret_hash: string; name: string; expires_at_us: number }
export interface ApiKeyRevoked { key_id: string; project_id: string }

/** Where a role is held: the organization itself ('' or absent), or one of its workspaces or projects. */
export type MembershipScope = '' | 'organization' | 'workspace' | 'project';
export interface MembershipSet { organization_id: string; user_id: string; role: string; scope?: MembershipScope; scope_id?: string }
export interface MembershipRemoved { organization_id: string; user_id: string; scope?: MembershipScope; scope_id?: string }
export interface ProjectCreated { organization_id: string; workspace_id: string; project: { id: string; name: string; slug: string }; is_default: boolean }
export interface ProjectDeleted { organization_id: string; project_id: string }
/** A project's own retention in minutes; 0 = its plan's. */
export interface ProjectRetentionSet { organization_id: string; project_id: string; retention_minutes: number }

export interface InvitationCreated {
  invitation_id: string; organization_id: string; workspace_id: string; project_id: string; email: string; role: string;
  token_hash: string; expires_at_us: number; inviter_id: string;
}
export interface InvitationResent { invitation_id: string; organization_id: string; token_hash: string; expires_at_us: number }
export interface InvitationAccepted { invitation_id: string; organization_id: string; user_id: string; token_hash: string }
export interface InvitationRevoked { organization_id: string; email: string }

export interface SecretInfo {
  secret_id: string; project_id: string; slug: string; kind: string; name: string; description: string;
  public_data_json: string; sealed_data: string; write_only: boolean; managed_by: string; configured: boolean;
}
export interface SecretCreated { secret: SecretInfo }
export interface SecretUpdated { secret: SecretInfo }
export interface SecretDeleted { secret_id: string; project_id: string }

export interface WebhookInfo {
  subscription_id: string; project_id: string; name: string; description: string; tags_json: string; meta_json: string;
  is_active: boolean; url: string; headers_json: string; payload_fields_json: string; auth_mode: string;
  all_event_types: boolean; event_types: string[]; secret_id: string;
}
export interface WebhookCreated { subscription: WebhookInfo }
export interface WebhookUpdated { subscription: WebhookInfo }
export interface WebhookDeleted { subscription_id: string; project_id: string }

export interface ApplicationInfo {
  application_id: string; project_id: string; slug: string; name: string; description: string;
  tags_json: string; meta_json: string; flags_json: string; data_json: string;
}
export interface ApplicationCreated { application: ApplicationInfo; variant_id: string; variant_slug: string; revision0_id: string; revision_id: string }
export interface ApplicationVariantCreated { variant_id: string; application_id: string; project_id: string; slug: string; name: string; flags_json: string; tags_json: string }
export interface ApplicationRevisionCommitted {
  revision_id: string; variant_id: string; application_id: string; project_id: string; slug: string; message: string; data_json: string; version: number;
}
export interface TestcaseInfo { testcase_id: string; data_json: string }
export interface TestsetCreated {
  testset_id: string; project_id: string; slug: string; name: string; description: string; tags_json: string; meta_json: string;
  variant_id: string; revision_id: string; testcases: TestcaseInfo[];
}
export interface HumanEvaluationVariant { variant_id: string; revision_id: string }
export interface HumanEvaluationScenario { scenario_id: string; inputs_json: string; correct_answer: string }
export interface HumanEvaluationCreated {
  evaluation_id: string; project_id: string; app_id: string; evaluation_type: string; status: string; testset_id: string;
  variants: HumanEvaluationVariant[]; scenarios: HumanEvaluationScenario[];
}

/** One fact of a project's events log (platform.events.v1). */
export interface PlatformEvent {
  event_type: string; request_type: string; status_code: string; status_message: string; attributes_json: string; user_id: string;
}

/** A delivery's state after an attempt (webhooks.deliveries.v1). */
export interface DeliveryRecorded {
  delivery_id: string; project_id: string; subscription_id: string; event_id: string;
  status_json: string; data_json: string; attempts: number; final: boolean;
}

export interface BillingSubscriptionSet {
  organization_id: string; plan: string; active: boolean; anchor: number; customer_id: string; subscription_id: string;
  reason: string; processor_event_id: string; reset_auth_flags: boolean; trialing: boolean;
}

/** A project's redaction policy after the change: JSON text, '' = none. */
export interface RedactionPolicySet { project_id: string; policy_json: string }

// Evaluation runs (evaluations.v1, keyed `<project_id>:<run_id>`): JSON text fields, '' = absent.
export interface EvaluationRunInfo {
  run_id: string; name: string; description: string; status: string; flags_json: string; tags_json: string; meta_json: string; data_json: string;
}
export interface EvaluationRunCreated { run: EvaluationRunInfo }
export interface EvaluationRunEdited { run: EvaluationRunInfo }
/** '' = unchanged; is_closed / is_active are 'true' | 'false'. */
export interface EvaluationRunLifecycleSet { run_id: string; is_closed: string; is_active: string; status: string }
export interface EvaluationRunDeleted { run_id: string }
/** interval: minutes, -1 = none; timestamp: ISO, '' = none. */
export interface EvaluationScenarioInfo {
  scenario_id: string; status: string; timestamp: string; interval: number; flags_json: string; tags_json: string; meta_json: string;
}
export interface EvaluationScenariosAdded { run_id: string; scenarios: EvaluationScenarioInfo[] }
export interface EvaluationScenariosEdited { run_id: string; scenarios: EvaluationScenarioInfo[] }
export interface EvaluationScenariosDeleted { run_id: string; scenario_ids: string[] }
export interface EvaluationResultInfo {
  result_id: string; scenario_id: string; step_key: string; repeat_idx: number; status: string; trace_id: string; hash_id: string;
  testcase_id: string; error_json: string; timestamp: string; interval: number; flags_json: string; tags_json: string; meta_json: string;
}
export interface EvaluationResultsUpserted { run_id: string; results: EvaluationResultInfo[] }
export interface EvaluationResultsDeleted { run_id: string; result_ids: string[] }
export interface EvaluationMetricInfo {
  metric_id: string; scenario_id: string; timestamp: string; interval: number; status: string; data_json: string; flags_json: string; tags_json: string; meta_json: string;
}
export interface EvaluationMetricsUpserted { run_id: string; metrics: EvaluationMetricInfo[] }
export interface EvaluationMetricsDeleted { run_id: string; metric_ids: string[] }
export interface EvaluationMetricsRefreshed { run_id: string; metric: EvaluationMetricInfo; results_seq: number }
export interface EvaluationRunSchemasInferred { run_id: string; schemas_json: string }
/** slice_json: `{scenario_ids?, step_keys?, repeat_idxs?}` (omitted = all); overwrite: re-execute cells that succeeded. */
export interface EvaluationRunDispatched { run_id: string; dispatch_id: string; slice_json: string; overwrite: boolean }
export interface EvaluationRunDispatchFinished { run_id: string; dispatch_id: string; outcome: string }
export interface EvaluationQueueInfo {
  queue_id: string; name: string; description: string; status: string; flags_json: string; tags_json: string; meta_json: string; data_json: string;
}
export interface EvaluationQueuesCreated { run_id: string; queues: EvaluationQueueInfo[] }
export interface EvaluationQueuesEdited { run_id: string; queues: EvaluationQueueInfo[] }
export interface EvaluationQueuesDeleted { run_id: string; queue_ids: string[] }
export interface EvaluationQueueArchiveSet { run_id: string; queue_id: string; archived: boolean }
