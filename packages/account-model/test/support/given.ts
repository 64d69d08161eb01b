// Given a state / when an event / then the decision: the shape of every aggregate test. The state is
// written out as the readers (@llm/accounts-read, `load*State`) load it for the event; nothing is
// folded from earlier events, so a test says exactly what the decision looks at.
import type { AccountEvent, AccountEventType, Aggregate } from '../../src/index.ts';

/** What `a` decides on `event`, given `state`. */
export function decideOn<T extends AccountEventType, S, C extends string>(a: Aggregate<T, S, C>, state: S, event: AccountEvent<T>): ReturnType<Aggregate<T, S, C>['decide']> {
  return a.decide(event, state);
}

/** An event as the command would append it (envelope fields defaulted). */
export function ev<T extends AccountEventType>(type: T, payload: AccountEvent<T>['payload'], envelope: Partial<Omit<AccountEvent<T>, 'type' | 'payload'>> = {}): AccountEvent<T> {
  return { type, payload, projectId: '', organizationId: '', actorId: '', expectedVersion: 0, timeUs: 1_700_000_000_000_000, ...envelope } as AccountEvent<T>;
}
