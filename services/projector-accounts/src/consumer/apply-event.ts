// One accounts event applied inside the projector's batch transaction: decided with its aggregate's
// rules on the state its `load` reads in this transaction, and stored with its `project` SQL when it
// is a fact (both in the aggregate's folder of @llm/account-model). The same ordered
// partition always yields the same states, so every replay reaches the same verdicts.
import { aggregateOf, decide, eventTime, loadState, projectEvent, reject, type EventOf, type Rejection } from '@llm/account-model';
import type { DecodedEvent } from '@llm/events';
import type { PoolClient } from '@llm/postgres';

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
  for (const st of projectEvent(name, event, state)) await c.query(st.text, st.values);
  return { status: 'applied' };
}
