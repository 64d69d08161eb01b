// The readers of the accounts projection (Postgres), one module per table group, shared by the
// command (early answers, read-your-writes), the query service (GETs), auth, and projector-accounts
// (the state it decides on). Only projector-accounts writes these tables.
export type { Queryable } from './queryable.ts';
export { isUuid, parseUuid } from './queryable.ts';
export { loadState, STATE_LOADERS } from './state-loaders.ts';
export { readEventOutcome, type EventOutcome } from './events.ts';
export { readOrganization, readOrganizationBySlug, loadOrganizationAuthState, organizationPolicies, type OrganizationPolicy } from './organizations.ts';
export { readProvider, readProviderBySlug, listProviders, loadProviderStates, liveProvidersOf, listProviderSecrets, type ProviderSecretRow } from './providers.ts';
export { loadDomainState, loadDomainClaims, readDomain, findDomainByName, listDomains, domainOwner, countVerifiedDomains, verifiedDomainNames, verifiedDomainsOf } from './domains.ts';
export { loadApiKeyState, loadApiKeys, listApiKeys, readApiKey, findUsableApiKey, type UsableApiKey } from './api-keys.ts';
export { loadUserState, loadUsers, existingUsers, findUserByEmail, findUserById, readUser, userEmail, userByIdentity, userIdentities, type KnownUser, type UserRow } from './users.ts';
export { loadSessionState, loadRevokedSessions, isSessionRevoked } from './sessions.ts';
export { loadMembershipState, loadMemberships, isOrganizationMember, projectMemberships, userOrganizations, memberRole } from './memberships.ts';
export { existingProjects, readWorkspace, readProject, memberProject, type WorkspaceRow, type ProjectRow, type ProjectScope } from './projects.ts';
export {
  loadSavedQueryState, loadSavedQueries, readQuery, readQueryVariant, readQueryRevision, readQueryVariantHead, readDefaultVariantHead,
  readSimpleQuery, listQueries, listSimpleQueries, listQueryVariants, listQueryRevisions, logQueryRevisions, resolveQueryRevision,
  findSavedQueryRevision,
} from './saved-queries.ts';
export type {
  SavedQuerySlice, QueryVariantHead, QueryView, QueryVariantView, QueryRevisionView, SimpleQueryView, ListWindow, QueryFilter, VariantFilter,
  RevisionFilter, RevisionRef, RevisionRefs,
} from './saved-queries.ts';
export { loadSecretState, listSecrets, readSecret, secretNames, type SecretRow } from './secrets.ts';
export { readWrappedKey, listWrappedKeys, countWrappedKeysByKeyId, type WrappedKeyRow } from './secret-keys.ts';
export { organizationsOwnedBy } from './organizations.ts';
export { projectsOfOrganizations } from './projects.ts';
export { loadOrganizationLifecycleState, memberOrganizations, defaultWorkspaceOf, apiKeyPrefixesOfOrganization, type MemberOrganizationRow } from './organization-lifecycle.ts';
export { readCurrentProject, type CurrentProjectRow } from './projects.ts';
export { findApiKeyById, type AdminApiKeyRow } from './admin-entities.ts';
export {
  loadInvitationState, isMemberByEmail, invitationByTokenHash, pendingInvitation, mayManageWorkspaceMembers, firstProjectOfWorkspace, type InvitationRow,
} from './invitations.ts';
export { loadWebhookState, readWebhook, queryWebhooks, activeWebhooksFor, type WebhookRow, type WebhookFilter } from './webhooks.ts';
export {
  loadApplicationState, readApplication, readApplicationVariant, readApplicationVariants, readApplicationRevision,
  type ApplicationRow, type ApplicationVariantRow, type ApplicationRevisionRow,
} from './applications.ts';
export { loadTestsetState, readTestset, readTestcases, type TestsetRow, type TestcaseRow } from './testsets.ts';
export { loadHumanEvaluationState, listHumanEvaluations, readHumanEvaluationScenarios, type HumanEvaluationRow, type HumanEvaluationScenarioRow } from './human-evaluations.ts';
export { readDelivery, readDeliveryOf, deliveryIdTaken, queryDeliveries, deliveryView, type WebhookDeliveryRow, type DeliveryFilter } from './webhook-deliveries.ts';
export { readSubscription, readOrganizationSubscription, organizationOfCustomer, loadBillingState, postgresPlanResolver } from './subscriptions.ts';
export { apiKeyPrefixesOfMember, loadProjectState, organizationWorkspace, defaultProjectOf, membershipId, findMembership, type MembershipRow, type MembershipScopeKind } from './project-admin.ts';
export { projectHorizonsPage, projectRetentionsPage, readProjectRetention, retentionHorizons, type ProjectRetentionRow, type RetentionHorizons } from './retention.ts';
export { readRedactionPolicy, loadRedactionPolicyState, type RedactionPolicyRow } from './redaction-policies.ts';
