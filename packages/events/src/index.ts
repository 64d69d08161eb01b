export { MAX_MESSAGE_BYTES, retentionShortfalls, topicsFor, spansKey, evaluationRunKey, SPANS_PROJECTOR_GROUP } from './topics.ts';
export type { Topics, TopicSpec, TopicSettings } from './topics.ts';
export { EVENT_TYPES, isEventType } from './event-types.ts';
export type { EventType, EventPayloads } from './event-types.ts';
export { encodeEvent, decodeEvent, isEvent } from './codec.ts';
export type { EventMeta, DecodedEvent } from './codec.ts';
export { protoFiles } from './proto-root.ts';
export type {
  SpanRecord, SpansUpserted, TraceReplaced, TraceDeleted, AccountProvisioned, UserDeleted, UserCreated, QueryRevisionInfo, QueryCreated, QueryRevisionCommitted, QueryHeader, QueryArtifactCreated, QueryArtifactEdited, QueryVariantCreated, QueryVariantEdited, QueryRevisionAdded, QueryArchiveSet, QueryRevisionEdited, ArtifactHeader, ArtifactRevision, ArtifactVariantSeed, ArtifactCreated, ArtifactEdited, ArtifactVariantCreated, ArtifactVariantEdited, ArtifactRevisionAdded, ArtifactRevisionEdited, ArtifactArchiveSet, StoredTestcase, TestcasesStored, DomainTokenIssued, DomainVerified, DomainDeleted,
} from './payloads.ts';
export type { IdentitySignedIn, SessionRevoked, ApiKeyCreated, ApiKeyRevoked, MembershipSet, MembershipRemoved, MembershipScope, ProjectCreated, ProjectDeleted, ProjectRetentionSet } from './payloads.ts';
export type { OrganizationUpdated, ProviderInfo, ProviderCreated, ProviderUpdated, ProviderTested, ProviderDeleted, ProviderSecretResealed } from './payloads.ts';
export type { OrganizationCreated, OrganizationDeleted, OrganizationTransferred } from './payloads.ts';
export type { InvitationCreated, InvitationResent, InvitationAccepted, InvitationRevoked } from './payloads.ts';
export type { SecretInfo, SecretCreated, SecretUpdated, SecretDeleted } from './payloads.ts';
export type { WebhookInfo, WebhookCreated, WebhookUpdated, WebhookDeleted, PlatformEvent, DeliveryRecorded, BillingSubscriptionSet } from './payloads.ts';
export type { ApplicationInfo, ApplicationCreated, ApplicationVariantCreated, ApplicationRevisionCommitted, TestcaseInfo, TestsetCreated, HumanEvaluationVariant, HumanEvaluationScenario, HumanEvaluationCreated } from './payloads.ts';
export type { RedactionPolicySet } from './payloads.ts';
export type {
  EvaluationRunInfo, EvaluationRunCreated, EvaluationRunEdited, EvaluationRunLifecycleSet, EvaluationRunDeleted, EvaluationScenarioInfo, EvaluationScenariosAdded,
  EvaluationScenariosEdited, EvaluationScenariosDeleted, EvaluationResultInfo, EvaluationResultsUpserted, EvaluationResultsDeleted, EvaluationMetricInfo,
  EvaluationMetricsUpserted, EvaluationMetricsDeleted, EvaluationMetricsRefreshed, EvaluationRunSchemasInferred, EvaluationRunDispatched, EvaluationRunDispatchFinished, EvaluationQueueInfo, EvaluationQueuesCreated, EvaluationQueuesEdited, EvaluationQueuesDeleted, EvaluationQueueArchiveSet,
} from './payloads.ts';
export { createRegistryFraming, plainFraming, stripRegistryFrame } from './schema-registry.ts';
export type { EventFraming, RegistryFramingOptions } from './schema-registry.ts';
export { uuidv7, uuidv5, NAMESPACE_DNS, derivedEventId } from './ids.ts';
export { decodeSpanUsage, type SpanUsage } from './span-usage.ts';
