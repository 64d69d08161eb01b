// Every account aggregate, the event types each one owns, and the one table of rejection codes.
// An event type belongs to exactly one aggregate; the compiler checks that none is left out.
import type { ErrorKind } from '@llm/errors';
import type { AccountEvent, AccountEventType } from './account-event.ts';
import type { Decision } from './decision.ts';
import { COMMON_REJECTIONS } from './common-rejections.ts';

export { COMMON_REJECTIONS };
import { apiKey } from './aggregates/api-key.ts';
import { domain } from './aggregates/domain.ts';
import { membership } from './aggregates/membership.ts';
import { organization } from './aggregates/organization.ts';
import { provider } from './aggregates/provider.ts';
import { savedQuery } from './aggregates/saved-query.ts';
import { secret } from './aggregates/secret.ts';
import { session } from './aggregates/session.ts';
import { user } from './aggregates/user.ts';
import { webhook } from './aggregates/webhook.ts';
import { invitation } from './aggregates/invitation.ts';
import { application } from './aggregates/application.ts';
import { testset } from './aggregates/testset.ts';
import { humanEvaluation } from './aggregates/human-evaluation.ts';
import { billing } from './aggregates/billing.ts';
import { organizationLifecycle } from './aggregates/organization-lifecycle.ts';
import { project } from './aggregates/project.ts';
import { redactionPolicy } from './aggregates/redaction-policy.ts';

export const AGGREGATES = { user, session, organization, provider, domain, apiKey, membership, savedQuery, secret, webhook, invitation, billing, organizationLifecycle, project, application, testset, humanEvaluation, redactionPolicy } as const;

type Aggregates = typeof AGGREGATES;
export type AggregateName = keyof Aggregates;
export type StateOf<N extends AggregateName> = Aggregates[N]['initial'];
export type EventTypeOf<N extends AggregateName> = Aggregates[N]['eventTypes'][number];
export type EventOf<N extends AggregateName> = AccountEvent<EventTypeOf<N>>;

export type RejectionCode = keyof typeof COMMON_REJECTIONS | { [N in AggregateName]: keyof Aggregates[N]['rejections'] }[AggregateName];

/** Rejection code → the error kind a client gets (the command's HTTP answer). */
export const REJECTION_KINDS: Readonly<Record<RejectionCode, ErrorKind>> = Object.assign(
  {}, COMMON_REJECTIONS, ...Object.values(AGGREGATES).map((a) => a.rejections as Record<string, ErrorKind>),
) as Record<RejectionCode, ErrorKind>;

export const isRejectionCode = (code: string): code is RejectionCode => Object.hasOwn(REJECTION_KINDS, code);

// Fails to compile when an accounts event type has no aggregate.
type Unowned = Exclude<AccountEventType, EventTypeOf<AggregateName>>;
const everyTypeOwned: [Unowned] extends [never] ? true : { unowned: Unowned } = true;
void everyTypeOwned;

const OWNER = new Map<string, AggregateName>(
  (Object.keys(AGGREGATES) as AggregateName[]).flatMap((n) => AGGREGATES[n].eventTypes.map((t) => [t, n] as const)),
);

/** The aggregate an accounts event type belongs to (undefined for a type not on the accounts topic). */
export const aggregateOf = (type: string): AggregateName | undefined => OWNER.get(type);

type Untyped = { decide(e: AccountEvent, s: unknown): Decision<RejectionCode>; evolve(s: unknown, e: AccountEvent): unknown; initial: unknown };
const untyped = (n: AggregateName): Untyped => AGGREGATES[n] as unknown as Untyped;

/** `decide` of the event's aggregate. */
export function decide<N extends AggregateName>(name: N, e: EventOf<N>, s: StateOf<N>): Decision<RejectionCode> {
  return untyped(name).decide(e as unknown as AccountEvent, s);
}

/** `evolve` of the event's aggregate. */
export function evolve<N extends AggregateName>(name: N, s: StateOf<N>, e: EventOf<N>): StateOf<N> {
  return untyped(name).evolve(s, e as unknown as AccountEvent) as StateOf<N>;
}
