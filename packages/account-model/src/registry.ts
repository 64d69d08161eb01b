// Every account aggregate, the event types each one owns, and the one table of rejection codes.
// An event type belongs to exactly one aggregate; the compiler checks that none is left out.
import type { AppError, ErrorKind } from '@llm/errors';
import { kindOf, presentRejection, type Presentation } from './presentation.ts';
import type { AccountEvent, AccountEventType } from './account-event.ts';
import type { Decision, Rejection } from './decision.ts';
import type { Queryable } from './queryable.ts';
import type { SqlStatement } from './statement.ts';
import { COMMON_REJECTIONS } from './common-rejections.ts';

export { COMMON_REJECTIONS };
import { apiKey } from './aggregates/api-key/index.ts';
import { domain } from './aggregates/domain/index.ts';
import { membership } from './aggregates/membership/index.ts';
import { organization } from './aggregates/organization/index.ts';
import { provider } from './aggregates/provider/index.ts';
import { secret } from './aggregates/secret/index.ts';
import { session } from './aggregates/session/index.ts';
import { user } from './aggregates/user/index.ts';
import { webhook } from './aggregates/webhook/index.ts';
import { invitation } from './aggregates/invitation/index.ts';
import { humanEvaluation } from './aggregates/human-evaluation/index.ts';
import { billing } from './aggregates/billing/index.ts';
import { organizationLifecycle } from './aggregates/organization-lifecycle/index.ts';
import { project } from './aggregates/project/index.ts';
import { redactionPolicy } from './aggregates/redaction-policy/index.ts';
import { artifact, legacyApplication, legacyTestset, savedQuery } from './aggregates/artifact/index.ts';

export const AGGREGATES = { user, session, organization, provider, domain, apiKey, membership, savedQuery, secret, webhook, invitation, billing, organizationLifecycle, project, legacyApplication, legacyTestset, humanEvaluation, redactionPolicy, artifact } as const;

type Aggregates = typeof AGGREGATES;
export type AggregateName = keyof Aggregates;
/** The state an aggregate decides on: what its `load` reads from the projection. */
export type StateOf<N extends AggregateName> = Awaited<ReturnType<Aggregates[N]['load']>>;
export type EventTypeOf<N extends AggregateName> = Aggregates[N]['eventTypes'][number];
export type EventOf<N extends AggregateName> = AccountEvent<EventTypeOf<N>>;

export type RejectionCode = keyof typeof COMMON_REJECTIONS | { [N in AggregateName]: keyof Aggregates[N]['rejections'] }[AggregateName];

/** Rejection code → its one presentation (the command's HTTP answer); each code is declared by one aggregate. */
export const REJECTION_PRESENTATIONS: Readonly<Record<RejectionCode, Presentation>> = Object.assign(
  {}, COMMON_REJECTIONS, ...Object.values(AGGREGATES).map((a) => a.rejections as Record<string, Presentation>),
) as Record<RejectionCode, Presentation>;

/** Rejection code → the error kind a client gets. */
export const REJECTION_KINDS: Readonly<Record<RejectionCode, ErrorKind>> = Object.fromEntries(
  Object.entries(REJECTION_PRESENTATIONS).map(([code, p]) => [code, kindOf(p as Presentation)]),
) as Record<RejectionCode, ErrorKind>;

export const isRejectionCode = (code: string): code is RejectionCode => Object.hasOwn(REJECTION_PRESENTATIONS, code);

/** The client's error for a rejection: its code's one presentation (presentation.ts). */
export function rejectionError(r: Rejection<RejectionCode>): AppError {
  return presentRejection(r, REJECTION_PRESENTATIONS[r.code]);
}

/** Refuses with a declared code outside `decide` (a lookup a route makes before any event): the same presentation. */
export function refuse(code: RejectionCode, message: string, details?: Record<string, unknown>): AppError {
  return rejectionError(details === undefined ? { status: 'rejected', code, message } : { status: 'rejected', code, message, details });
}

// Fails to compile when an accounts event type has no aggregate.
type Unowned = Exclude<AccountEventType, EventTypeOf<AggregateName>>;
const everyTypeOwned: [Unowned] extends [never] ? true : { unowned: Unowned } = true;
void everyTypeOwned;

const OWNER = new Map<string, AggregateName>(
  (Object.keys(AGGREGATES) as AggregateName[]).flatMap((n) => AGGREGATES[n].eventTypes.map((t) => [t, n] as const)),
);

/** The aggregate an accounts event type belongs to (undefined for a type not on the accounts topic). */
export const aggregateOf = (type: string): AggregateName | undefined => OWNER.get(type);

type Untyped = {
  decide(e: AccountEvent, s: unknown): Decision<RejectionCode>;
  load(q: Queryable, e: AccountEvent): Promise<unknown>;
  project(e: AccountEvent, s: unknown): SqlStatement[];
};
const untyped = (n: AggregateName): Untyped => AGGREGATES[n] as unknown as Untyped;

/** `decide` of the event's aggregate. */
export function decide<N extends AggregateName>(name: N, e: EventOf<N>, s: StateOf<N>): Decision<RejectionCode> {
  return untyped(name).decide(e as unknown as AccountEvent, s);
}

/** The state the event is decided on, read by its aggregate's `load` (the command's pool or the projector's transaction). */
export function loadState<N extends AggregateName>(q: Queryable, name: N, e: EventOf<N>): Promise<StateOf<N>> {
  return untyped(name).load(q, e as unknown as AccountEvent) as Promise<StateOf<N>>;
}

/** The SQL that stores the accepted event, by its aggregate's `project`. */
export function projectEvent<N extends AggregateName>(name: N, e: EventOf<N>, s: StateOf<N>): SqlStatement[] {
  return untyped(name).project(e as unknown as AccountEvent, s);
}
