// STUB — being ported (issue 11). Replace with the aggregate's state, decide and evolve.
import type { AccountEvent } from '../account-event.ts';
import { aggregate } from '../aggregate.ts';
import { accepted, type Decision } from '../decision.ts';

export const membership = aggregate({
  eventTypes: ['accounts.membership.set'],
  initial: {} as Record<string, never>,
  rejections: {} as Record<never, never>,
  decide(_e: AccountEvent<'accounts.membership.set'>, _s: Record<string, never>): Decision<never> { return accepted; },
  evolve(s: Record<string, never>, _e: AccountEvent<'accounts.membership.set'>) { return s; },
});
