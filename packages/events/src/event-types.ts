// The registry of event types: wire name → payload message and schema version.
// Never reuse or rename a type; a breaking change is a new version with an upcaster.
import type {
  AccountProvisioned, DomainDeleted, DomainTokenIssued, DomainVerified, QueryCreated, QueryRevisionCommitted, SpansUpserted, TraceDeleted, TraceReplaced, UserDeleted, UserCreated,
} from './payloads.ts';
import type { IdentitySignedIn, SessionRevoked, ApiKeyCreated, ApiKeyRevoked, MembershipSet, MembershipRemoved, ProjectCreated, ProjectDeleted, ProjectRetentionSet } from './payloads.ts';
import type { OrganizationUpdated, ProviderCreated, ProviderDeleted, ProviderSecretResealed, ProviderTested, ProviderUpdated } from './payloads.ts';
import type { OrganizationCreated, OrganizationDeleted, OrganizationTransferred } from './payloads.ts';
import type { InvitationCreated, InvitationResent, InvitationAccepted, InvitationRevoked } from './payloads.ts';
import type { SecretCreated, SecretDeleted, SecretUpdated } from './payloads.ts';
import type { ArtifactCreated, ArtifactEdited, ArtifactVariantCreated, ArtifactVariantEdited, ArtifactRevisionAdded, ArtifactRevisionEdited, ArtifactArchiveSet, TestcasesStored } from './payloads.ts';
import type { QueryArtifactCreated, QueryArtifactEdited, QueryVariantCreated, QueryVariantEdited, QueryRevisionAdded, QueryArchiveSet, QueryRevisionEdited } from './payloads.ts';
import type { WebhookCreated, WebhookUpdated, WebhookDeleted, PlatformEvent, DeliveryRecorded, BillingSubscriptionSet } from './payloads.ts';
import type { ApplicationCreated, ApplicationVariantCreated, ApplicationRevisionCommitted, TestsetCreated, HumanEvaluationCreated } from './payloads.ts';
import type { RedactionPolicySet } from './payloads.ts';
import type {
  EvaluationRunCreated, EvaluationRunEdited, EvaluationRunLifecycleSet, EvaluationRunDeleted, EvaluationScenariosAdded, EvaluationScenariosEdited,
  EvaluationScenariosDeleted, EvaluationResultsUpserted, EvaluationResultsDeleted, EvaluationMetricsUpserted, EvaluationMetricsDeleted, EvaluationMetricsRefreshed, EvaluationRunSchemasInferred, EvaluationRunDispatched, EvaluationRunDispatchFinished, EvaluationQueuesCreated, EvaluationQueuesEdited, EvaluationQueuesDeleted, EvaluationQueueArchiveSet,
} from './payloads.ts';

