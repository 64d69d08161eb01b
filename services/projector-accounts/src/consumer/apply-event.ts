// One accounts event applied inside the projector's batch transaction: decided with its aggregate's
// rules (@llm/account-model) on the state its reader (@llm/accounts-read) loads in this transaction,
// and projected with the aggregate's SQL (../projections) when it is a fact.
import type { DecodedEvent } from '@llm/events';
import type { PoolClient } from '@llm/postgres';
import { factsNeeded, projectAccountEvent, type AccountFacts, type FactsNeeded } from '../domain/account-projection.ts';
import { readSavedQueryFacts } from './saved-query-facts.ts';
import { readIdentityFacts } from './identity-facts.ts';
import { readApiKeyFacts } from './api-key-facts.ts';
import { readMembershipFacts } from './membership-facts.ts';
import { aggregateOf, decide, reject, type EventOf, type Rejection } from '@llm/account-model';
import { loadState } from '@llm/accounts-read';
import { projectionOf } from '../projections/index.ts';

/**
 * Decides on the event with its aggregate's rules (@llm/account-model) against the state the
 * aggregate's reader loads in this transaction, and runs the projection's SQL when it is a fact.
 */
export async function applyEvent(c: PoolClient, e: DecodedEvent): Promise<{ status: 'applied' } | Rejection> {
  const name = aggregateOf(e.type);
  if (name === undefined) return reject('wrong_topic', `event type '${e.type}' does not belong on the accounts topic`);
  const project = projectionOf(name);
  if (!project) return applyLegacy(c, e);
  const event = e as unknown as EventOf<typeof name>;
  const state = await loadState(c, name, event);
  const decision = decide(name, event, state);
  if (decision.status === 'rejected') return decision;
  for (const st of project(event, state)) await c.query(st.text, st.values);
  return { status: 'applied' };
}

async function applyLegacy(c: PoolClient, e: DecodedEvent): Promise<{ status: 'applied' } | Rejection> {
  const need: FactsNeeded = factsNeeded(e);
  const r = await c.query<{ email_taken: boolean; user_exists: boolean; slug_taken: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1)) AS email_taken,
            EXISTS (SELECT 1 FROM users WHERE id::text = $2) AS user_exists,
            EXISTS (SELECT 1 FROM organizations WHERE $3 <> '' AND slug = $3) AS slug_taken`,
    [need.email ?? '', need.userId ?? '', need.orgSlug ?? ''],
  );
  const facts: AccountFacts = { emailTaken: r.rows[0]!.email_taken, userExists: r.rows[0]!.user_exists, orgSlugTaken: r.rows[0]!.slug_taken };
  if (need.savedQuery) facts.savedQuery = await readSavedQueryFacts(c, need.savedQuery);
  if (need.identity) facts.identity = await readIdentityFacts(c, need.identity);
  if (need.apiKey) facts.apiKey = await readApiKeyFacts(c, need.apiKey);
  if (need.membership) facts.membership = await readMembershipFacts(c, need.membership);
  const projection = projectAccountEvent(e, facts);
  if (projection.status === 'rejected') return reject('malformed_event', projection.reason);
  for (const st of projection.statements) await c.query(st.text, st.values);
  return { status: 'applied' };
}
