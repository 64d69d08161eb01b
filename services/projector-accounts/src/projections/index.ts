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

export type { SqlStatement };

type Projections = { [N in AggregateName]?: (e: EventOf<N>, s: StateOf<N>) => SqlStatement[] };

// Issue 11 port in progress: an aggregate without an entry here still goes through the old
// facts/projection path of the consumer.
export const PROJECTIONS: Projections = {
  domain: projectDomain,
  savedQuery: projectSavedQuery,
  organization: projectOrganization,
  provider: projectProvider,
  user: projectUser,
  session: projectSession,
  apiKey: projectApiKey,
  membership: projectMembership,
};

export function projectionOf<N extends AggregateName>(name: N): ((e: EventOf<N>, s: StateOf<N>) => SqlStatement[]) | undefined {
  return PROJECTIONS[name] as ((e: EventOf<N>, s: StateOf<N>) => SqlStatement[]) | undefined;
}
