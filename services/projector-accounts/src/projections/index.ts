// The SQL of each aggregate's facts. The consumer decides with @llm/account-model on the state
// @llm/accounts-read loads, and runs these statements only for accepted events.
import type { AggregateName, EventOf, StateOf } from '@llm/account-model';
import type { SqlStatement } from './statement.ts';
import { projectDomain } from './domain.ts';
import { projectSavedQuery } from './saved-query.ts';
import { projectOrganization } from './organization.ts';
import { projectProvider } from './provider.ts';
import { projectUser } from './user.ts';
import { projectSession } from './session.ts';
import { projectApiKey } from './api-key.ts';
import { projectMembership } from './membership.ts';
import { projectSecret } from './secret.ts';
import { projectWebhook } from './webhook.ts';
import { projectInvitation } from './invitation.ts';
import { projectApplication } from './application.ts';
import { projectTestset } from './testset.ts';
import { projectHumanEvaluation } from './human-evaluation.ts';
import { projectBilling } from './billing.ts';
import { projectOrganizationLifecycle } from './organization-lifecycle.ts';
import { projectProject } from './project.ts';
import { projectRedactionPolicy } from './redaction-policy.ts';

export type { SqlStatement };

type Projection<N extends AggregateName> = (e: EventOf<N>, s: StateOf<N>) => SqlStatement[];
type Projections = { [N in AggregateName]: Projection<N> };

// A typed record over the aggregate names: an aggregate without its projection does not compile.
export const PROJECTIONS: Projections = {
  domain: projectDomain,
  savedQuery: projectSavedQuery,
  organization: projectOrganization,
  provider: projectProvider,
  user: projectUser,
  session: projectSession,
  apiKey: projectApiKey,
  membership: projectMembership,
  secret: projectSecret,
  webhook: projectWebhook,
  invitation: projectInvitation,
  application: projectApplication,
  testset: projectTestset,
  humanEvaluation: projectHumanEvaluation,
  billing: projectBilling,
  organizationLifecycle: projectOrganizationLifecycle,
  project: projectProject,
  redactionPolicy: projectRedactionPolicy,
};

export function projectionOf<N extends AggregateName>(name: N): Projection<N> {
  return PROJECTIONS[name] as Projection<N>;
}
