// The account side, one folder per aggregate (see aggregate.ts): its rules, stream key, state (read
// from the projection), the SQL of its facts and the reads of its tables. The command decides early
// with it, projector-accounts applies it to the ordered log, the query service and auth read through
// it. Pure rules import no I/O; reads and projections take a `Queryable` they are given.
export { accepted, reject, checkVersion } from './decision.ts';
export type { Decision, Rejection } from './decision.ts';
export { eventTime } from './account-event.ts';
export type { AccountEvent, AccountEventType } from './account-event.ts';
export { aggregate, rules } from './aggregate.ts';
export type { Aggregate, AggregateRules, AggregateStore, RejectionKinds } from './aggregate.ts';
export { AGGREGATES, COMMON_REJECTIONS, REJECTION_KINDS, REJECTION_PRESENTATIONS, aggregateOf, decide, isRejectionCode, loadState, projectEvent, refuse, rejectionError } from './registry.ts';
export { kindOf, presentRejection } from './presentation.ts';
export type { Presentation, RejectionBody, RejectionPresentations } from './presentation.ts';
export type { AggregateName, EventOf, EventTypeOf, RejectionCode, StateOf } from './registry.ts';
export type { Queryable } from './queryable.ts';
export { asUuid, parseUuid } from './queryable.ts';
export type { SqlStatement } from './statement.ts';
export { isUuid, sameId } from './aggregates/ids.ts';
export * from './aggregates/api-key/index.ts';
export * from './aggregates/billing/index.ts';
export * from './aggregates/domain/index.ts';
export * from './aggregates/human-evaluation/index.ts';
export * from './aggregates/invitation/index.ts';
export * from './aggregates/membership/index.ts';
export * from './aggregates/organization/index.ts';
export * from './aggregates/organization-lifecycle/index.ts';
export * from './aggregates/project/index.ts';
export * from './aggregates/provider/index.ts';
export * from './aggregates/redaction-policy/index.ts';
export * from './aggregates/secret/index.ts';
export * from './aggregates/secret/subscription-login.ts';
export * from './aggregates/session/index.ts';
export * from './aggregates/artifact/index.ts';
export * from './aggregates/user/index.ts';
export * from './aggregates/webhook/index.ts';
