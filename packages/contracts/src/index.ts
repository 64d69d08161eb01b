export { ROUTES, routesOf, stripApiPrefix } from './routes.ts';
export { PREVIEW_ALIASED_PREFIXES, hasPreviewAlias, mountPaths } from './preview-aliases.ts';
export { TEXT_LIMITS, text, texts, textKey, textRecord, textProblem, jsonValue, jsonObject, jsonProblem, openObject, boundedJson } from './text.ts';
export type { TextOptions } from './text.ts';
export { NUMBER_LIMITS, int, finite, ints, queryNumber, type IntOptions } from './numbers.ts';
export { MIN_TIME_US, MAX_TIME_US, isoToUs, storedDateTime } from './dates.ts';
export type { RouteDef, RouteId, RouteIdOf, Side, Method } from './routes.ts';
export {
  spanInput, spanNodeInput, spanTree, otelTracingRequest, traceRecordInput, traceRequest, tracesRequest, simpleTraceRequest,
  linkInput, eventInput, referenceInput,
} from './tracing.ts';
export type { SpanInput, SpanNodeInput } from './tracing.ts';
export { adminAccountsCreate, adminAccountsDelete, adminAccountInput, adminMembershipSet, adminMembershipRemove } from './accounts.ts';
export type { AdminAccountsCreate, AdminAccountsDelete } from './accounts.ts';
export {
  entityRef, adminEntityOptions, adminUserCreate, adminOrganizationCreate, adminApiKeyCreate, membershipRole, adminScopedMembershipCreate, adminWorkspaceCreate, adminProjectCreate,
  adminTransferOwnership, adminGraphCreate, adminGraphDelete, type AdminGraphCreate, type EntityRef,
} from './admin-entities.ts';
export {
  SAVED_QUERY_SLUG, savedQuerySlug, savedQueryRevisionInput, savedQueryCreate, savedQueryCommit, savedQueryRef, savedQueryRefs,
  savedQueryLeafMap, savedQueryListWindow, simpleSavedQueriesQuery, savedQueryVariantsQuery, savedQueryRevisionsQuery, savedQueryRetrieve, savedQueryLog,
  savedQueryView, savedQueryVariantView, savedQueryRevisionView, savedQueryResponse, savedQueryRevisionsResponse,
} from './saved-queries.ts';
export type {
  SavedQueryLeaf, SavedQueryListWindow, SavedQueryRevisionInput, SavedQueryCreate, SavedQueryCommit, SavedQueryRef, SavedQueryRefs, SavedQueryResponse, SavedQueryRevisionsResponse,
} from './saved-queries.ts';
export {
  domainCreate, domainVerify, domainView,
} from './organization-domains.ts';
export type { DomainCreate, DomainRow, DomainView } from './organization-domains.ts';
export { discoverRequest, accessQuery, ssoPath, ssoThirdPartyId, ssoCallbackPath, ssoStartQuery, type DiscoverRequest } from './auth.ts';
export {
  authSlug, organizationUpdate, organizationView, providerSettings, providerCreate, providerUpdate, providerView, DEFAULT_PROVIDER_SCOPES,
  type OrganizationUpdate, type OrganizationRow, type ProviderCreate, type ProviderUpdate, type ProviderRow,
} from './organization-auth.ts';
export { organizationCreate, type OrganizationCreate } from './organization-lifecycle.ts';
export {
  invitationEntry, invitationCreate, invitationResend, invitationAccept, workspaceUserRemove,
  type InvitationCreate, type InvitationResend, type InvitationAccept, type WorkspaceUserRemove,
} from './invitations.ts';
export { STANDARD_PROVIDER_KINDS, CUSTOM_PROVIDER_KINDS, SECRET_KINDS, SUBSCRIPTION_LOGIN_FIELDS, secretDataByKind, secretCreate, secretUpdate, type SecretKind, type SubscriptionLoginField, type SecretData, type SecretCreate, type SecretUpdate, type PublicSecret } from './secrets.ts';
export { apiKeyCreate, apiKeyPath, apiKeyView, type ApiKeyCreate, type ApiKeyRow } from './api-keys.ts';
export { probeProviderRequest, probeProviderResponse, CREDENTIAL_STATUSES, DISCOVERY_STATUSES, type ProbeProviderRequest, type ProbeProviderResponse } from './provider-probe.ts';
export {
  subscriptionLoginPush, subscriptionLoginFailure, runnerAttemptStarted, runnerAttemptStatus, LOGIN_ATTEMPT_STATES,
  type SubscriptionLoginPush, type SubscriptionLoginFailure, type LoginAttemptState, type LoginAttemptView,
  type SubscriptionLoginPushView, type SubscriptionLoginFailureView, type RunnerAttemptStarted, type RunnerAttemptStatus,
} from './subscription-login.ts';
export {
  WEBHOOK_EVENT_TYPES, PLATFORM_EVENT_TYPES, REQUEST_TYPES, uuidRef, windowing, webhookData, webhookCreate, webhookEdit, webhookQuery, webhookTest,
  deliveryStatus, deliveryData, deliveryCreate, deliveryQuery, eventQuery,
  type WebhookEventType, type PlatformEventType, type Windowing, type WebhookData, type WebhookCreate, type WebhookEdit, type WebhookQuery, type WebhookTest,
  type DeliveryStatus, type DeliveryData, type DeliveryCreate, type DeliveryQuery, type EventQuery,
  type WebhookSubscriptionView, type WebhookDeliveryView, type PlatformEventView,
} from './webhooks.ts';
export {
  humanEvaluationCreate, humanEvaluationList, HUMAN_EVALUATION_TYPE_VALUES, type HumanEvaluationCreate, type HumanEvaluationView,
} from './human-evaluations.ts';
export {
  ARTIFACT_ENTITY_NAMES, TESTSET_ROW_LIMIT, environmentRevisionData, testsetDelta, environmentDelta, workflowDelta, workflowOperation, workflowRevisionData, testcaseInput, testsetRevisionData, artifactRef, artifactWindow, revisionRetrieve,
  simpleArtifactCreate, simpleArtifactEdit, simpleArtifactsQuery, artifactVariantCreate, artifactRevisionCommit, simpleEvaluationCreate,
  artifactCreate, artifactEdit, artifactVariantEdit, artifactRevisionCreate, artifactRevisionEdit, artifactVariantFork, artifactsQuery, artifactVariantsQuery,
  artifactRevisionsQuery, artifactRevisionsLog, testcasesQuery, testcasesList, simpleEvaluationEdit, artifactDeploy, artifactResolve,
  type ArtifactEntityName, type WorkflowOperation, type WorkflowRevisionDataInput, type TestcaseInput, type TestsetRevisionDataInput, type ArtifactRef, type SimpleEvaluationCreate,
} from './artifacts.ts';
export {
  traceIdView, spanIdView, spanKindView, statusCodeView, spanTypeView, traceTypeView, linkView, spanBody, spanTreeNodeView, spanTreeView, canonicalTraceView, otelTracesView,
  type SpanBody, type SpanTreeNodeView,
} from './responses/span-view.ts';
export {
  pageWindowing, traceResponse, tracesResponse, spanResponse, spansResponse, otelTracingResponse, sessionIdsResponse, userIdsResponse,
} from './responses/tracing-reads.ts';
export { rejectedSpans, spanLink, traceIdResponse, traceIdsResponse, otelLinksResponse, collectStatusResponse } from './responses/tracing-writes.ts';
export { simpleTraceView, simpleTraceResponse, simpleTracesResponse, simpleTraceLinkResponse, annotationResponse, annotationsResponse, annotationLinkResponse } from './responses/simple-traces.ts';
export { analyticsMetric, analyticsBucket, analyticsResponse, legacyAnalyticsResponse } from './responses/analytics.ts';
export {
  currentProjectResponse, healthResponse, profileResponse, organizationListResponse, organizationResponse, apiKeyBody, apiKeyListResponse, apiKeyCreatedResponse, adminAccountsCreateResponse,
} from './responses/accounts.ts';
export { spanQueryBody, simpleTraceEdit } from './trace-queries.ts';
export { EXPORT_FORMATS, EXPORT_MEDIA_TYPES, spanExportBody, type ExportFormat, type SpanExportBody } from './span-export.ts';
export { projectUpdate, projectRetentionResponse, type ProjectUpdate, type ProjectRetentionResponse } from './project-retention.ts';
export { REDACTION_DETECTORS, REDACTION_SCOPES, MAX_CUSTOM_PATTERNS, MAX_PATTERN_LENGTH, redactionCustomPattern, redactionPolicyBody, redactionPolicyResponse, type RedactionPolicyBody, type RedactionPolicyResponse } from './redaction-policy.ts';
export {
  querySlug, headerInput, revisionData, queryCreateBody, queryEditBody, queryVariantCreateBody, queryVariantEditBody, queryVariantForkBody,
  queryRevisionCreateBody, queryRevisionEditBody, queryRevisionCommitBody, simpleQueryCreateBody, simpleQueryEditBody,
} from './saved-query-writes.ts';
export { billingCheckoutQuery, billingSwitchQuery, paymentsProcessorEvent } from './billing.ts';
export { FLAT_FIELDS, flatSpanQuery, analyticsInput, legacyAnalyticsInput, simpleTraceQuery } from './query-inputs.ts';
export {
  publicSecretResponse, publicSecretsResponse, loginAttemptResponse, subscriptionLoginPushResponse, subscriptionLoginFailureResponse, webhookSubscriptionView, webhookSubscriptionResponse, webhookSubscriptionsResponse, webhookDeliveryView,
  webhookDeliveryResponse, webhookDeliveriesResponse, platformEventsResponse,
} from './responses/vault-and-webhooks.ts';
export { domainResponse, domainsResponse, providerResponse, providersResponse } from './responses/organization-auth.ts';
export { humanEvaluationsResponse, humanEvaluationCreatedResponse } from './responses/human-evaluations.ts';
export {
  simpleArtifactResponse, simpleArtifactsResponse, artifactVariantResponse, artifactRevisionResponse, artifactCommitResponse, artifactRetrieveResponse,
  artifactResponse, artifactsResponse, artifactVariantsResponse, artifactRevisionsResponse, testcaseResponse, testcasesResponse, artifactResolveResponse,
  catalogTypesResponse, catalogTypeResponse, catalogTemplatesResponse, catalogTemplateResponse, catalogPresetsResponse, catalogPresetResponse,
  catalogHarnessesResponse, catalogHarnessResponse, legacyEvaluatorTemplatesResponse,
} from './responses/artifacts.ts';
export { gitRoutes, simpleRoutes } from './artifact-routes.ts';
export { annotationCreate, annotationEdit, annotationsQuery, type AnnotationCreate } from './annotations.ts';
export { invitationLinkResponse, invitationAcceptedResponse, workspaceUserRemovedResponse } from './responses/invitations.ts';
export {
  discoverResponse, accessResponse, sessionResponse, sessionIdentitiesResponse, organizationUpdatedResponse, organizationCreatedResponse, detailMessage,
  organizationTransferredResponse, adminAccountSetResponse, adminDeletedResponse, adminTransferResponse,
} from './responses/sessions-and-admin.ts';
export {
  billingEventAnswer, billingCheckoutAnswer, billingPortalAnswer, billingSuccessAnswer, billingCatalogAnswer, billingPricingAnswer, billingSubscriptionAnswer,
  billingUsageAnswer, accessPlansAnswer,
} from './responses/billing.ts';
export {
  savedQueryBody, simpleSavedQueryBody, savedQueryVariantBody, savedQueryRevisionBody, savedQueryAnswer, savedQueriesAnswer, simpleSavedQueryAnswer,
  simpleSavedQueriesAnswer, savedQueryVariantAnswer, savedQueryVariantsAnswer, savedQueryRevisionAnswer, savedQueryRevisionsAnswer, savedQueryRetrieveAnswer,
} from './responses/saved-query-answers.ts';
export { parseUuid } from './uuid.ts';
export { invocationLink, workflowInvoke, workflowInvokeResponse, type WorkflowInvoke } from './workflow-services.ts';
export {
  EVALUATION_STATUSES, MAX_EVALUATION_ITEMS, evaluationStatus, uuidText, runStep, runData, runCreate, runsCreate, runEdit, runEditOne, runsEdit, runIds,
  scenariosCreate, scenarioEdit, scenarioEditOne, scenariosEdit, scenarioIds, resultWrite, resultsWrite, resultIds, metricWrite, metricsWrite, metricIds,
  closeQuery, evaluationWindow, runsQuery, scenariosQuery, resultsQuery, metricsQuery, metricsRefresh, runSlice, runProcess, stepsAdd, stepsRemove, repeatsSet,
  simpleEvaluationsQuery, liveRunsRefreshQuery, liveRunsRefreshResponse,
  type RunStepInput, type ResultWrite,
} from './evaluation-runs.ts';
export {
  evaluationRunView, evaluationScenarioView, evaluationResultView, evaluationMetricView, evaluationRunResponse, evaluationRunsResponse, evaluationRunIdsResponse,
  evaluationRunIdResponse, evaluationScenarioResponse, evaluationScenariosResponse, evaluationScenarioIdsResponse, evaluationScenarioIdResponse,
  evaluationResultResponse, evaluationResultsResponse, evaluationResultIdsResponse, evaluationResultIdResponse, evaluationMetricsResponse, evaluationMetricIdsResponse,
  simpleEvaluationView, simpleEvaluationResponse, simpleEvaluationsResponse, simpleEvaluationDeletedResponse,
  evaluationQueueView, evaluationQueueResponse, evaluationQueuesResponse, evaluationQueueIdsResponse, evaluationQueueIdResponse,
  simpleQueueView, simpleQueueResponse, simpleQueuesResponse, simpleQueueAddedResponse,
} from './responses/evaluation-runs.ts';
export {
  queueData, queueCreate, queuesCreate, queueEdit, queueEditOne, queuesEdit, queueIds, queuesQuery, queueScenariosQuery,
  SIMPLE_QUEUE_KINDS, simpleQueueCreate, simpleQueuesQuery, simpleQueueTraces, simpleQueueTestcases, type SimpleQueueCreate,
} from './evaluation-queues.ts';
