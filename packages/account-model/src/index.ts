// The account model: per aggregate its state, a pure `decide` and a pure `evolve` (see aggregate.ts).
// No I/O here: the readers (@llm/accounts-read) load states, projector-accounts stores facts.
export { accepted, reject, checkVersion } from './decision.ts';
export type { Decision, Rejection } from './decision.ts';
export { eventTime } from './account-event.ts';
export type { AccountEvent, AccountEventType } from './account-event.ts';
export { aggregate } from './aggregate.ts';
export type { Aggregate, RejectionKinds } from './aggregate.ts';
export { AGGREGATES, COMMON_REJECTIONS, REJECTION_KINDS, aggregateOf, decide, evolve, isRejectionCode } from './registry.ts';
export type { AggregateName, EventOf, EventTypeOf, RejectionCode, StateOf } from './registry.ts';
export { isUuid, sameId } from './aggregates/ids.ts';
export * from './aggregates/domain.ts';
export * from './aggregates/organization.ts';
export * from './aggregates/provider.ts';
export * from './aggregates/user.ts';
export * from './aggregates/session.ts';
export * from './aggregates/api-key.ts';
export * from './aggregates/membership.ts';
export * from './aggregates/project.ts';
export * from './aggregates/saved-query.ts';
export * from './aggregates/secret.ts';
export * from './aggregates/webhook.ts';
export * from './aggregates/invitation.ts';
export * from './aggregates/application.ts';
export * from './aggregates/testset.ts';
export * from './aggregates/human-evaluation.ts';
export * from './aggregates/subscription-login.ts';
export * from './aggregates/billing.ts';
export * from './aggregates/organization-lifecycle.ts';
