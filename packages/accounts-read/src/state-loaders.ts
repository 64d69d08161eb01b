// Loads the state an accounts event is decided on, per aggregate. The projector calls it inside its
// batch transaction (the authority); the command calls it on the pool for its early answer.
import type { AggregateName, EventOf, StateOf } from '@llm/account-model';
import type { Queryable } from './queryable.ts';
import { loadDomainState } from './domains.ts';
import { loadSavedQueryState } from './saved-queries.ts';
import { loadOrganizationState, loadProviderEventState } from './organizations.ts';
import { loadUserState } from './users.ts';
import { loadSessionState } from './sessions.ts';
import { loadApiKeyState } from './api-keys.ts';
import { loadMembershipState } from './memberships.ts';
import { loadSecretState } from './secrets.ts';
import { loadWebhookState } from './webhooks.ts';
import { loadInvitationState } from './invitations.ts';
import { loadApplicationState } from './applications.ts';
import { loadTestsetState } from './testsets.ts';
import { loadHumanEvaluationState } from './human-evaluations.ts';
import { loadBillingState } from './subscriptions.ts';
import { loadOrganizationLifecycleState } from './organization-lifecycle.ts';
import { loadProjectState } from './project-admin.ts';
import { loadRedactionPolicyState } from './redaction-policies.ts';

type Loaders = { [N in AggregateName]: (q: Queryable, e: EventOf<N>) => Promise<StateOf<N>> };

export const STATE_LOADERS: Loaders = {
  domain: loadDomainState,
  savedQuery: loadSavedQueryState,
  organization: loadOrganizationState,
  provider: loadProviderEventState,
  user: loadUserState,
  session: loadSessionState,
  apiKey: loadApiKeyState,
  membership: loadMembershipState,
  secret: loadSecretState,
  webhook: loadWebhookState,
  invitation: loadInvitationState,
  application: loadApplicationState,
  testset: loadTestsetState,
  humanEvaluation: loadHumanEvaluationState,
  billing: loadBillingState,
  organizationLifecycle: loadOrganizationLifecycleState,
  project: loadProjectState,
  redactionPolicy: loadRedactionPolicyState,
};

export function loadState<N extends AggregateName>(q: Queryable, name: N, e: EventOf<N>): Promise<StateOf<N>> {
  return (STATE_LOADERS[name] as (q: Queryable, e: EventOf<N>) => Promise<StateOf<N>>)(q, e);
}
