// The shape every account aggregate has, in one folder per aggregate (aggregates/<name>/):
//   rules.ts      — the event types it owns, its stream key, its rejections (code → error kind) and a
//                   pure `decide` (is this event a fact, given the state?);
//   reads.ts      — `load`: its state, read from the projection (the one definition of the state: the
//                   command's early answer and the projector's authoritative decision both use it),
//                   and the read functions of its tables;
//   projection.ts — `project`: the SQL that stores an accepted event;
//   index.ts      — `aggregate(rules, { load, project })`, the line registry.ts lists.
// The projector applies `decide` to the ordered log on the state `load` reads in its transaction and
// stores the typed rejection with the event; the command calls the same pair for its early answer.
// Adding an aggregate = one folder of this shape + one line in registry.ts (README, "Adding an aggregate").
import type { RejectionPresentations } from './presentation.ts';
import type { AccountEvent, AccountEventType } from './account-event.ts';
import type { Decision } from './decision.ts';
import type { CommonRejection } from './common-rejections.ts';
import type { Queryable } from './queryable.ts';
import type { SqlStatement } from './statement.ts';

/** How each rejection code reads to a client (presentation.ts): its error kind, or a kind and the reference's body. */
export type RejectionKinds<C extends string> = RejectionPresentations<C>;

/** The pure part: what an aggregate accepts and why it refuses. */
export interface AggregateRules<T extends AccountEventType, S, C extends string> {
  readonly eventTypes: readonly T[];
  /** Every code its own `decide` (and its command-only rules) may answer, with its one presentation (the common codes come on top). */
  readonly rejections: RejectionKinds<C>;
  decide(e: AccountEvent<T>, s: S): Decision<C | CommonRejection>;
}

/** Where its state lives: read it for an event, and the SQL that stores an accepted one. */
export interface AggregateStore<T extends AccountEventType, S> {
  /** The state the event is decided on, as projected (`q` may be the projector's transaction). */
  load(q: Queryable, e: AccountEvent<T>): Promise<S>;
  /** The statements that store the accepted event (run in the projector's batch transaction). */
  project(e: AccountEvent<T>, s: S): SqlStatement[];
}

export interface Aggregate<T extends AccountEventType, S, C extends string> extends AggregateRules<T, S, C>, AggregateStore<T, S> {}

/** Declares an aggregate's rules (keeps their literal types). */
export const rules = <T extends AccountEventType, S, C extends string>(r: AggregateRules<T, S, C>): AggregateRules<T, S, C> => r;

/** An aggregate: its rules with its state's load and projection; the compiler refuses a missing piece. */
export const aggregate = <T extends AccountEventType, S, C extends string>(r: AggregateRules<T, S, C>, store: AggregateStore<T, S>): Aggregate<T, S, C> =>
  ({ ...r, ...store });