export interface EventPayloads {
  'tracing.spans.upserted': SpansUpserted;
  'tracing.trace.replaced': TraceReplaced;
  'tracing.trace.deleted': TraceDeleted;
  'accounts.account.provisioned': AccountProvisioned;
  'accounts.user.deleted': UserDeleted;
  'accounts.user.created': UserCreated;
  'accounts.query.created': QueryCreated;
  'accounts.query.revision.committed': QueryRevisionCommitted;
  'accounts.query.artifact.created': QueryArtifactCreated;
  'accounts.query.artifact.edited': QueryArtifactEdited;
  'accounts.query.variant.created': QueryVariantCreated;
  'accounts.query.variant.edited': QueryVariantEdited;
  'accounts.query.revision.added': QueryRevisionAdded;
  'accounts.query.archive.set': QueryArchiveSet;
  'accounts.artifact.created': ArtifactCreated;
  'accounts.artifact.edited': ArtifactEdited;
  'accounts.artifact.variant.created': ArtifactVariantCreated;
  'accounts.artifact.variant.edited': ArtifactVariantEdited;
  'accounts.artifact.revision.added': ArtifactRevisionAdded;
  'accounts.artifact.revision.edited': ArtifactRevisionEdited;
  'accounts.artifact.archive.set': ArtifactArchiveSet;
  'accounts.testcases.stored': TestcasesStored;
  'accounts.query.revision.edited': QueryRevisionEdited;
  'accounts.domain.token_issued': DomainTokenIssued;
  'accounts.domain.verified': DomainVerified;
  'accounts.domain.deleted': DomainDeleted;
  'accounts.identity.signed_in': IdentitySignedIn;
  'accounts.session.revoked': SessionRevoked;
  'accounts.organization.updated': OrganizationUpdated;
  'accounts.organization.created': OrganizationCreated;
  'accounts.organization.deleted': OrganizationDeleted;
  'accounts.organization.transferred': OrganizationTransferred;
  'accounts.provider.created': ProviderCreated;
  'accounts.provider.updated': ProviderUpdated;
  'accounts.provider.tested': ProviderTested;
  'accounts.provider.deleted': ProviderDeleted;
  'accounts.provider.secret_resealed': ProviderSecretResealed;
  'accounts.api_key.created': ApiKeyCreated;
  'accounts.api_key.revoked': ApiKeyRevoked;
  'accounts.membership.set': MembershipSet;
  'accounts.membership.removed': MembershipRemoved;
  'accounts.project.created': ProjectCreated;
  'accounts.project.deleted': ProjectDeleted;
  'accounts.project.retention_set': ProjectRetentionSet;
  'accounts.invitation.created': InvitationCreated;
  'accounts.invitation.resent': InvitationResent;
  'accounts.invitation.accepted': InvitationAccepted;
  'accounts.invitation.revoked': InvitationRevoked;
  'accounts.secret.created': SecretCreated;
  'accounts.secret.updated': SecretUpdated;
  'accounts.secret.deleted': SecretDeleted;
  'accounts.webhook.created': WebhookCreated;
  'accounts.webhook.updated': WebhookUpdated;
  'accounts.webhook.deleted': WebhookDeleted;
  'accounts.application.created': ApplicationCreated;
  'accounts.application.variant_created': ApplicationVariantCreated;
  'accounts.application.revision_committed': ApplicationRevisionCommitted;
  'accounts.testset.created': TestsetCreated;
  'accounts.human_evaluation.created': HumanEvaluationCreated;
  'accounts.billing.subscription_set': BillingSubscriptionSet;
  'accounts.redaction.policy_set': RedactionPolicySet;
  'platform.event.recorded': PlatformEvent;
  'webhooks.delivery.recorded': DeliveryRecorded;
  'evaluations.run.created': EvaluationRunCreated;
  'evaluations.run.edited': EvaluationRunEdited;
  'evaluations.run.lifecycle_set': EvaluationRunLifecycleSet;
  'evaluations.run.deleted': EvaluationRunDeleted;
  'evaluations.scenarios.added': EvaluationScenariosAdded;
  'evaluations.scenarios.edited': EvaluationScenariosEdited;
  'evaluations.scenarios.deleted': EvaluationScenariosDeleted;
  'evaluations.results.upserted': EvaluationResultsUpserted;
  'evaluations.results.deleted': EvaluationResultsDeleted;
  'evaluations.metrics.upserted': EvaluationMetricsUpserted;
  'evaluations.metrics.deleted': EvaluationMetricsDeleted;
  'evaluations.metrics.refreshed': EvaluationMetricsRefreshed;
  'evaluations.run.schemas_inferred': EvaluationRunSchemasInferred;
  'evaluations.run.dispatched': EvaluationRunDispatched;
  'evaluations.run.dispatch_finished': EvaluationRunDispatchFinished;
  'evaluations.queues.created': EvaluationQueuesCreated;
  'evaluations.queues.edited': EvaluationQueuesEdited;
  'evaluations.queues.deleted': EvaluationQueuesDeleted;
  'evaluations.queue.archive_set': EvaluationQueueArchiveSet;
}

export type EventType = keyof EventPayloads;

