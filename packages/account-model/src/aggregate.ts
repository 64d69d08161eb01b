// The shape every account aggregate has: its state, a pure `decide` (is this event a fact, given
// the state?) and a pure `evolve` (the state after the fact). The projector applies `decide` to the
// ordered log and stores the typed rejection with the event; the command calls the same `decide`
// for its early answer. Adding an aggregate = one module of this shape in aggregates/ + one line in
// registry.ts.
import type { ErrorKind } from '@llm/errors';
import type { AccountEvent, AccountEventType } from './account-event.ts';
import type { Decision } from './decision.ts';
import type { CommonRejection } from './common-rejections.ts';

/** How a rejection code reads to a client: the error kind the HTTP layer answers with. */
export type RejectionKinds<C extends string> = { readonly [K in C]: ErrorKind };

export interface Aggregate<T extends AccountEventType, S, C extends string> {
  readonly eventTypes: readonly T[];
  /** The state before any event. */
  readonly initial: S;
  /** Every code of its own `decide` may answer, with its error kind (the common codes come on top). */
  readonly rejections: RejectionKinds<C>;
  decide(e: AccountEvent<T>, s: S): Decision<C | CommonRejection>;
  evolve(s: S, e: AccountEvent<T>): S;
}

/** Declares an aggregate (keeps its literal types). */
export const aggregate = <T extends AccountEventType, S, C extends string>(a: Aggregate<T, S, C>): Aggregate<T, S, C> => a;
