// Given events / when an event / then the decision and the state: the shape of every aggregate test.
import type { AccountEvent, AccountEventType } from '../../src/account-event.ts';
import type { Aggregate } from '../../src/aggregate.ts';
import type { Decision } from '../../src/decision.ts';
import type { CommonRejection } from '../../src/common-rejections.ts';

export interface Then<S, C extends string> { decision: Decision<C | CommonRejection>; state: S }

/** Folds `history` with evolve (each must be accepted), then decides on `event`; the state is after it when accepted. */
export function given<T extends AccountEventType, S, C extends string>(a: Aggregate<T, S, C>, history: Array<AccountEvent<T>>, start: S = a.initial) {
  let state = start;
  for (const e of history) {
    const d = a.decide(e, state);
    if (d.status !== 'accepted') throw new Error(`history event ${e.type} was rejected: ${d.code} ${d.message}`);
    state = a.evolve(state, e);
  }
  return {
    state,
    when(event: AccountEvent<T>): Then<S, C> {
      const decision = a.decide(event, state);
      return { decision, state: decision.status === 'accepted' ? a.evolve(state, event) : state };
    },
  };
}

/** An event as the command would append it (envelope fields defaulted). */
export function ev<T extends AccountEventType>(type: T, payload: AccountEvent<T>['payload'], envelope: Partial<Omit<AccountEvent<T>, 'type' | 'payload'>> = {}): AccountEvent<T> {
  return { type, payload, projectId: '', organizationId: '', actorId: '', expectedVersion: 0, timeUs: 1_700_000_000_000_000, ...envelope } as AccountEvent<T>;
}
