// Which zod contract each route's handler validates, so the document says what the code enforces.
// Kept by route id next to nothing else: a handler that starts validating a contract adds one line
// here. A route missing from this table is still documented, with the generic bodies of
// openapi-document.ts (never a missing operation).
import type { z } from 'zod';
import {
  adminAccountsCreate, adminAccountsDelete, adminApiKeyCreate, adminGraphCreate, adminGraphDelete, adminMembershipRemove, adminMembershipSet,
  adminOrganizationCreate, adminProjectCreate, adminScopedMembershipCreate, adminTransferOwnership, adminUserCreate, adminWorkspaceCreate,
  accessQuery, apiKeyCreate, applicationRevisionCommit, applicationVariantCreate, deliveryCreate, deliveryQuery, discoverRequest, domainCreate,
  domainVerify, eventQuery, humanEvaluationCreate, humanEvaluationList, invitationAccept, invitationCreate, invitationResend, organizationCreate,
  organizationUpdate, otelTracingRequest, probeProviderRequest, probeProviderResponse, providerCreate, providerUpdate, secretCreate, secretUpdate,
  simpleApplicationCreate, simpleTestsetCreate, simpleTraceRequest, ssoStartQuery, subscriptionLoginFailure, subscriptionLoginPush, traceRequest,
  tracesRequest, webhookCreate, webhookEdit, webhookQuery, webhookTest, workspaceUserRemove, type RouteId,
} from '@llm/contracts';
import { sessionIdentitiesUpdateSchema } from '@llm/web-session';

export interface OperationSchemas {
  /** The JSON body the handler validates. */
  body?: z.ZodType;
  /** The query string the handler validates (an object schema: one parameter per property). */
  query?: z.ZodType;
  /** The 200 body, where the contracts describe it. */
  response?: z.ZodType;
}

export const OPERATION_SCHEMAS: Partial<Record<RouteId, OperationSchemas>> = {
  'traces.create': { body: traceRequest },
  'traces.ingest': { body: tracesRequest },
  'traces.edit': { body: traceRequest },
  'simple.traces.create': { body: simpleTraceRequest },
  'tracing.spans.ingest': { body: otelTracingRequest },
  'tracing.traces.create': { body: otelTracingRequest },
  'tracing.traces.edit': { body: otelTracingRequest },
  'organizations.domains.create': { body: domainCreate },
  'organizations.domains.verify': { body: domainVerify },
  'organizations.providers.create': { body: providerCreate },
  'organizations.providers.update': { body: providerUpdate },
  'organizations.update': { body: organizationUpdate },
  'organizations.replace': { body: organizationUpdate },
  'organizations.create': { body: organizationCreate },
  'organizations.workspaces.invite': { body: invitationCreate },
  'organizations.workspaces.invite.resend': { body: invitationResend },
  'organizations.workspaces.invite.accept': { body: invitationAccept },
  'workspaces.users.remove': { query: workspaceUserRemove },
  'keys.create': { body: apiKeyCreate },
  'secrets.create': { body: secretCreate },
  'secrets.update': { body: secretUpdate },
  'vault.secrets.create': { body: secretCreate },
  'vault.secrets.update': { body: secretUpdate },
  'secrets.subscription_login.push': { body: subscriptionLoginPush },
  'secrets.subscription_login.failure': { body: subscriptionLoginFailure },
  'auth.discover': { body: discoverRequest },
  'auth.access': { query: accessQuery },
  'auth.session.identities': { body: sessionIdentitiesUpdateSchema },
  'auth.sso.start': { query: ssoStartQuery },
  'admin.accounts.create': { body: adminAccountsCreate },
  'admin.accounts.delete': { body: adminAccountsDelete },
  'admin.memberships.set': { body: adminMembershipSet },
  'admin.memberships.remove': { body: adminMembershipRemove },
  'admin.users.create': { body: adminUserCreate },
  'admin.organizations.create': { body: adminOrganizationCreate },
  'admin.api_keys.create': { body: adminApiKeyCreate },
  'admin.workspaces.create': { body: adminWorkspaceCreate },
  'admin.workspaces.memberships.create': { body: adminScopedMembershipCreate('workspace') },
  'admin.projects.create': { body: adminProjectCreate },
  'admin.projects.memberships.create': { body: adminScopedMembershipCreate('project') },
  'admin.transfer_ownership': { body: adminTransferOwnership },
  'admin.graph.create': { body: adminGraphCreate },
  'admin.graph.delete': { body: adminGraphDelete },
  'providers.probe': { body: probeProviderRequest, response: probeProviderResponse },
  'vault.providers.probe': { body: probeProviderRequest, response: probeProviderResponse },
  'webhooks.subscriptions.create': { body: webhookCreate },
  'webhooks.subscriptions.test': { body: webhookTest },
  'webhooks.subscriptions.query': { body: webhookQuery },
  'webhooks.subscriptions.edit': { body: webhookEdit },
  'webhooks.deliveries.create': { body: deliveryCreate },
  'webhooks.deliveries.query': { body: deliveryQuery },
  'applications.simple.create': { body: simpleApplicationCreate },
  'applications.variants.create': { body: applicationVariantCreate },
  'applications.revisions.commit': { body: applicationRevisionCommit },
  'testsets.simple.create': { body: simpleTestsetCreate },
  'human_evaluations.list': { query: humanEvaluationList },
  'human_evaluations.create': { body: humanEvaluationCreate },
  'events.query': { body: eventQuery },
};