export const EVENT_TYPES: Record<EventType, { message: string; version: number }> = {
  'tracing.spans.upserted': { message: 'SpansUpserted', version: 1 },
  'tracing.trace.replaced': { message: 'TraceReplaced', version: 1 },
  'tracing.trace.deleted': { message: 'TraceDeleted', version: 1 },
  'accounts.account.provisioned': { message: 'AccountProvisioned', version: 1 },
  'accounts.user.deleted': { message: 'UserDeleted', version: 1 },
  'accounts.user.created': { message: 'UserCreated', version: 1 },
  'accounts.query.created': { message: 'QueryCreated', version: 1 },
  'accounts.query.revision.committed': { message: 'QueryRevisionCommitted', version: 1 },
  'accounts.query.artifact.created': { message: 'QueryArtifactCreated', version: 1 },
  'accounts.query.artifact.edited': { message: 'QueryArtifactEdited', version: 1 },
  'accounts.query.variant.created': { message: 'QueryVariantCreated', version: 1 },
  'accounts.query.variant.edited': { message: 'QueryVariantEdited', version: 1 },
  'accounts.query.revision.added': { message: 'QueryRevisionAdded', version: 1 },
  'accounts.query.archive.set': { message: 'QueryArchiveSet', version: 1 },
  'accounts.artifact.created': { message: 'ArtifactCreated', version: 1 },
  'accounts.artifact.edited': { message: 'ArtifactEdited', version: 1 },
  'accounts.artifact.variant.created': { message: 'ArtifactVariantCreated', version: 1 },
  'accounts.artifact.variant.edited': { message: 'ArtifactVariantEdited', version: 1 },
  'accounts.artifact.revision.added': { message: 'ArtifactRevisionAdded', version: 1 },
  'accounts.artifact.revision.edited': { message: 'ArtifactRevisionEdited', version: 1 },
  'accounts.artifact.archive.set': { message: 'ArtifactArchiveSet', version: 1 },
  'accounts.testcases.stored': { message: 'TestcasesStored', version: 1 },
  'accounts.query.revision.edited': { message: 'QueryRevisionEdited', version: 1 },
  'accounts.domain.token_issued': { message: 'DomainTokenIssued', version: 1 },
  'accounts.domain.verified': { message: 'DomainVerified', version: 1 },
  'accounts.domain.deleted': { message: 'DomainDeleted', version: 1 },
  'accounts.identity.signed_in': { message: 'IdentitySignedIn', version: 1 },
  'accounts.session.revoked': { message: 'SessionRevoked', version: 1 },
  'accounts.organization.updated': { message: 'OrganizationUpdated', version: 1 },
  'accounts.organization.created': { message: 'OrganizationCreated', version: 1 },
  'accounts.organization.deleted': { message: 'OrganizationDeleted', version: 1 },
  'accounts.organization.transferred': { message: 'OrganizationTransferred', version: 1 },
  'accounts.provider.created': { message: 'ProviderCreated', version: 1 },
  'accounts.provider.updated': { message: 'ProviderUpdated', version: 1 },
  'accounts.provider.tested': { message: 'ProviderTested', version: 1 },
  'accounts.provider.deleted': { message: 'ProviderDeleted', version: 1 },
  'accounts.provider.secret_resealed': { message: 'ProviderSecretResealed', version: 1 },
  'accounts.api_key.created': { message: 'ApiKeyCreated', version: 1 },
  'accounts.api_key.revoked': { message: 'ApiKeyRevoked', version: 1 },
  'accounts.membership.set': { message: 'MembershipSet', version: 1 },
  'accounts.membership.removed': { message: 'MembershipRemoved', version: 1 },
  'accounts.project.created': { message: 'ProjectCreated', version: 1 },
  'accounts.project.deleted': { message: 'ProjectDeleted', version: 1 },
  'accounts.project.retention_set': { message: 'ProjectRetentionSet', version: 1 },
  'accounts.invitation.created': { message: 'InvitationCreated', version: 1 },
  'accounts.invitation.resent': { message: 'InvitationResent', version: 1 },
  'accounts.invitation.accepted': { message: 'InvitationAccepted', version: 1 },
  'accounts.invitation.revoked': { message: 'InvitationRevoked', version: 1 },
  'accounts.secret.created': { message: 'SecretCreated', version: 1 },
  'accounts.secret.updated': { message: 'SecretUpdated', version: 1 },
  'accounts.secret.deleted': { message: 'SecretDeleted', version: 1 },
  'accounts.webhook.created': { message: 'WebhookCreated', version: 1 },
  'accounts.webhook.updated': { message: 'WebhookUpdated', version: 1 },
  'accounts.webhook.deleted': { message: 'WebhookDeleted', version: 1 },
  'accounts.application.created': { message: 'ApplicationCreated', version: 1 },
  'accounts.application.variant_created': { message: 'ApplicationVariantCreated', version: 1 },
  'accounts.application.revision_committed': { message: 'ApplicationRevisionCommitted', version: 1 },
  'accounts.testset.created': { message: 'TestsetCreated', version: 1 },
  'accounts.human_evaluation.created': { message: 'HumanEvaluationCreated', version: 1 },
  'accounts.billing.subscription_set': { message: 'BillingSubscriptionSet', version: 1 },
  'accounts.redaction.policy_set': { message: 'RedactionPolicySet', version: 1 },
  'platform.event.recorded': { message: 'PlatformEvent', version: 1 },
  'webhooks.delivery.recorded': { message: 'DeliveryRecorded', version: 1 },
  'evaluations.run.created': { message: 'EvaluationRunCreated', version: 1 },
  'evaluations.run.edited': { message: 'EvaluationRunEdited', version: 1 },
  'evaluations.run.lifecycle_set': { message: 'EvaluationRunLifecycleSet', version: 1 },
  'evaluations.run.deleted': { message: 'EvaluationRunDeleted', version: 1 },
  'evaluations.scenarios.added': { message: 'EvaluationScenariosAdded', version: 1 },
  'evaluations.scenarios.edited': { message: 'EvaluationScenariosEdited', version: 1 },
  'evaluations.scenarios.deleted': { message: 'EvaluationScenariosDeleted', version: 1 },
  'evaluations.results.upserted': { message: 'EvaluationResultsUpserted', version: 1 },
  'evaluations.results.deleted': { message: 'EvaluationResultsDeleted', version: 1 },
  'evaluations.metrics.upserted': { message: 'EvaluationMetricsUpserted', version: 1 },
  'evaluations.metrics.deleted': { message: 'EvaluationMetricsDeleted', version: 1 },
  'evaluations.metrics.refreshed': { message: 'EvaluationMetricsRefreshed', version: 1 },
  'evaluations.run.schemas_inferred': { message: 'EvaluationRunSchemasInferred', version: 1 },
  'evaluations.run.dispatched': { message: 'EvaluationRunDispatched', version: 1 },
  'evaluations.run.dispatch_finished': { message: 'EvaluationRunDispatchFinished', version: 1 },
  'evaluations.queues.created': { message: 'EvaluationQueuesCreated', version: 1 },
  'evaluations.queues.edited': { message: 'EvaluationQueuesEdited', version: 1 },
  'evaluations.queues.deleted': { message: 'EvaluationQueuesDeleted', version: 1 },
  'evaluations.queue.archive_set': { message: 'EvaluationQueueArchiveSet', version: 1 },
};

export const isEventType = (t: string): t is EventType => Object.hasOwn(EVENT_TYPES, t);
