// One accounts event applied inside the projector's batch transaction: decided with its aggregate's
// rules (@llm/account-model) on the state its reader (@llm/accounts-read) loads in this transaction,
// and projected with the aggregate's SQL (../projections) when it is a fact. The same ordered
// partition always yields the same states, so every replay reaches the same verdicts.
import { aggregateOf, decide, eventTime, reject, type EventOf, type Rejection } from '@llm/account-model';
import { loadState } from '@llm/accounts-read';
import type { DecodedEvent } from '@llm/events';
import type { PoolClient } from '@llm/postgres';
import { projectionOf } from '../projections/index.ts';

export async function applyEvent(c: PoolClient, e: DecodedEvent): Promise<{ status: 'applied' } | Rejection> {
  const name = aggregateOf(e.type);
  if (name === undefined) return reject('wrong_topic', `event type '${e.type}' does not belong on the accounts topic`);
  const event = e as unknown as EventOf<typeof name>;
  const state = await loadState(c, name, event);
  const decision = decide(name, event, state);
  if (decision.status === 'rejected') return decision;
  // The event's time for triggers (project_tombstones, 0017), local to this transaction: a replay
  // records the same times the live projector did.
  await c.query("SELECT set_config('accounts.event_time', $1, true)", [eventTime(e)]);
  for (const st of projectionOf(name)(event, state)) await c.query(st.text, st.values);
  return { status: 'applied' };
}
